//! A private key from a PEM file's text: plain (PKCS#8, PKCS#1 or SEC1, as
//! rustls reads them), or an encrypted PKCS#8 key (`ENCRYPTED PRIVATE KEY`:
//! PBES2, AES-CBC or triple DES with a PBKDF2 or scrypt key, what OpenSSL
//! writes: `openssl req -newkey` encrypts with triple DES) decrypted
//! with `SSLCertificatePassword`; and what the engine does not read, told
//! with the openssl command that converts it: OpenSSL's traditional
//! encrypted PEM. PKCS#12 files are told apart here and read by `p12`.

use pkcs8::EncryptedPrivateKeyInfoRef;
use pkcs8::der::ErrorKind;
use pkcs8::pkcs5;
use rustls::pki_types::pem::{self, PemObject};
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};

use super::TlsFileError;
use super::setup::pem_error;
use crate::config::KeyPassword;

const ENCRYPTED_BEGIN: &[u8] = b"-----BEGIN ENCRYPTED PRIVATE KEY-----";
const ENCRYPTED_END: &[u8] = b"-----END ENCRYPTED PRIVATE KEY-----";
/// The header of a key in OpenSSL's traditional encrypted PEM (`openssl
/// rsa -aes256 -traditional`, OpenSSL 1.x's `genrsa -aes256`).
const TRADITIONAL_ENCRYPTED: &[u8] = b"Proc-Type: 4,ENCRYPTED";

/// The private key of `text`, a PEM file's contents, decrypted with
/// `password` when it is an encrypted PKCS#8 key.
pub(crate) fn private_key(
    text: &[u8],
    password: Option<&KeyPassword>,
) -> Result<PrivateKeyDer<'static>, TlsFileError> {
    if let Some(section) = find(text, ENCRYPTED_BEGIN, ENCRYPTED_END) {
        let Some(password) = password else {
            return Err(TlsFileError::EncryptedKey);
        };
        return decrypt(section, password);
    }
    if find(text, TRADITIONAL_ENCRYPTED, b"").is_some() {
        return Err(TlsFileError::KeyEncryption(
            "OpenSSL's traditional PEM encryption (Proc-Type: 4,ENCRYPTED)".into(),
        ));
    }
    PrivateKeyDer::from_pem_slice(text).map_err(|e| match e {
        pem::Error::NoItemsFound => TlsFileError::NoPrivateKey,
        e => pem_error(e),
    })
}

/// The encrypted PKCS#8 key of PEM `section`, decrypted.
fn decrypt(section: &[u8], password: &KeyPassword) -> Result<PrivateKeyDer<'static>, TlsFileError> {
    let (_, der) =
        pkcs8::der::pem::decode_vec(section).map_err(|e| TlsFileError::Pem(e.to_string()))?;
    let info = EncryptedPrivateKeyInfoRef::try_from(der.as_slice()).map_err(parse_error)?;
    let plain = info.decrypt(password.expose()).map_err(decrypt_error)?;
    Ok(PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(
        plain.as_bytes().to_vec(),
    )))
}

/// What a key that does not parse means: its scheme is read with it, so an
/// algorithm the engine does not know shows here; anything else is damage.
fn parse_error(e: pkcs8::Error) -> TlsFileError {
    if let pkcs8::Error::Asn1(der) = &e
        && let ErrorKind::OidUnknown { oid } = der.kind()
    {
        return TlsFileError::KeyEncryption(format!("the algorithm {oid}"));
    }
    TlsFileError::Pem(format!("its ENCRYPTED PRIVATE KEY: {e}"))
}

/// What a failed decryption means to the operator: a scheme the engine does
/// not read, or (the padding or the DER of the result wrong) a wrong password.
fn decrypt_error(e: pkcs8::Error) -> TlsFileError {
    match e {
        pkcs8::Error::EncryptedPrivateKey(pkcs5::Error::NoPbes1CryptSupport) => {
            TlsFileError::KeyEncryption("PKCS#5 v1.5 (PBES1: DES, RC2 or MD5)".into())
        }
        pkcs8::Error::EncryptedPrivateKey(pkcs5::Error::UnsupportedAlgorithm { oid })
        | pkcs8::Error::EncryptedPrivateKey(pkcs5::Error::AlgorithmParametersInvalid { oid }) => {
            TlsFileError::KeyEncryption(format!("the algorithm {oid}"))
        }
        _ => TlsFileError::WrongPassword,
    }
}

/// The bytes of `text` from `begin` to the end of `end` (to the end of the
/// text when `end` is empty or missing).
fn find<'a>(text: &'a [u8], begin: &[u8], end: &[u8]) -> Option<&'a [u8]> {
    let start = text.windows(begin.len()).position(|w| w == begin)?;
    let rest = &text[start..];
    let stop = match end.is_empty() {
        true => None,
        false => rest.windows(end.len()).position(|w| w == end),
    };
    Some(match stop {
        Some(stop) => &rest[..stop + end.len()],
        None => rest,
    })
}

/// Whether `text` is a PKCS#12 file (`.p12`, `.pfx`): DER, not PEM, whose
/// outer SEQUENCE begins with the version 3 of RFC 7292's PFX.
pub(crate) fn is_pkcs12(text: &[u8]) -> bool {
    let Some((0x30, pfx, _)) = super::setup::der_read(text) else {
        return false;
    };
    matches!(super::setup::der_read(pfx), Some((0x02, [3], _)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_found_whole() {
        let text = b"junk\n-----BEGIN X-----\nAAAA\n-----END X-----\nmore";
        assert_eq!(
            find(text, b"-----BEGIN X-----", b"-----END X-----"),
            Some(&b"-----BEGIN X-----\nAAAA\n-----END X-----"[..])
        );
        assert_eq!(find(text, b"-----BEGIN Y-----", b"-----END Y-----"), None);
        // No end: to the end of the text (and the PEM decoder says what is wrong).
        assert_eq!(
            find(
                b"-----BEGIN X-----\nAA",
                b"-----BEGIN X-----",
                b"-----END X-----"
            ),
            Some(&b"-----BEGIN X-----\nAA"[..])
        );
    }

    #[test]
    fn pkcs12_is_told_by_its_version() {
        // SEQUENCE { INTEGER 3, SEQUENCE {} }
        assert!(is_pkcs12(&[0x30, 0x05, 0x02, 0x01, 0x03, 0x30, 0x00]));
        // A certificate's DER: SEQUENCE { SEQUENCE … }.
        assert!(!is_pkcs12(&[0x30, 0x02, 0x30, 0x00]));
        assert!(!is_pkcs12(b"-----BEGIN CERTIFICATE-----"));
        assert!(!is_pkcs12(&[]));
    }

    #[test]
    fn an_encrypted_key_without_its_password_is_named() {
        let text =
            b"-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----\n";
        assert!(matches!(
            private_key(text, None),
            Err(TlsFileError::EncryptedKey)
        ));
        // With a password, damaged: a PEM error, not a panic.
        assert!(matches!(
            private_key(text, Some(&KeyPassword::new("x"))),
            Err(TlsFileError::Pem(_))
        ));
    }

    #[test]
    fn a_traditional_encrypted_key_is_refused_naming_its_format() {
        let text = b"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,00\n\nAAAA\n-----END RSA PRIVATE KEY-----\n";
        let error = private_key(text, Some(&KeyPassword::new("x"))).unwrap_err();
        assert!(
            error.to_string().contains("openssl pkcs8 -topk8"),
            "{error}"
        );
    }
}
