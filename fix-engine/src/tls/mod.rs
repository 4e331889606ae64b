//! TLS: what can be wrong with a TLS file ([`TlsFileError`], in every build,
//! as the engine's errors name it) and, with the `tls` feature, the rustls
//! configurations the settings' PEM files make (`setup`). Nothing here knows
//! the engine: it tells its errors without the session, and the engine
//! names the session ([`EngineError`](crate::EngineError)).

use std::io;
#[cfg(feature = "tls")]
use std::path::PathBuf;

#[cfg(feature = "tls")]
mod key;
#[cfg(feature = "tls")]
mod setup;
#[cfg(feature = "tls")]
mod unchecked;

#[cfg(feature = "tls")]
pub(crate) use setup::{Client, certificate_names, client, server};

/// What is wrong with a TLS file ([`EngineErrorKind::TlsFile`](crate::EngineErrorKind::TlsFile)).
///
/// ```
/// use fix_engine::TlsFileError;
/// assert_eq!(TlsFileError::NoPrivateKey.to_string(), "holds no private key (a PEM PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY section)");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum TlsFileError {
    /// The setting is not given, where it is needed (settings made by hand).
    NotGiven,
    /// The file could not be read.
    Read(io::Error),
    /// The file is not well-formed PEM.
    Pem(String),
    /// The file holds no certificate.
    NoCertificate,
    /// The file holds no private key.
    NoPrivateKey,
    /// The file's private key is encrypted and `SSLCertificatePassword` is
    /// not given.
    EncryptedKey,
    /// The private key did not decrypt with `SSLCertificatePassword`: the
    /// password is wrong (or the file damaged).
    WrongPassword,
    /// The private key is encrypted in a way the engine does not read (the
    /// way named): OpenSSL's traditional PEM encryption, PKCS#5 v1.5.
    KeyEncryption(String),
    /// The file is PKCS#12 (`.p12`, `.pfx`), which the engine does not read.
    Pkcs12,
    /// The private key is not the certificate's.
    KeyMismatch,
    /// The TLS library refused what the file holds (a key of a kind it does
    /// not take, a certificate that does not parse): what it said.
    Rejected(String),
}

impl std::fmt::Display for TlsFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TlsFileError::NotGiven => f.write_str("is not given"),
            TlsFileError::Read(e) => write!(f, "cannot be read: {e}"),
            TlsFileError::Pem(e) => write!(f, "is not well-formed PEM: {e}"),
            TlsFileError::NoCertificate => {
                f.write_str("holds no certificate (a PEM CERTIFICATE section)")
            }
            TlsFileError::NoPrivateKey => f.write_str(
                "holds no private key (a PEM PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY section)",
            ),
            TlsFileError::EncryptedKey => f.write_str(
                "holds an encrypted private key and SSLCertificatePassword is not given: give its password there, or the key decrypted (openssl pkey -in key.pem -out plain.pem)",
            ),
            TlsFileError::WrongPassword => f.write_str(
                "the private key does not decrypt with SSLCertificatePassword: the password is wrong (or the file is damaged)",
            ),
            TlsFileError::KeyEncryption(how) => write!(
                f,
                "holds a private key encrypted with {how}, which is not read: convert it to encrypted PKCS#8 (openssl pkcs8 -topk8 -v2 aes-256-cbc -in key.pem -out key-pkcs8.pem) and give its password in SSLCertificatePassword",
            ),
            TlsFileError::Pkcs12 => f.write_str(
                "is a PKCS#12 file (.p12, .pfx), which is not read: convert it to PEM files, the certificates with openssl pkcs12 -in file.p12 -nokeys -out cert.pem and the key with openssl pkcs12 -in file.p12 -nocerts -out key.pem (encrypted with the pass phrase it asks for: give that in SSLCertificatePassword; -nodes leaves it plain)",
            ),
            TlsFileError::KeyMismatch => {
                f.write_str("the private key does not match the certificate")
            }
            TlsFileError::Rejected(e) => write!(f, "cannot be used: {e}"),
        }
    }
}

/// Why a TLS configuration could not be made, before the engine names the
/// session it is for.
#[cfg(feature = "tls")]
#[derive(Debug)]
pub(crate) enum TlsError {
    /// A file a setting names (or a setting not given).
    File {
        /// The setting naming the file.
        setting: &'static str,
        /// The file (empty when the setting is not given).
        path: PathBuf,
        /// What is wrong with it.
        error: TlsFileError,
    },
    /// A server name that is neither a DNS name nor an IP address.
    ServerName {
        /// The setting the name comes from.
        setting: String,
        /// The name.
        name: String,
    },
}
