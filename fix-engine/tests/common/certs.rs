//! Certificate authorities, servers' and clients' certificates for the TLS
//! tests, made at test time into PEM files.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rcgen::{
    BasicConstraints, CertificateParams, CertificateRevocationListParams, CertifiedIssuer, DnType,
    ExtendedKeyUsagePurpose, IsCa, KeyIdMethod, KeyPair, KeyUsagePurpose, RevokedCertParams,
    SerialNumber, date_time_ymd,
};

/// Serial numbers, one per certificate issued in the test process.
static SERIAL: AtomicU64 = AtomicU64::new(1000);

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
    /// Its serial number, for a revocation list.
    #[allow(dead_code)]
    pub serial: u64,
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

    /// A revocation list of this authority in `<dir>/<name>.crl.pem`,
    /// revoking `revoked`.
    #[allow(dead_code)]
    pub fn revocation_list(&self, name: &str, revoked: &[&Identity]) -> PathBuf {
        let params = CertificateRevocationListParams {
            this_update: date_time_ymd(2020, 1, 1),
            next_update: date_time_ymd(2999, 1, 1),
            crl_number: SerialNumber::from(SERIAL.fetch_add(1, Ordering::Relaxed)),
            issuing_distribution_point: None,
            revoked_certs: revoked
                .iter()
                .map(|identity| RevokedCertParams {
                    serial_number: SerialNumber::from(identity.serial),
                    revocation_time: date_time_ymd(2021, 1, 1),
                    reason_code: None,
                    invalidity_date: None,
                })
                .collect(),
            key_identifier_method: KeyIdMethod::Sha256,
        };
        let list = params.signed_by(&self.issuer).unwrap();
        let path = self.dir.join(format!("{name}.crl.pem"));
        std::fs::write(&path, list.pem().unwrap()).unwrap();
        path
    }

    fn issue(&self, name: &str, sans: &[&str], usage: ExtendedKeyUsagePurpose) -> Identity {
        let sans: Vec<String> = sans.iter().map(|s| s.to_string()).collect();
        let mut params = CertificateParams::new(sans).unwrap();
        params.distinguished_name.push(DnType::CommonName, name);
        params.extended_key_usages = vec![usage];
        let serial = SERIAL.fetch_add(1, Ordering::Relaxed);
        params.serial_number = Some(SerialNumber::from(serial));
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        let identity = Identity {
            cert: self.dir.join(format!("{name}.crt")),
            key: self.dir.join(format!("{name}.key")),
            serial,
        };
        std::fs::write(&identity.cert, cert.pem()).unwrap();
        std::fs::write(&identity.key, key.serialize_pem()).unwrap();
        identity
    }
}

/// Runs the `openssl` command line with `args`, panicking when it fails:
/// encrypted keys made as users make theirs. `false` when openssl is not
/// installed: the caller skips with a line, except under `CI=true`, where
/// that fails.
#[allow(dead_code)]
pub fn openssl(args: &[&str]) -> bool {
    match std::process::Command::new("openssl").args(args).output() {
        Ok(o) => {
            assert!(
                o.status.success(),
                "openssl {args:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            true
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "openssl is needed under CI=true (it makes the encrypted keys)"
            );
            println!("skipped: the openssl command is not installed");
            false
        }
        Err(e) => panic!("openssl {args:?}: {e}"),
    }
}

/// `identity`'s key encrypted as `openssl pkcs8 -topk8 -v2 aes-256-cbc`
/// writes it (PBES2, PBKDF2 with HMAC-SHA256), with `password`, in
/// `<key>.enc`; `None` without openssl.
#[allow(dead_code)]
pub fn encrypted_key(identity: &Identity, password: &str) -> Option<PathBuf> {
    let out = identity.key.with_extension("enc");
    let pass = format!("pass:{password}");
    let made = openssl(&[
        "pkcs8",
        "-topk8",
        "-v2",
        "aes-256-cbc",
        "-in",
        identity.key.to_str().unwrap(),
        "-passout",
        &pass,
        "-out",
        out.to_str().unwrap(),
    ]);
    made.then_some(out)
}

/// `identity`'s certificate and key, with `chain`'s certificates after them,
/// in a PKCS#12 file `<dir>/<name>.p12` as `openssl pkcs12 -export` writes
/// it (with `options` added: `-legacy`, …), protected by `password`; `None`
/// without openssl.
#[allow(dead_code)]
pub fn pkcs12(
    identity: &Identity,
    chain: Option<&Path>,
    password: &str,
    options: &[&str],
    name: &str,
) -> Option<PathBuf> {
    let dir = identity.cert.parent().unwrap();
    let out = dir.join(format!("{name}.p12"));
    let pass = format!("pass:{password}");
    let mut args = vec![
        "pkcs12",
        "-export",
        "-in",
        identity.cert.to_str().unwrap(),
        "-inkey",
        identity.key.to_str().unwrap(),
        "-passout",
        &pass,
        "-out",
        out.to_str().unwrap(),
    ];
    if let Some(chain) = chain {
        args.extend(["-certfile", chain.to_str().unwrap()]);
    }
    args.extend(options);
    openssl(&args).then_some(out)
}
