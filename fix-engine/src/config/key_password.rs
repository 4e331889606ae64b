//! [`KeyPassword`]: the password of an encrypted private key
//! (`SSLCertificatePassword`), kept out of every `Debug` print.

use std::fmt;

/// The password an encrypted PKCS#8 private key (`ENCRYPTED PRIVATE KEY`)
/// is decrypted with, and a PKCS#12 file (`.p12`, `.pfx`) opened with, when
/// the engine starts: `SSLCertificatePassword`
/// (QuickFIX/n's key). Its `Debug` shows no text, so settings printed for
/// a log or an error never carry it.
///
/// ```
/// use fix_engine::config::KeyPassword;
/// let password = KeyPassword::new("s3cret");
/// assert_eq!(password.expose(), "s3cret");
/// assert_eq!(format!("{password:?}"), "KeyPassword(…)");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct KeyPassword(String);

impl KeyPassword {
    /// The password `text`, as written (no trimming: spaces can be part of it).
    pub fn new(text: impl Into<String>) -> Self {
        KeyPassword(text.into())
    }

    /// The password itself, for the decryption.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for KeyPassword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("KeyPassword(…)")
    }
}
