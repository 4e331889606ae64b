//! PKCS#12 files (`.p12`, `.pfx`, QuickFIX/n's `SSLCertificate`) as OpenSSL 3
//! writes them by default (`openssl pkcs12 -export`): the certificate bag
//! and the shrouded key bag each encrypted with PBES2 (PBKDF2 with
//! HMAC-SHA256, AES-256-CBC), the whole checked by an HMAC-SHA256 MAC keyed by
//! RFC 7292's PKCS#12 KDF. Bags left unencrypted (`-certpbe NONE`,
//! `-keypbe NONE`) and MACs with SHA-384 or SHA-512 are read too. The legacy
//! form (`-legacy`, OpenSSL 1.x's default: RC2 or triple DES keyed by the
//! PKCS#12 KDF, a SHA-1 MAC) is refused, naming the openssl commands that
//! convert it; so is anything else the engine does not read, named.
//!
//! The file is checked whole before anything in it is used: the structure
//! read (legacy algorithms found without the password), the MAC verified
//! with the password, then the bags decrypted.

use hmac::{KeyInit, Mac};
use pkcs8::EncryptedPrivateKeyInfoRef;
use pkcs8::der::asn1::{AnyRef, ObjectIdentifier, OctetString};
use pkcs8::der::{Decode, Encode, SliceReader};
use pkcs8::pkcs5::EncryptionScheme;
use pkcs8::spki::AlgorithmIdentifierRef;
use pkcs12::kdf::{Pkcs12KeyType, derive_key, derive_key_utf8};
use pkcs12::{AuthenticatedSafe, CertBag, Pfx, safe_bag::SafeContents};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

use super::TlsFileError;
use crate::config::KeyPassword;

/// id-data: content held as an OCTET STRING.
const DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.1");
/// id-encryptedData: content encrypted with a password-based scheme.
const ENCRYPTED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.6");
/// id-signedData: the public-key integrity mode, which the engine does not read.
const SIGNED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.2");
/// PBES2 (PKCS#5 v2): what OpenSSL 3 encrypts bags with by default.
const PBES2: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5.13");
/// PBMAC1 (RFC 9579, `openssl pkcs12 -pbmac1_pbkdf2`): a MAC the engine does not read.
const PBMAC1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5.14");
/// The arc of the PKCS#12 password-based encryptions (`pkcs-12PbeIds`: RC4,
/// triple DES and RC2 keyed by the PKCS#12 KDF), the legacy form's.
const PKCS12_PBE_ARC: &str = "1.2.840.113549.1.12.1.";
const SHA1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.14.3.2.26");
const SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.1");
const SHA384: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.2");
const SHA512: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.3");
/// keyBag: a plain PKCS#8 PrivateKeyInfo.
const KEY_BAG: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.10.1.1");
/// pkcs8ShroudedKeyBag: an EncryptedPrivateKeyInfo.
const SHROUDED_KEY_BAG: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.10.1.2");
/// certBag.
const CERT_BAG: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.10.1.3");
/// x509Certificate, the kind of certificate a certBag holds.
const X509_CERTIFICATE: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.22.1");
/// localKeyID: the attribute pairing a certificate with its key.
const LOCAL_KEY_ID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.21");
/// More MAC iterations than this is a damaged (or hostile) file, not one
/// to spend minutes on (OpenSSL writes 2048).
const MAX_MAC_ITERATIONS: i32 = 10_000_000;

/// What a PKCS#12 file holds: its certificates, the one paired with the key
/// first (the end entity's), and its private key, if it has one.
pub(crate) struct Contents {
    pub(crate) chain: Vec<CertificateDer<'static>>,
    pub(crate) key: Option<PrivateKeyDer<'static>>,
}

/// The certificates and key of PKCS#12 file `der`, its MAC verified and its
/// bags decrypted with `password` (without one, the empty password, as
/// `openssl pkcs12 -passout pass:` writes).
pub(crate) fn read(der: &[u8], password: Option<&KeyPassword>) -> Result<Contents, TlsFileError> {
    let pfx = Pfx::from_der(der).map_err(|e| damaged("the file", e))?;
    if pfx.auth_safe.content_type == SIGNED_DATA {
        return Err(TlsFileError::Pkcs12(
            "its public-key integrity mode (signedData) is not read".into(),
        ));
    }
    let safe_der = data(&pfx.auth_safe.content_type, &pfx.auth_safe.content)?;
    let safes = AuthenticatedSafe::from_der(&safe_der).map_err(|e| damaged("its contents", e))?;
    let legacy = |how: &str| Err(TlsFileError::Pkcs12Legacy(how.to_owned()));

    // Read without the password first: the legacy form is named whatever the
    // password, and the MAC's algorithm is known before it is computed.
    for safe in &safes {
        if safe.content_type == ENCRYPTED_DATA {
            let encrypted = encrypted_data(&safe.content)?;
            if is_pkcs12_pbe(&encrypted.enc_content_info.content_enc_alg.oid) {
                return legacy("RC2 or triple DES keyed by the PKCS#12 KDF");
            }
        } else if safe.content_type == DATA {
            for bag in bags(&data(&safe.content_type, &safe.content)?)? {
                if bag.bag_id == SHROUDED_KEY_BAG && is_pkcs12_pbe(&shrouded_algorithm(&bag)?) {
                    return legacy("RC2 or triple DES keyed by the PKCS#12 KDF");
                }
            }
        }
    }
    let text = password.map_or("", KeyPassword::expose);
    if let Some(mac) = &pfx.mac_data {
        let algorithm = mac.mac.algorithm.oid;
        if algorithm == SHA1 {
            return legacy("a SHA-1 MAC");
        }
        if !(1..=MAX_MAC_ITERATIONS).contains(&mac.iterations) {
            return Err(TlsFileError::Pkcs12(format!(
                "its MAC's iteration count {} is out of range (1 to {MAX_MAC_ITERATIONS})",
                mac.iterations
            )));
        }
        let salt = mac.mac_salt.as_bytes();
        let expected = mac.mac.digest.as_bytes();
        let digest = match algorithm {
            a if a == SHA256 => MacDigest::Sha256,
            a if a == SHA384 => MacDigest::Sha384,
            a if a == SHA512 => MacDigest::Sha512,
            a if a == PBMAC1 => {
                return Err(TlsFileError::Pkcs12(
                    "its PBMAC1 MAC (openssl pkcs12 -pbmac1_pbkdf2) is not read".into(),
                ));
            }
            a => {
                return Err(TlsFileError::Pkcs12(format!(
                    "its MAC's digest {a} is not read"
                )));
            }
        };
        if !mac_verifies(digest, text, salt, mac.iterations, &safe_der, expected) {
            return Err(wrong_password(password));
        }
    }

    let mut chain = Vec::new();
    let mut key = None;
    for safe in &safes {
        let contents = if safe.content_type == DATA {
            data(&safe.content_type, &safe.content)?
        } else if safe.content_type == ENCRYPTED_DATA {
            decrypt_data(&safe.content, text, password)?
        } else {
            return Err(TlsFileError::Pkcs12(format!(
                "a container of type {} is not read",
                safe.content_type
            )));
        };
        for bag in bags(&contents)? {
            match bag.bag_id {
                id if id == CERT_BAG => {
                    let inner = explicit(&bag)?;
                    let cert = CertBag::from_der(inner).map_err(|e| damaged("a certificate", e))?;
                    // Another kind (an SDSI certificate) is no TLS certificate: passed over.
                    if cert.cert_id == X509_CERTIFICATE {
                        let der = CertificateDer::from(cert.cert_value.as_bytes().to_vec());
                        chain.push((local_key_id(&bag), der));
                    }
                }
                id if id == SHROUDED_KEY_BAG && key.is_none() => {
                    let info = shrouded(&bag)?;
                    let plain = info.decrypt(text).map_err(|_| wrong_password(password))?;
                    let der = PrivatePkcs8KeyDer::from(plain.as_bytes().to_vec());
                    key = Some((local_key_id(&bag), PrivateKeyDer::Pkcs8(der)));
                }
                id if id == KEY_BAG && key.is_none() => {
                    let der = PrivatePkcs8KeyDer::from(explicit(&bag)?.to_vec());
                    key = Some((local_key_id(&bag), PrivateKeyDer::Pkcs8(der)));
                }
                // CRLs, secrets, nested contents: nothing TLS needs here.
                _ => {}
            }
        }
    }
    // The certificate paired with the key (the same localKeyID) first: rustls
    // takes the first as the end entity's.
    if let Some((Some(id), _)) = &key
        && let Some(at) = chain.iter().position(|(c, _)| c.as_ref() == Some(id))
    {
        let leaf = chain.remove(at);
        chain.insert(0, leaf);
    }
    Ok(Contents {
        chain: chain.into_iter().map(|(_, cert)| cert).collect(),
        key: key.map(|(_, key)| key),
    })
}

/// A MAC's digest, as the PKCS#12 KDF and HMAC use it.
#[derive(Clone, Copy)]
enum MacDigest {
    Sha256,
    Sha384,
    Sha512,
}

/// Whether the HMAC keyed from `password` by the PKCS#12 KDF, over `data`,
/// is `expected`. The empty password is tried both ways OpenSSL writes it:
/// as the empty string's BMPString (two zero bytes) and as no bytes at all.
fn mac_verifies(
    digest: MacDigest,
    password: &str,
    salt: &[u8],
    iterations: i32,
    data: &[u8],
    expected: &[u8],
) -> bool {
    macro_rules! verify {
        ($d:ty) => {{
            let size = <$d as sha2::Digest>::output_size();
            let verifies = |key: &[u8]| {
                <hmac::Hmac<$d> as KeyInit>::new_from_slice(key).is_ok_and(|mut mac| {
                    mac.update(data);
                    mac.verify_slice(expected).is_ok()
                })
            };
            derive_key_utf8::<$d>(password, salt, Pkcs12KeyType::Mac, iterations, size)
                .is_ok_and(|key| verifies(&key))
                || (password.is_empty()
                    && verifies(&derive_key::<$d>(
                        &[],
                        salt,
                        Pkcs12KeyType::Mac,
                        iterations,
                        size,
                    )))
        }};
    }
    match digest {
        MacDigest::Sha256 => verify!(sha2::Sha256),
        MacDigest::Sha384 => verify!(sha2::Sha384),
        MacDigest::Sha512 => verify!(sha2::Sha512),
    }
}

/// The bytes of an id-data content (an OCTET STRING).
fn data(
    content_type: &ObjectIdentifier,
    content: &pkcs8::der::Any,
) -> Result<Vec<u8>, TlsFileError> {
    if *content_type != DATA {
        return Err(TlsFileError::Pkcs12(format!(
            "its contents are of type {content_type}, not data"
        )));
    }
    let octets: OctetString = content
        .decode_as()
        .map_err(|e| damaged("its contents", e))?;
    Ok(octets.into_bytes().into_vec())
}

/// An id-encryptedData content.
fn encrypted_data(
    content: &pkcs8::der::Any,
) -> Result<pkcs12::cms::encrypted_data::EncryptedData, TlsFileError> {
    let der = content
        .to_der()
        .map_err(|e| damaged("an encrypted container", e))?;
    pkcs12::cms::encrypted_data::EncryptedData::from_der(&der)
        .map_err(|e| damaged("an encrypted container", e))
}

/// An id-encryptedData content decrypted with `text` (PBES2 only: the
/// legacy schemes were refused before).
fn decrypt_data(
    content: &pkcs8::der::Any,
    text: &str,
    password: Option<&KeyPassword>,
) -> Result<Vec<u8>, TlsFileError> {
    let encrypted = encrypted_data(content)?;
    let info = &encrypted.enc_content_info;
    if info.content_enc_alg.oid != PBES2 {
        return Err(TlsFileError::Pkcs12(format!(
            "a container encrypted with {} is not read",
            info.content_enc_alg.oid
        )));
    }
    let algorithm = info
        .content_enc_alg
        .to_der()
        .map_err(|e| damaged("an encrypted container", e))?;
    let scheme = EncryptionScheme::from_der(&algorithm).map_err(|e| {
        TlsFileError::Pkcs12(format!("an encrypted container's scheme is not read: {e}"))
    })?;
    let Some(ciphertext) = &info.encrypted_content else {
        return Ok(Vec::new());
    };
    scheme
        .decrypt(text, ciphertext.as_bytes())
        .map_err(|_| wrong_password(password))
}

/// The SafeBags of a SafeContents.
fn bags(der: &[u8]) -> Result<SafeContents, TlsFileError> {
    SafeContents::from_der(der).map_err(|e| damaged("its bags", e))
}

/// A bag's value, inside its `[0] EXPLICIT` tag.
fn explicit(bag: &pkcs12::SafeBag) -> Result<&[u8], TlsFileError> {
    let any = AnyRef::from_der(&bag.bag_value).map_err(|e| damaged("a bag", e))?;
    Ok(any.value())
}

/// A shrouded key bag's EncryptedPrivateKeyInfo.
fn shrouded(bag: &pkcs12::SafeBag) -> Result<EncryptedPrivateKeyInfoRef<'_>, TlsFileError> {
    EncryptedPrivateKeyInfoRef::try_from(explicit(bag)?)
        .map_err(|e| TlsFileError::Pkcs12(format!("its encrypted private key cannot be read: {e}")))
}

/// A shrouded key bag's encryption algorithm, read alone (a scheme pkcs8
/// does not know, the legacy form's, is named rather than failing the parse).
fn shrouded_algorithm(bag: &pkcs12::SafeBag) -> Result<ObjectIdentifier, TlsFileError> {
    let info = AnyRef::from_der(explicit(bag)?).map_err(|e| damaged("an encrypted key", e))?;
    let mut reader = SliceReader::new(info.value()).map_err(|e| damaged("an encrypted key", e))?;
    let algorithm =
        AlgorithmIdentifierRef::decode(&mut reader).map_err(|e| damaged("an encrypted key", e))?;
    Ok(algorithm.oid)
}

/// The localKeyID of a bag, as its DER (compared, not read).
fn local_key_id(bag: &pkcs12::SafeBag) -> Option<Vec<u8>> {
    let attributes = bag.bag_attributes.as_ref()?;
    let attribute = attributes.iter().find(|a| a.oid == LOCAL_KEY_ID)?;
    attribute.values.iter().next()?.to_der().ok()
}

/// Whether `oid` is one of the PKCS#12 KDF's encryptions (the legacy form).
fn is_pkcs12_pbe(oid: &ObjectIdentifier) -> bool {
    oid.to_string().starts_with(PKCS12_PBE_ARC)
}

/// The error of a MAC or decryption that fails with the password given (or
/// with the empty one, none given).
fn wrong_password(password: Option<&KeyPassword>) -> TlsFileError {
    match password {
        Some(_) => TlsFileError::Pkcs12WrongPassword,
        None => TlsFileError::Pkcs12NoPassword,
    }
}

fn damaged(what: &str, e: impl std::fmt::Display) -> TlsFileError {
    TlsFileError::Pkcs12(format!("{what} does not parse ({e})"))
}
