//! The check of a dictionary's enumerated values against their field's type.

use fix_core::FieldType;

use crate::diagnostic::ValueProblem;

/// Checks one enumerated value of a field of type `ty` (as listed in `<value enum=...>`, i.e. one
/// element of a multi-value list) against the type.
///
/// ```
/// use fix_dict::{FieldType, check_enum_value};
/// use fix_dict::diagnostic::ValueProblem;
/// assert_eq!(check_enum_value(FieldType::Char, "1"), Ok(()));
/// assert_eq!(check_enum_value(FieldType::Char, "10"), Err(ValueProblem::NotOneChar));
/// assert_eq!(check_enum_value(FieldType::Int, "-7"), Ok(()));
/// assert_eq!(check_enum_value(FieldType::Int, "1.5"), Err(ValueProblem::NotInteger));
/// assert_eq!(check_enum_value(FieldType::Boolean, "T"), Err(ValueProblem::NotBoolean));
/// assert_eq!(check_enum_value(FieldType::Price, "0.5"), Ok(()));
/// assert_eq!(check_enum_value(FieldType::MultipleStringValue, "A B"), Err(ValueProblem::BadCharacter));
/// ```
pub fn check_enum_value(ty: FieldType, value: &str) -> Result<(), ValueProblem> {
    let b = value.as_bytes();
    if b.is_empty() {
        return Err(ValueProblem::Empty);
    }
    // Printable ASCII only: FIX values never carry control characters,
    // and the generated code matches on bytes.
    if b.iter().any(|&c| !(0x20..0x7f).contains(&c)) {
        return Err(ValueProblem::BadCharacter);
    }
    match ty {
        FieldType::Char | FieldType::MultipleCharValue if b.len() != 1 => {
            Err(ValueProblem::NotOneChar)
        }
        FieldType::Char | FieldType::MultipleCharValue if b[0] == b' ' => {
            Err(ValueProblem::BadCharacter)
        }
        FieldType::Boolean if b != b"Y" && b != b"N" => Err(ValueProblem::NotBoolean),
        t if t.is_integer() && !is_integer(b) => Err(ValueProblem::NotInteger),
        t if t.is_decimal() && !is_decimal(b) => Err(ValueProblem::NotDecimal),
        t if t.is_multiple() && b.contains(&b' ') => Err(ValueProblem::BadCharacter),
        _ => Ok(()),
    }
}

fn is_integer(b: &[u8]) -> bool {
    let digits = b.strip_prefix(b"-").unwrap_or(b);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

fn is_decimal(b: &[u8]) -> bool {
    let b = b.strip_prefix(b"-").unwrap_or(b);
    let (int, frac) = match b.iter().position(|&c| c == b'.') {
        Some(dot) => (&b[..dot], &b[dot + 1..]),
        None => (b, &b""[..]),
    };
    (!int.is_empty() || !frac.is_empty())
        && int.iter().all(u8::is_ascii_digit)
        && frac.iter().all(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_value_checks() {
        use FieldType as T;
        use ValueProblem as P;
        let table: &[(FieldType, &str, Result<(), ValueProblem>)] = &[
            (T::Char, "A", Ok(())),
            (T::Char, "AB", Err(P::NotOneChar)),
            (T::Char, " ", Err(P::BadCharacter)),
            (T::Char, "", Err(P::Empty)),
            (T::MultipleCharValue, "AB", Err(P::NotOneChar)),
            (T::Int, "12", Ok(())),
            (T::Int, "-3", Ok(())),
            (T::Int, "-", Err(P::NotInteger)),
            (T::Int, "A", Err(P::NotInteger)),
            (T::NumInGroup, "1x", Err(P::NotInteger)),
            (T::Boolean, "Y", Ok(())),
            (T::Boolean, "N", Ok(())),
            (T::Boolean, "y", Err(P::NotBoolean)),
            (T::Boolean, "YES", Err(P::NotBoolean)),
            (T::Float, "1.", Ok(())),
            (T::Float, ".5", Ok(())),
            (T::Float, ".", Err(P::NotDecimal)),
            (T::Float, "1e5", Err(P::NotDecimal)),
            (T::String, "ANY thing", Ok(())),
            (T::String, "tab\there", Err(P::BadCharacter)),
            (T::String, "é", Err(P::BadCharacter)),
            (T::MultipleValueString, "A B", Err(P::BadCharacter)),
            (T::MultipleValueString, "AB", Ok(())),
        ];
        for (t, v, expected) in table {
            assert_eq!(check_enum_value(*t, v), *expected, "{t} {v:?}");
        }
    }
}
