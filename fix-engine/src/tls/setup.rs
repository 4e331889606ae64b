//! The TLS configurations of a [`Settings`](crate::config::Settings)' listeners
//! and initiators, made from their PEM files when the engine starts: every file
//! read, every certificate and key parsed and matched, before a socket is bound;
//! and the names a client certificate holds.

use std::path::Path;
use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::{self, PemObject};
use rustls::pki_types::{CertificateDer, CertificateRevocationListDer, PrivateKeyDer, ServerName};
use rustls::server::WebPkiClientVerifier;
use rustls::{ClientConfig, RootCertStore, ServerConfig};

use super::unchecked::{AnyClientCertificate, AnyServerCertificate};
use super::{TlsError, TlsFileError};
use crate::config::{ClientAuth, Endpoint, Tls};

/// What an initiator connects with: its configuration and, for each endpoint
/// in order, the name the acceptor's certificate must hold.
#[derive(Clone, Debug)]
pub(crate) struct Client {
    pub(crate) config: Arc<ClientConfig>,
    pub(crate) names: Vec<ServerName<'static>>,
}

/// ring, named rather than taken from the process's default: another crate
/// installing a different default cannot change (or break) the engine's.
fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The setting names of a role's certificate and key.
struct Names {
    certificate: &'static str,
    key: &'static str,
}

const SERVER: Names = Names {
    certificate: "ServerCertificateFile",
    key: "ServerCertificateKeyFile",
};
const CLIENT: Names = Names {
    certificate: "ClientCertificateFile",
    key: "ClientCertificateKeyFile",
};
const CA: &str = "CertificationAuthoritiesFile";
const CRL: &str = "CertificateRevocationListFile";

/// An acceptor port's configuration.
pub(crate) fn server(tls: &Tls) -> Result<Arc<ServerConfig>, TlsError> {
    let fail = |setting, path: &Path, error| file_error(setting, path, error);
    let Some(cert_path) = &tls.certificate else {
        // The settings require it: a Tls without one is one made by hand.
        return Err(fail(
            SERVER.certificate,
            Path::new(""),
            TlsFileError::NotGiven,
        ));
    };
    let provider = provider();
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| {
            fail(
                SERVER.certificate,
                cert_path,
                TlsFileError::Rejected(e.to_string()),
            )
        })?;
    let builder = match tls.client_auth {
        ClientAuth::None => builder.with_no_client_auth(),
        auth if !tls.verify_certificates => {
            builder.with_client_cert_verifier(Arc::new(AnyClientCertificate {
                provider: provider.clone(),
                mandatory: auth == ClientAuth::Required,
            }))
        }
        auth => {
            let roots = roots(tls)?;
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .with_crls(revocation_lists(tls)?)
                // OpenSSL's CRL check, as QuickFIX sets it: the peer's own
                // certificate, its authority's list required.
                .only_check_end_entity_revocation();
            let verifier = if auth == ClientAuth::Optional {
                verifier.allow_unauthenticated()
            } else {
                verifier
            };
            let ca = tls.ca_file.as_deref().unwrap_or(Path::new(""));
            let verifier = verifier
                .build()
                .map_err(|e| fail(CA, ca, TlsFileError::Rejected(e.to_string())))?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let (chain, key) = identity(&SERVER, cert_path, tls)?;
    builder
        .with_single_cert(chain, key)
        .map_err(|e| identity_error(&SERVER, cert_path, tls.private_key.as_deref(), e))
        .map(Arc::new)
}

/// An initiator's configuration and server names, one per endpoint.
pub(crate) fn client(tls: &Tls, endpoints: &[Endpoint]) -> Result<Client, TlsError> {
    let ca = tls.ca_file.as_deref().unwrap_or(Path::new(""));
    let provider = provider();
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| file_error(CA, ca, TlsFileError::Rejected(e.to_string())))?;
    let builder = if tls.verify_certificates {
        let roots = match tls.ca_file {
            Some(_) => roots(tls)?,
            None => system_roots()?,
        };
        let verifier =
            WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
                .with_crls(revocation_lists(tls)?)
                .only_check_end_entity_revocation()
                .build()
                .map_err(|e| file_error(CA, ca, TlsFileError::Rejected(e.to_string())))?;
        builder.with_webpki_verifier(verifier)
    } else {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AnyServerCertificate(provider)))
    };
    let config = match &tls.certificate {
        None => builder.with_no_client_auth(),
        Some(cert_path) => {
            let (chain, key) = identity(&CLIENT, cert_path, tls)?;
            builder
                .with_client_auth_cert(chain, key)
                .map_err(|e| identity_error(&CLIENT, cert_path, tls.private_key.as_deref(), e))?
        }
    };
    let mut names = Vec::with_capacity(endpoints.len());
    for (n, endpoint) in endpoints.iter().enumerate() {
        let (setting, name) = match &tls.server_name {
            Some(name) => ("SNIHostName".to_owned(), name.as_str()),
            None if n == 0 => ("SocketConnectHost".to_owned(), endpoint.host.as_str()),
            None => (format!("SocketConnectHost{n}"), endpoint.host.as_str()),
        };
        let server_name =
            ServerName::try_from(name.to_owned()).map_err(|_| TlsError::ServerName {
                setting,
                name: name.to_owned(),
            })?;
        names.push(server_name);
    }
    Ok(Client {
        config: Arc::new(config),
        names,
    })
}

/// The certificate authorities of `CertificationAuthoritiesFile`: a PEM
/// file, or a directory of them (QuickFIX's `CertificationAuthoritiesDirectory`).
fn roots(tls: &Tls) -> Result<RootCertStore, TlsError> {
    let Some(path) = &tls.ca_file else {
        // The settings require it wherever it is read.
        return Err(file_error(CA, Path::new(""), TlsFileError::NotGiven));
    };
    let fail = |error| file_error(CA, path, error);
    let text = if path.is_dir() {
        read_dir(path).map_err(fail)?
    } else {
        read(path).map_err(fail)?
    };
    let mut roots = RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(&text) {
        let cert = cert.map_err(|e| fail(pem_error(e)))?;
        roots
            .add(cert)
            .map_err(|e| fail(TlsFileError::Rejected(e.to_string())))?;
    }
    if roots.is_empty() {
        return Err(fail(TlsFileError::NoCertificate));
    }
    Ok(roots)
}

/// The system's certificate authorities, for an initiator without
/// `CertificationAuthoritiesFile`: `SSL_CERT_FILE` or `SSL_CERT_DIR` when set,
/// else the bundle the system's OpenSSL would read (what QuickFIX trusts
/// then). Certificates that do not parse are passed over, as OpenSSL does; none
/// at all is an error naming where it looked.
fn system_roots() -> Result<RootCertStore, TlsError> {
    let found = rustls_native_certs::load_native_certs();
    let mut roots = RootCertStore::empty();
    let (added, _) = roots.add_parsable_certificates(found.certs);
    if added > 0 {
        return Ok(roots);
    }
    let why = match found.errors.first() {
        Some(e) => format!("none of the system's could be read ({e})"),
        None => "the system has none".to_owned(),
    };
    Err(file_error(
        CA,
        Path::new(""),
        TlsFileError::Rejected(format!(
            "not given, and {why}: give the acceptor's certificate authority in CertificationAuthoritiesFile, or set SSL_CERT_FILE"
        )),
    ))
}

/// The revocation lists of `CertificateRevocationListFile` (a PEM file or a
/// directory of them); none without it.
fn revocation_lists(tls: &Tls) -> Result<Vec<CertificateRevocationListDer<'static>>, TlsError> {
    let Some(path) = &tls.revocation_lists else {
        return Ok(Vec::new());
    };
    let fail = |error| file_error(CRL, path, error);
    let text = if path.is_dir() {
        read_dir(path).map_err(fail)?
    } else {
        read(path).map_err(fail)?
    };
    let lists = CertificateRevocationListDer::pem_slice_iter(&text)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| fail(pem_error(e)))?;
    if lists.is_empty() {
        return Err(fail(TlsFileError::Rejected(
            "it holds no revocation list (a PEM X509 CRL section)".into(),
        )));
    }
    Ok(lists)
}

/// A certificate chain and its key, the key from its own file or, without
/// one, from the certificate's, decrypted with `tls.key_password` when it is
/// encrypted.
fn identity(
    names: &Names,
    cert_path: &Path,
    tls: &Tls,
) -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), TlsError> {
    let cert_fail = |error| file_error(names.certificate, cert_path, error);
    let cert_text = read(cert_path).map_err(cert_fail)?;
    if super::key::is_pkcs12(&cert_text) {
        return Err(cert_fail(TlsFileError::Pkcs12));
    }
    let chain = CertificateDer::pem_slice_iter(&cert_text)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| cert_fail(pem_error(e)))?;
    if chain.is_empty() {
        return Err(cert_fail(TlsFileError::NoCertificate));
    }
    let (setting, path, key_text) = match tls.private_key.as_deref() {
        Some(path) => {
            let text = read(path).map_err(|e| file_error(names.key, path, e))?;
            (names.key, path, text)
        }
        None => (names.certificate, cert_path, cert_text),
    };
    let key_fail = |error| file_error(setting, path, error);
    if super::key::is_pkcs12(&key_text) {
        return Err(key_fail(TlsFileError::Pkcs12));
    }
    let key = super::key::private_key(&key_text, tls.key_password.as_ref()).map_err(key_fail)?;
    Ok((chain, key))
}

fn read(path: &Path) -> Result<Vec<u8>, TlsFileError> {
    std::fs::read(path).map_err(TlsFileError::Read)
}

/// The files of directory `dir` (OpenSSL's hashed links among them), one
/// after another, in the order of their names.
fn read_dir(dir: &Path) -> Result<Vec<u8>, TlsFileError> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(TlsFileError::Read)? {
        let path = entry.map_err(TlsFileError::Read)?.path();
        if path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    let mut text = Vec::new();
    for file in files {
        text.extend_from_slice(&read(&file)?);
        text.push(b'\n');
    }
    Ok(text)
}

pub(super) fn pem_error(e: pem::Error) -> TlsFileError {
    match e {
        pem::Error::Io(e) => TlsFileError::Read(e),
        e => TlsFileError::Pem(e.to_string()),
    }
}

/// What rustls says of a certificate and key it was given, told of the file
/// it is about: the certificate's when the certificate does not parse, else
/// the key's (its own file, or the certificate's when it has none).
fn identity_error(
    names: &Names,
    cert_path: &Path,
    key_path: Option<&Path>,
    e: rustls::Error,
) -> TlsError {
    let (key_setting, key_path) = match key_path {
        Some(path) => (names.key, path),
        None => (names.certificate, cert_path),
    };
    match e {
        rustls::Error::InconsistentKeys(rustls::InconsistentKeys::KeyMismatch) => {
            file_error(key_setting, key_path, TlsFileError::KeyMismatch)
        }
        rustls::Error::InvalidCertificate(e) => file_error(
            names.certificate,
            cert_path,
            TlsFileError::Rejected(e.to_string()),
        ),
        e => file_error(key_setting, key_path, TlsFileError::Rejected(e.to_string())),
    }
}

fn file_error(setting: &'static str, path: &Path, error: TlsFileError) -> TlsError {
    TlsError::File {
        setting,
        path: path.to_path_buf(),
        error,
    }
}

/// Whether the certificate `der` names one of `names` (`{TargetCompID}` in a
/// name standing for `target_comp_id`): a DNS name or IP address among its
/// subject alternative names, as a server's is checked, or its subject's
/// CommonName exactly.
pub(crate) fn certificate_names(der: &[u8], names: &[String], target_comp_id: &str) -> bool {
    let der = CertificateDer::from(der);
    let Ok(cert) = webpki::EndEntityCert::try_from(&der) else {
        return false;
    };
    let common_names = common_names(cert.subject());
    names.iter().any(|pattern| {
        let name = pattern.replace("{TargetCompID}", target_comp_id);
        let by_san = ServerName::try_from(name.as_str())
            .is_ok_and(|n| cert.verify_is_valid_for_subject_name(&n).is_ok());
        by_san || common_names.contains(&name.as_bytes())
    })
}

/// The CommonName (OID 2.5.4.3) values of a certificate's subject, its DER
/// contents (the RDNs, without the outer SEQUENCE): each RDN a SET of
/// SEQUENCEs of an OID and a string.
fn common_names(subject: &[u8]) -> Vec<&[u8]> {
    const CN: &[u8] = &[0x55, 0x04, 0x03];
    let mut found = Vec::new();
    let mut rdns = subject;
    while let Some((0x31, set, rest)) = der_read(rdns) {
        rdns = rest;
        let mut attributes = set;
        while let Some((0x30, attribute, rest)) = der_read(attributes) {
            attributes = rest;
            if let Some((0x06, oid, value)) = der_read(attribute)
                && oid == CN
                && let Some((_, text, _)) = der_read(value)
            {
                found.push(text);
            }
        }
    }
    found
}

/// One DER element at the start of `bytes`: its tag, its contents and what
/// follows it; `None` when it does not fit.
pub(super) fn der_read(bytes: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = bytes.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n]
            .iter()
            .fold(0usize, |l, &b| (l << 8) | usize::from(b));
        (len, &rest[n..])
    };
    if rest.len() < len {
        return None;
    }
    let (contents, after) = rest.split_at(len);
    Some((tag, contents, after))
}

#[cfg(test)]
mod name_tests {
    use super::*;

    #[test]
    fn der_elements_are_read_within_their_bounds() {
        assert_eq!(
            der_read(&[0x30, 2, 1, 2, 9]),
            Some((0x30, &[1, 2][..], &[9][..]))
        );
        assert_eq!(
            der_read(&[0x30, 0x81, 2, 1, 2]),
            Some((0x30, &[1, 2][..], &[][..]))
        );
        assert_eq!(der_read(&[0x30, 3, 1, 2]), None, "contents cut short");
        assert_eq!(
            der_read(&[0x30, 0x85, 0, 0, 0, 0, 1]),
            None,
            "a length of 5 bytes"
        );
        assert_eq!(der_read(&[0x30]), None);
    }

    #[test]
    fn common_names_are_found_among_a_subject_s_attributes() {
        // O=Acme, CN=desk1: two RDNs.
        let subject = [
            0x31, 0x0d, 0x30, 0x0b, 0x06, 0x03, 0x55, 0x04, 0x0a, 0x0c, 0x04, b'A', b'c', b'm',
            b'e', 0x31, 0x0e, 0x30, 0x0c, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0c, 0x05, b'd', b'e',
            b's', b'k', b'1',
        ];
        assert_eq!(common_names(&subject), [b"desk1"]);
        // The first RDN alone (O=Acme) has no CommonName; cut inside the
        // second, nothing is read past the cut.
        assert!(common_names(&subject[..15]).is_empty());
        assert!(common_names(&subject[..25]).is_empty());
        assert!(common_names(&[0x31, 0x7f]).is_empty(), "garbage");
    }
}
