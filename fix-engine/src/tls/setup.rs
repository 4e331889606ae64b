//! The TLS configurations of a [`Settings`](crate::config::Settings)' listeners
//! and initiators, made from their PEM or PKCS#12 files (QuickFIX/J's
//! `SocketKeyStore` and `SocketTrustStore` read as PKCS#12) when the engine
//! starts: every file read, every certificate and key parsed and matched,
//! before a socket is bound; and the names a client certificate holds.

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
/// QuickFIX/J's key store: the certificate and its key in one PKCS#12 file.
const KEY_STORE: Names = Names {
    certificate: "SocketKeyStore",
    key: "SocketKeyStore",
};
const KEY_STORE_PASSWORD: &str = "SocketKeyStorePassword";
const TRUST_STORE: &str = "SocketTrustStore";
const TRUST_STORE_PASSWORD: &str = "SocketTrustStorePassword";
const CA: &str = "CertificationAuthoritiesFile";
const CRL: &str = "CertificateRevocationListFile";

/// An acceptor port's configuration.
pub(crate) fn server(tls: &Tls) -> Result<Arc<ServerConfig>, TlsError> {
    let fail = |setting, path: &Path, error| file_error(setting, path, error);
    let (names, cert_path) = match (&tls.key_store, &tls.certificate) {
        (Some(store), _) => (&KEY_STORE, store),
        (None, Some(cert)) => (&SERVER, cert),
        // The settings require one: a Tls without either is one made by hand.
        (None, None) => {
            return Err(fail(
                SERVER.certificate,
                Path::new(""),
                TlsFileError::NotGiven,
            ));
        }
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
            let (ca_setting, ca) = authorities(tls);
            let verifier = verifier
                .build()
                .map_err(|e| fail(ca_setting, ca, TlsFileError::Rejected(e.to_string())))?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let (chain, key) = identity(names, cert_path, tls)?;
    builder
        .with_single_cert(chain, key)
        .map_err(|e| identity_error(names, cert_path, key_path(tls), e))
        .map(Arc::new)
}

/// An initiator's configuration and server names, one per endpoint.
pub(crate) fn client(tls: &Tls, endpoints: &[Endpoint]) -> Result<Client, TlsError> {
    let (ca_setting, ca) = authorities(tls);
    let provider = provider();
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| file_error(ca_setting, ca, TlsFileError::Rejected(e.to_string())))?;
    let builder = if tls.verify_certificates {
        let roots = if tls.ca_file.is_some() || tls.trust_store.is_some() {
            roots(tls)?
        } else {
            system_roots()?
        };
        let verifier =
            WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
                .with_crls(revocation_lists(tls)?)
                .only_check_end_entity_revocation()
                .build()
                .map_err(|e| file_error(ca_setting, ca, TlsFileError::Rejected(e.to_string())))?;
        builder.with_webpki_verifier(verifier)
    } else {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AnyServerCertificate(provider)))
    };
    let own = match (&tls.key_store, &tls.certificate) {
        (Some(store), _) => Some((&KEY_STORE, store)),
        (None, Some(cert)) => Some((&CLIENT, cert)),
        (None, None) => None,
    };
    let config = match own {
        None => builder.with_no_client_auth(),
        Some((names, cert_path)) => {
            let (chain, key) = identity(names, cert_path, tls)?;
            builder
                .with_client_auth_cert(chain, key)
                .map_err(|e| identity_error(names, cert_path, key_path(tls), e))?
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

/// The setting and file the certificate authorities come from:
/// `SocketTrustStore` or `CertificationAuthoritiesFile` (an empty path when
/// neither is given).
fn authorities(tls: &Tls) -> (&'static str, &Path) {
    match (&tls.trust_store, &tls.ca_file) {
        (Some(store), _) => (TRUST_STORE, store),
        (None, ca) => (CA, ca.as_deref().unwrap_or(Path::new(""))),
    }
}

/// The file of this side's private key, when it has one of its own (a key
/// store holds its key with its certificate).
fn key_path(tls: &Tls) -> Option<&Path> {
    match tls.key_store {
        Some(_) => None,
        None => tls.private_key.as_deref(),
    }
}

/// The certificate authorities of `SocketTrustStore` (the certificates of a
/// PKCS#12 file) or of `CertificationAuthoritiesFile`: a PEM file, or a
/// directory of them (QuickFIX's `CertificationAuthoritiesDirectory`).
fn roots(tls: &Tls) -> Result<RootCertStore, TlsError> {
    if let Some(store) = &tls.trust_store {
        let fail = |error| file_error(TRUST_STORE, store, error);
        let password = tls.trust_store_password.as_ref();
        let contents = open_store(store, TRUST_STORE_PASSWORD, password).map_err(fail)?;
        let mut roots = RootCertStore::empty();
        for cert in contents.chain {
            roots
                .add(cert)
                .map_err(|e| fail(TlsFileError::Rejected(e.to_string())))?;
        }
        if roots.is_empty() {
            return Err(fail(TlsFileError::Rejected(
                "it holds no certificate (a PKCS#12 certificate bag, as openssl pkcs12 -export -nokeys -in ca.pem or keytool -importcert write it)".into(),
            )));
        }
        return Ok(roots);
    }
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
/// encrypted. Either file may be PKCS#12 (`.p12`, `.pfx`), opened with the
/// same password: the certificate's gives its chain and, without a key
/// file, its key.
///
/// With `names` the key store's, `cert_path` is `SocketKeyStore`: a PKCS#12
/// file opened with `SocketKeyStorePassword`, holding both.
fn identity(
    names: &Names,
    cert_path: &Path,
    tls: &Tls,
) -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), TlsError> {
    let cert_fail = |error| file_error(names.certificate, cert_path, error);
    if names.certificate == KEY_STORE.certificate {
        let password = tls.key_store_password.as_ref();
        let contents = open_store(cert_path, KEY_STORE_PASSWORD, password).map_err(cert_fail)?;
        if contents.chain.is_empty() {
            return Err(cert_fail(TlsFileError::Rejected(
                "it holds no certificate (a PKCS#12 certificate bag)".into(),
            )));
        }
        let key = contents.key.ok_or_else(|| {
            cert_fail(TlsFileError::Rejected(
                "it holds no private key (a PKCS#12 key bag): a trust store goes in SocketTrustStore"
                    .into(),
            ))
        })?;
        return Ok((contents.chain, key));
    }
    let cert_text = read(cert_path).map_err(cert_fail)?;
    if let Some(kind) = java_key_store(&cert_text) {
        return Err(cert_fail(TlsFileError::JavaKeyStore {
            kind,
            path: cert_path.to_path_buf(),
        }));
    }
    let password = tls.key_password.as_ref();
    let (chain, bundled_key) = if super::key::is_pkcs12(&cert_text) {
        let contents = super::p12::read(&cert_text, password).map_err(cert_fail)?;
        (contents.chain, Some(contents.key))
    } else {
        let chain = CertificateDer::pem_slice_iter(&cert_text)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| cert_fail(pem_error(e)))?;
        (chain, None)
    };
    if chain.is_empty() {
        return Err(cert_fail(TlsFileError::NoCertificate));
    }
    let key = match (tls.private_key.as_deref(), bundled_key) {
        (Some(path), _) => {
            let key_fail = |error| file_error(names.key, path, error);
            let text = read(path).map_err(key_fail)?;
            key_of(&text, password).map_err(key_fail)?
        }
        (None, Some(key)) => key.ok_or_else(|| cert_fail(TlsFileError::NoPrivateKey))?,
        (None, None) => super::key::private_key(&cert_text, password).map_err(cert_fail)?,
    };
    Ok((chain, key))
}

/// The private key of a key file's `text`: PEM, or PKCS#12's key.
fn key_of(
    text: &[u8],
    password: Option<&crate::config::KeyPassword>,
) -> Result<PrivateKeyDer<'static>, TlsFileError> {
    if super::key::is_pkcs12(text) {
        return super::p12::read(text, password)?
            .key
            .ok_or(TlsFileError::NoPrivateKey);
    }
    super::key::private_key(text, password)
}

/// A key or trust store, `path`: a PKCS#12 file opened with `password` (the
/// empty one when `None`), its password's setting named when it does not
/// open; a Java key store of another type (JKS, JCEKS) is named with the
/// keytool command that converts it.
fn open_store(
    path: &Path,
    password_setting: &'static str,
    password: Option<&crate::config::KeyPassword>,
) -> Result<super::p12::Contents, TlsFileError> {
    let bytes = read(path)?;
    if let Some(kind) = java_key_store(&bytes) {
        return Err(TlsFileError::JavaKeyStore {
            kind,
            path: path.to_path_buf(),
        });
    }
    if !super::key::is_pkcs12(&bytes) {
        return Err(TlsFileError::Rejected(
            "it is not a PKCS#12 file (nor a JKS or JCEKS key store): a key or trust store is read as PKCS#12; PEM files go in the PEM settings (ServerCertificateFile, CertificationAuthoritiesFile, ...)".into(),
        ));
    }
    super::p12::read(&bytes, password).map_err(|e| match e {
        TlsFileError::Pkcs12NoPassword => TlsFileError::StorePassword {
            setting: password_setting,
            given: false,
        },
        TlsFileError::Pkcs12WrongPassword => TlsFileError::StorePassword {
            setting: password_setting,
            given: true,
        },
        e => e,
    })
}

/// The type of the Java key store `bytes` is, by its magic number: JKS
/// (`0xFEEDFEED`) or JCEKS (`0xCECECECE`); `None` for anything else.
fn java_key_store(bytes: &[u8]) -> Option<&'static str> {
    match bytes.get(..4)? {
        [0xfe, 0xed, 0xfe, 0xed] => Some("JKS"),
        [0xce, 0xce, 0xce, 0xce] => Some("JCEKS"),
        _ => None,
    }
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
    fn java_key_stores_are_told_by_their_magic_number() {
        assert_eq!(
            java_key_store(&[0xfe, 0xed, 0xfe, 0xed, 0, 0, 0, 2]),
            Some("JKS")
        );
        assert_eq!(java_key_store(&[0xce, 0xce, 0xce, 0xce, 1]), Some("JCEKS"));
        assert_eq!(java_key_store(&[0x30, 0x82, 0x01, 0x00]), None);
        assert_eq!(java_key_store(&[0xfe, 0xed]), None, "cut short");
        assert_eq!(java_key_store(&[]), None);
    }

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
