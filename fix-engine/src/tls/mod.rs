//! TLS: what can be wrong with a TLS file ([`TlsFileError`], in every build,
//! as the engine's errors name it) and, with the `tls` feature, the rustls
//! configurations the settings' PEM and PKCS#12 files (QuickFIX/J's key and
//! trust stores among them) make (`setup`). Nothing here knows
//! the engine: it tells its errors without the session, and the engine
//! names the session ([`EngineError`](crate::EngineError)).

use std::io;
#[cfg(feature = "tls")]
use std::path::PathBuf;

#[cfg(feature = "tls")]
mod key;
#[cfg(feature = "tls")]
mod p12;
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
    /// The file is PKCS#12 (`.p12`, `.pfx`) and cannot be read: damaged, or
    /// holding what the engine does not read (what, named).
    Pkcs12(String),
    /// The file is PKCS#12 in the legacy form (`openssl pkcs12 -export
    /// -legacy`, OpenSSL 1.x's default; what of it, named): RC2 or triple DES
    /// keyed by the PKCS#12 KDF, a SHA-1 MAC.
    Pkcs12Legacy(String),
    /// The PKCS#12 file's MAC (or its decryption) fails with the empty
    /// password and `SSLCertificatePassword` is not given.
    Pkcs12NoPassword,
    /// The PKCS#12 file's MAC (or its decryption) fails with
    /// `SSLCertificatePassword`: the password is wrong (or the file damaged).
    Pkcs12WrongPassword,
    /// The key or trust store (`SocketKeyStore`, `SocketTrustStore`) does not
    /// open with its password, the setting named: not given (the empty
    /// password failed) or wrong.
    StorePassword {
        /// The password's setting: `SocketKeyStorePassword` or `SocketTrustStorePassword`.
        setting: &'static str,
        /// Whether it was given.
        given: bool,
    },
    /// The file is a Java key store of a type the engine does not read (JKS,
    /// JCEKS: the type named), with the file's path, for the keytool command
    /// that converts it to PKCS#12.
    JavaKeyStore {
        /// `JKS` or `JCEKS`.
        kind: &'static str,
        /// The file, as the setting names it.
        path: std::path::PathBuf,
    },
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
            TlsFileError::Pkcs12(what) => write!(
                f,
                "is a PKCS#12 file (.p12, .pfx) that cannot be read: {what}",
            ),
            TlsFileError::Pkcs12Legacy(what) => write!(
                f,
                "is a PKCS#12 file in the legacy form ({what}: openssl pkcs12 -export -legacy, OpenSSL 1.x's default), which is not read: convert it to OpenSSL 3's default (AES-256-CBC, an HMAC-SHA256 MAC) with openssl pkcs12 -legacy -in file.p12 -nodes -out plain.pem, then openssl pkcs12 -export -in plain.pem -out new.p12 (and delete plain.pem)",
            ),
            TlsFileError::Pkcs12NoPassword => f.write_str(
                "is a PKCS#12 file protected by a password and SSLCertificatePassword is not given: give its password there",
            ),
            TlsFileError::Pkcs12WrongPassword => f.write_str(
                "is a PKCS#12 file that does not open with SSLCertificatePassword (its MAC does not verify): the password is wrong (or the file is damaged)",
            ),
            TlsFileError::StorePassword {
                setting,
                given: false,
            } => write!(
                f,
                "is a PKCS#12 file protected by a password and {setting} is not given: give its password there",
            ),
            TlsFileError::StorePassword {
                setting,
                given: true,
            } => write!(
                f,
                "is a PKCS#12 file that does not open with {setting} (its MAC does not verify): the password is wrong (or the file is damaged)",
            ),
            TlsFileError::JavaKeyStore { kind, path } => {
                let path = path.display();
                write!(
                    f,
                    "is a Java {kind} key store, which is not read (only PKCS#12, keytool's default since Java 9): convert it with keytool -importkeystore -srckeystore {path} -destkeystore {path}.p12 -deststoretype pkcs12 and name {path}.p12",
                )
            }
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
