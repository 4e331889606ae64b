//! Setting values as QuickFIX writes them: Y/N, whole seconds, ports, names.

use super::error::ErrorKind;

fn invalid(value: &str, expected: &'static str) -> ErrorKind {
    ErrorKind::InvalidValue {
        value: value.to_owned(),
        expected,
    }
}

/// QuickFIX's booleans: `Y` or `N`, nothing else.
pub(crate) fn yes_no(value: &str) -> Result<bool, ErrorKind> {
    match value {
        "Y" => Ok(true),
        "N" => Ok(false),
        _ => Err(invalid(value, "Y or N")),
    }
}

/// `CertificateVerifyLevel`'s levels, as QuickFIX numbers them.
pub(crate) fn verify_level(value: &str) -> Result<super::ClientAuth, ErrorKind> {
    super::ClientAuth::from_level(value).ok_or_else(|| {
        invalid(
            value,
            "0 (no client certificate), 1 (a client certificate is required) or 2 (one is verified when given)",
        )
    })
}

/// Digits only: no sign, no spaces, no unit.
fn digits<T: std::str::FromStr>(value: &str) -> Option<T> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

pub(crate) fn seconds(value: &str) -> Result<u32, ErrorKind> {
    digits(value).ok_or_else(|| invalid(value, "a number of seconds"))
}

pub(crate) fn port(value: &str) -> Result<u16, ErrorKind> {
    digits(value).ok_or_else(|| invalid(value, PORT))
}

pub(crate) const PORT: &str = "a port number from 1 to 65535";

/// `SocketAcceptPort`, where 0 asks the system for a free port.
pub(crate) fn accept_port(value: &str) -> Result<u16, ErrorKind> {
    digits(value).ok_or_else(|| invalid(value, ACCEPT_PORT))
}

const ACCEPT_PORT: &str = "a port number from 0 (any free port) to 65535";

pub(crate) fn count(value: &str) -> Result<u64, ErrorKind> {
    digits(value).ok_or_else(|| invalid(value, "a number of messages"))
}

/// Whether `text` can be a CompID or qualifier: printable, no spaces at its ends.
pub(crate) fn is_name(text: &str) -> bool {
    !text.is_empty() && text.trim() == text && !text.chars().any(char::is_control)
}

/// A host name or an IP address: no spaces or control characters at all.
pub(crate) fn is_host(text: &str) -> bool {
    !text.is_empty() && !text.chars().any(|c| c.is_whitespace() || c.is_control())
}

pub(crate) const BEGIN_STRINGS: [&str; 6] = [
    "FIX.4.0", "FIX.4.1", "FIX.4.2", "FIX.4.3", "FIX.4.4", "FIXT.1.1",
];

pub(crate) const BEGIN_STRING: &str = "FIX.4.0, FIX.4.1, FIX.4.2, FIX.4.3, FIX.4.4 or FIXT.1.1";

pub(crate) const APPL_VER_ID: &str =
    "an ApplVerID (a code such as 9, or a name such as FIX.5.0SP2)";

/// An ApplVerID as DefaultApplVerID takes it: its code or the version's name.
pub(crate) fn is_appl_ver_id(text: &str) -> bool {
    let code = fix_session::appl_ver_id_code(text);
    !code.is_empty() && code.len() <= 3 && code.bytes().all(|b| b.is_ascii_digit())
}
