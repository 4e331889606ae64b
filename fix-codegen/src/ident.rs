//! Rust identifiers from FIX names: `snake_case` for getters and modules,
//! `UpperCamelCase` for types and enum variants.
//!
//! Words are split at case changes and at any character that is not a letter
//! or digit, the way a reader would split them:
//!
//! - an acronym stays one word: `ClOrdID` → `cl_ord_id`, `MDEntryPx` →
//!   `md_entry_px`, `SecurityIDSource` → `security_id_source`;
//! - a plural `s` stays with its acronym: `NoPartyIDs` → `no_party_ids` (not
//!   `no_party_i_ds`);
//! - digits stay with the word before them: `Price2` → `price2`;
//! - `SCREAMING_CASE` descriptions split at `_`: `GOOD_TILL_CANCEL` →
//!   `GoodTillCancel`.
//!
//! In `UpperCamelCase` an acronym is one capitalised word (`NoPartyIds`,
//! `MdEntryPx`), as the Rust API guidelines ask (`Uuid`, not `UUID`).
//!
//! The results are always valid identifiers: keywords become raw identifiers
//! (`type` → `r#type`), except `self`, `Self`, `super` and `crate`, which
//! cannot be raw and get a `_` suffix; a leading digit gets a `_` prefix
//! (`1_MINUTE` → `_1Minute`, as prost-build does); a name with no letters or
//! digits becomes `unnamed`/`Unnamed`. [`dedup`] makes a list of names
//! unique with stable numeric suffixes.
//!
//! ```
//! use fix_codegen::ident::{dedup, snake_case, upper_camel};
//!
//! assert_eq!(snake_case("NoPartyIDs"), "no_party_ids");
//! assert_eq!(upper_camel("ExecutionReport"), "ExecutionReport");
//! assert_eq!(upper_camel("GOOD_TILL_CANCEL"), "GoodTillCancel");
//! assert_eq!(snake_case("Type"), "r#type");
//! assert_eq!(
//!     dedup(["Buy".to_string(), "Buy".to_string(), "Sell".to_string()]),
//!     ["Buy", "Buy2", "Sell"]
//! );
//! ```

use std::collections::HashSet;

/// Keywords and reserved words of Rust 2024 that can be written as raw
/// identifiers (`r#...`).
const RAW_KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers.
const NON_RAW_KEYWORDS: &[&str] = &["crate", "self", "Self", "super"];

/// Splits a FIX name or description into words, keeping the original case.
///
/// ```
/// use fix_codegen::ident::words;
/// assert_eq!(words("NoPartyIDs"), ["No", "Party", "IDs"]);
/// assert_eq!(words("SecurityIDSource"), ["Security", "ID", "Source"]);
/// assert_eq!(words("1_MINUTE"), ["1", "MINUTE"]);
/// ```
pub fn words(name: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for part in name.split(|c: char| !c.is_ascii_alphanumeric()) {
        split_part(part, &mut out);
    }
    out
}

/// Splits one run of ASCII letters and digits at case changes.
fn split_part<'a>(part: &'a str, out: &mut Vec<&'a str>) {
    let b = part.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_uppercase() {
            // Run of capitals starting at i.
            let mut end = i;
            while end < b.len() && b[end].is_ascii_uppercase() {
                end += 1;
            }
            if i > start {
                out.push(&part[start..i]);
                start = i;
            }
            let run = end - i;
            let next_lower = b.get(end).is_some_and(u8::is_ascii_lowercase);
            if run >= 2 && next_lower {
                // `IDs`: a plural s on an acronym belongs to it.
                let plural = b[end] == b's' && !b.get(end + 1).is_some_and(u8::is_ascii_lowercase);
                if plural {
                    i = end + 1;
                } else {
                    // `IDSource`: the last capital starts the next word.
                    out.push(&part[start..end - 1]);
                    start = end - 1;
                    i = end;
                }
            } else {
                i = end;
            }
            // Lowercase letters and digits continue the word.
            while i < b.len() && !b[i].is_ascii_uppercase() {
                i += 1;
            }
            // A plural acronym followed by more lowercase was handled above;
            // `i` now sits at the next capital or the end.
        } else {
            i += 1;
            while i < b.len() && !b[i].is_ascii_uppercase() {
                i += 1;
            }
        }
    }
    if start < b.len() {
        out.push(&part[start..]);
    }
}

/// `snake_case` identifier for a getter, field or module.
///
/// ```
/// use fix_codegen::ident::snake_case;
/// assert_eq!(snake_case("ClOrdID"), "cl_ord_id");
/// assert_eq!(snake_case("MDEntryPx"), "md_entry_px");
/// assert_eq!(snake_case("self"), "self_");
/// assert_eq!(snake_case("2Legs"), "_2_legs");
/// ```
pub fn snake_case(name: &str) -> String {
    let ws = words(name);
    if ws.is_empty() {
        return "unnamed".to_owned();
    }
    let mut s = String::with_capacity(name.len() + ws.len());
    for (i, w) in ws.iter().enumerate() {
        if i > 0 {
            s.push('_');
        }
        s.push_str(&w.to_ascii_lowercase());
    }
    sanitize(s)
}

/// `UpperCamelCase` identifier for a type or enum variant.
///
/// ```
/// use fix_codegen::ident::upper_camel;
/// assert_eq!(upper_camel("NoPartyIDs"), "NoPartyIds");
/// assert_eq!(upper_camel("LIMIT"), "Limit");
/// assert_eq!(upper_camel("1_MINUTE"), "_1Minute");
/// assert_eq!(upper_camel("VERSION_4_4"), "Version4_4");
/// assert_eq!(upper_camel("Self"), "Self_");
/// ```
pub fn upper_camel(name: &str) -> String {
    let ws = words(name);
    if ws.is_empty() {
        return "Unnamed".to_owned();
    }
    let mut s = String::with_capacity(name.len());
    for w in ws {
        // Keep digit groups apart: `4_4`, not `44`.
        if s.ends_with(|c: char| c.is_ascii_digit()) && w.starts_with(|c: char| c.is_ascii_digit())
        {
            s.push('_');
        }
        let mut chars = w.chars();
        if let Some(first) = chars.next() {
            s.push(first.to_ascii_uppercase());
            s.extend(chars.map(|c| c.to_ascii_lowercase()));
        }
    }
    sanitize(s)
}

/// The enum variant for a `<value enum= description=>`: the description in
/// `UpperCamelCase`, or, when the description has no letters or digits,
/// `Value` followed by the wire value (non-alphanumeric bytes in hex).
///
/// ```
/// use fix_codegen::ident::enum_variant;
/// assert_eq!(enum_variant("GOOD_TILL_CANCEL", "1"), "GoodTillCancel");
/// assert_eq!(enum_variant("", "1"), "Value1");
/// assert_eq!(enum_variant("", "+"), "ValueX2b");
/// ```
pub fn enum_variant(description: &str, value: &str) -> String {
    if !words(description).is_empty() {
        return upper_camel(description);
    }
    let mut s = String::from("Value");
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() {
            s.push(char::from(b));
        } else {
            s.push_str(&format!("X{b:02x}"));
        }
    }
    s
}

/// Turns keywords into raw identifiers (or suffixes them), and prefixes a
/// leading digit.
///
/// ```
/// use fix_codegen::ident::sanitize;
/// assert_eq!(sanitize("type".into()), "r#type");
/// assert_eq!(sanitize("crate".into()), "crate_");
/// assert_eq!(sanitize("9lives".into()), "_9lives");
/// assert_eq!(sanitize("price".into()), "price");
/// ```
pub fn sanitize(mut ident: String) -> String {
    if ident.starts_with(|c: char| c.is_ascii_digit()) {
        ident.insert(0, '_');
    }
    if NON_RAW_KEYWORDS.contains(&ident.as_str()) {
        ident.push('_');
    } else if RAW_KEYWORDS.contains(&ident.as_str()) {
        ident.insert_str(0, "r#");
    }
    ident
}

/// Makes identifiers unique, deterministically: the first occurrence keeps
/// its name, each later one gets the smallest suffix `2`, `3`, ... that
/// collides neither with a name already given nor with any name in the
/// input. The suffix is joined with `_` when the name is `snake_case` or
/// ends in a digit (`md_entry_2`, `Version4_4_2`), directly otherwise
/// (`Buy2`). Raw identifiers lose their `r#` once suffixed. Sort the input
/// (e.g. enum values by wire value) to make the result independent of the
/// dictionary's order.
///
/// ```
/// use fix_codegen::ident::dedup;
/// let names = ["r#type", "r#type", "Buy", "Buy2", "Buy"].map(String::from);
/// assert_eq!(dedup(names), ["r#type", "type_2", "Buy", "Buy2", "Buy3"]);
/// ```
pub fn dedup<I: IntoIterator<Item = String>>(names: I) -> Vec<String> {
    let names: Vec<String> = names.into_iter().collect();
    let reserved: HashSet<&str> = names.iter().map(String::as_str).collect();
    let mut used: HashSet<String> = HashSet::with_capacity(names.len());
    let mut out = Vec::with_capacity(names.len());
    for name in &names {
        if used.insert(name.clone()) {
            out.push(name.clone());
            continue;
        }
        let base = name.strip_prefix("r#").unwrap_or(name);
        let snake = !base.bytes().any(|b| b.is_ascii_uppercase());
        let sep = if snake || base.ends_with(|c: char| c.is_ascii_digit()) {
            "_"
        } else {
            ""
        };
        let mut n = 2u64;
        let unique = loop {
            let candidate = format!("{base}{sep}{n}");
            if !reserved.contains(candidate.as_str()) && !used.contains(&candidate) {
                break candidate;
            }
            n += 1;
        };
        used.insert(unique.clone());
        out.push(unique);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_table() {
        let table = [
            ("NoPartyIDs", "no_party_ids"),
            ("ClOrdID", "cl_ord_id"),
            ("OrigClOrdID", "orig_cl_ord_id"),
            ("MDEntryPx", "md_entry_px"),
            ("NoMDEntries", "no_md_entries"),
            ("SecurityIDSource", "security_id_source"),
            ("NoSecurityAltIDs", "no_security_alt_ids"),
            ("IOIID", "ioiid"),
            ("NoIOIQualifiers", "no_ioi_qualifiers"),
            ("CFICode", "cfi_code"),
            ("RFQReqID", "rfq_req_id"),
            ("XmlDataLen", "xml_data_len"),
            ("DerivativeSecurityXMLLen", "derivative_security_xml_len"),
            ("Price2", "price2"),
            ("LegPrice", "leg_price"),
            ("BeginString", "begin_string"),
            ("ExecutionReport", "execution_report"),
            ("TZTransactTime", "tz_transact_time"),
            ("SettlCurrFxRate", "settl_curr_fx_rate"),
            ("IDs", "ids"),
            ("NoPartyIDsWithRoles", "no_party_ids_with_roles"),
            ("IDsource", "i_dsource"),
            ("Side", "side"),
            ("A", "a"),
            ("GOOD_TILL_CANCEL", "good_till_cancel"),
            ("1_MINUTE", "_1_minute"),
            ("Type", "r#type"),
            ("type", "r#type"),
            ("Match", "r#match"),
            ("Yield", "r#yield"),
            ("Gen", "r#gen"),
            ("Self", "self_"),
            ("Super", "super_"),
            ("Crate", "crate_"),
            ("", "unnamed"),
            ("--", "unnamed"),
            ("Trade-Date/Time", "trade_date_time"),
        ];
        for (input, expected) in table {
            assert_eq!(snake_case(input), expected, "{input:?}");
        }
    }

    #[test]
    fn upper_camel_table() {
        let table = [
            ("NoPartyIDs", "NoPartyIds"),
            ("ExecutionReport", "ExecutionReport"),
            ("IOI", "Ioi"),
            ("MDEntryPx", "MdEntryPx"),
            ("SecurityIDSource", "SecurityIdSource"),
            ("LIMIT", "Limit"),
            ("GOOD_TILL_CANCEL", "GoodTillCancel"),
            ("SELL_SHORT_EXEMPT", "SellShortExempt"),
            ("1_MINUTE", "_1Minute"),
            ("10_YEARS", "_10Years"),
            ("VERSION_4_4", "Version4_4"),
            ("FIX44", "Fix44"),
            ("Self", "Self_"),
            ("self", "Self_"),
            ("Type", "Type"),
            ("", "Unnamed"),
        ];
        for (input, expected) in table {
            assert_eq!(upper_camel(input), expected, "{input:?}");
        }
    }

    #[test]
    fn words_table() {
        let table: &[(&str, &[&str])] = &[
            ("NoPartyIDs", &["No", "Party", "IDs"]),
            ("MDEntryPx", &["MD", "Entry", "Px"]),
            ("ABC", &["ABC"]),
            ("abc", &["abc"]),
            ("aB", &["a", "B"]),
            ("Leg2Px", &["Leg2", "Px"]),
            ("NO_PARTY__IDS", &["NO", "PARTY", "IDS"]),
        ];
        for (input, expected) in table {
            assert_eq!(words(input), *expected, "{input:?}");
        }
    }

    #[test]
    fn enum_variants() {
        assert_eq!(enum_variant("BUY", "1"), "Buy");
        assert_eq!(enum_variant("LIMIT", "2"), "Limit");
        assert_eq!(enum_variant("1_MINUTE", "1"), "_1Minute");
        assert_eq!(enum_variant("  ", "A b"), "ValueAX20b");
    }

    #[test]
    fn dedup_is_stable() {
        let input = ["Buy", "Sell", "Buy", "Buy", "Buy3"].map(String::from);
        assert_eq!(
            dedup(input.clone()),
            ["Buy", "Sell", "Buy2", "Buy4", "Buy3"]
        );
        // A name that comes first keeps it; a later duplicate skips it.
        let taken_first = ["Buy2", "Buy", "Buy"].map(String::from);
        assert_eq!(dedup(taken_first), ["Buy2", "Buy", "Buy3"]);
        let snake = ["md_entry", "md_entry"].map(String::from);
        assert_eq!(dedup(snake), ["md_entry", "md_entry_2"]);
        let digits = ["Version4_4", "Version4_4"].map(String::from);
        assert_eq!(dedup(digits), ["Version4_4", "Version4_4_2"]);
    }

    /// Every identifier is lexically valid: starts with a letter or `_`, only
    /// alphanumerics and `_` after an optional `r#`.
    #[test]
    fn outputs_are_identifiers() {
        let inputs = [
            "", "_", "9", "a-b", "Self", "type", "1_MINUTE", "IDs", "x y z", "é", "ÉTÉ_2",
        ];
        for input in inputs {
            for ident in [snake_case(input), upper_camel(input)] {
                let body = ident.strip_prefix("r#").unwrap_or(&ident);
                assert!(!body.is_empty(), "{input:?}");
                assert!(
                    body.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'),
                    "{input:?} -> {ident:?}"
                );
                assert!(
                    body.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                    "{input:?} -> {ident:?}"
                );
                assert_ne!(body, "_", "{input:?}");
            }
        }
    }
}
