//! Names and literals of generated code: identifiers from dictionary names,
//! constant names, doc attributes, and the method names views and builders keep.

use proc_macro2::{Literal, Span, TokenStream};
use quote::quote;
use syn::Ident;

use crate::ident;

/// An identifier from a name the `ident` module produced (raw identifiers kept);
/// anything that is not an identifier becomes `_invalid`.
pub(super) fn id(s: &str) -> Ident {
    let (raw, base) = match s.strip_prefix("r#") {
        Some(b) => (true, b),
        None => (false, s),
    };
    let valid = !base.is_empty()
        && base != "_"
        && base
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && base.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Ident::new("_invalid", Span::call_site());
    }
    if raw {
        Ident::new_raw(base, Span::call_site())
    } else {
        Ident::new(base, Span::call_site())
    }
}

/// `SCREAMING_SNAKE` for a type name.
pub(super) fn screaming(type_name: &str) -> String {
    let s = ident::snake_case(type_name);
    let s = s.strip_prefix("r#").unwrap_or(&s).to_uppercase();
    s.trim_end_matches('_').to_string()
}

/// A `#[doc]` attribute (`/// text`).
pub(super) fn doc(text: impl AsRef<str>) -> TokenStream {
    let text = format!(" {}", text.as_ref());
    quote!(#[doc = #text])
}

/// A byte string literal (`b"FIX.4.4"`).
pub(super) fn bytes_lit(s: &str) -> Literal {
    Literal::byte_string(s.as_bytes())
}

/// An unsuffixed `u16` literal (a slot), saturated.
pub(super) fn u16_lit(n: usize) -> Literal {
    Literal::u16_unsuffixed(u16::try_from(n).unwrap_or(u16::MAX))
}

/// An unsuffixed `u32` literal (a tag).
pub(super) fn u32_lit(n: u32) -> Literal {
    Literal::u32_unsuffixed(n)
}

/// An unsuffixed `usize` literal (a count).
pub(super) fn usize_lit(n: usize) -> Literal {
    Literal::usize_unsuffixed(n)
}

/// Method names of views that getters must not take.
pub(super) const RESERVED: &[&str] = &[
    "b", "message", "new", "header", "trailer", "builder", "from", "walk",
];
/// Method names of builders that setters must not take.
pub(super) const RESERVED_BUILDER: &[&str] = &["new", "write", "encode", "start"];
