//! Certificate authorities, servers' and clients' certificates for the TLS
//! tests, made at test time into PEM files.

use std::path::{Path, PathBuf};

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};

/// A certificate authority, its certificate in `<dir>/<name>.pem`.
pub struct Ca {
    issuer: CertifiedIssuer<'static, KeyPair>,
    pub dir: PathBuf,
    pub cert: PathBuf,
}

/// A certificate and its key, each in its own PEM file.
pub struct Identity {
    pub cert: PathBuf,
    pub key: PathBuf,
}

impl Ca {
    pub fn new(dir: &Path, name: &str) -> Ca {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let issuer = CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap();
        let cert = dir.join(format!("{name}.pem"));
        std::fs::write(&cert, issuer.pem()).unwrap();
        Ca {
            issuer,
            dir: dir.to_path_buf(),
            cert,
        }
    }

    /// A server's certificate for `localhost` and 127.0.0.1.
    pub fn server(&self, name: &str) -> Identity {
        self.issue(
            name,
            &["localhost", "127.0.0.1"],
            ExtendedKeyUsagePurpose::ServerAuth,
        )
    }

    /// A client's certificate.
    pub fn client(&self, name: &str) -> Identity {
        self.issue(name, &[], ExtendedKeyUsagePurpose::ClientAuth)
    }

    /// A client's certificate naming `sans` among its subject alternative names.
    pub fn client_with_names(&self, name: &str, sans: &[&str]) -> Identity {
        self.issue(name, sans, ExtendedKeyUsagePurpose::ClientAuth)
    }

    fn issue(&self, name: &str, sans: &[&str], usage: ExtendedKeyUsagePurpose) -> Identity {
        let sans: Vec<String> = sans.iter().map(|s| s.to_string()).collect();
        let mut params = CertificateParams::new(sans).unwrap();
        params.distinguished_name.push(DnType::CommonName, name);
        params.extended_key_usages = vec![usage];
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        let identity = Identity {
            cert: self.dir.join(format!("{name}.crt")),
            key: self.dir.join(format!("{name}.key")),
        };
        std::fs::write(&identity.cert, cert.pem()).unwrap();
        std::fs::write(&identity.key, key.serialize_pem()).unwrap();
        identity
    }
}
