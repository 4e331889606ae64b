//! `fields.rs`: a tag constant per field, documented with the field's FIX
//! name, type and the Rust type its getters return (from [`Cx::value_type`],
//! the one map from FIX types to Rust types).

use proc_macro2::TokenStream;
use quote::quote;

use super::context::Cx;
use super::names::{id, u32_lit};

impl Cx<'_> {
    /// The items of `fields.rs`.
    pub(super) fn fields(&self) -> Vec<TokenStream> {
        self.dict
            .fields()
            .iter()
            .filter_map(|f| {
                let info = self.fields.get(&f.tag)?;
                let (konst, tag) = (id(&info.konst), u32_lit(f.tag));
                let getters = type_text(&self.value_type(f, info, &quote!('a)));
                let doc = format!(
                    "`{}` ({}), {}: getters return `{getters}`.",
                    f.name,
                    f.tag,
                    f.ty.as_str()
                );
                Some(quote!(#[doc = #doc] pub const #konst: u32 = #tag;))
            })
            .collect()
    }
}

/// A value type as a doc names it: `FixStr<'a>`, `Side`, `&'a [u8]` (the
/// generated crate's module prefixes left out).
fn type_text(ty: &TokenStream) -> String {
    let text = ty.to_string();
    let text = text
        .replace(" :: ", "::")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" <", "<")
        .replace("& '", "&'");
    text.replace("v::", "").replace("e::", "")
}

#[cfg(test)]
mod tests {
    use super::type_text;
    use quote::quote;

    #[test]
    fn a_value_type_is_named_as_the_getters_return_it() {
        assert_eq!(type_text(&quote!(v::FixStr<'a>)), "FixStr<'a>");
        assert_eq!(type_text(&quote!(e::Side)), "Side");
        assert_eq!(type_text(&quote!(e::SecurityType<'a>)), "SecurityType<'a>");
        assert_eq!(type_text(&quote!(&'a [u8])), "&'a [u8]");
        assert_eq!(type_text(&quote!(i64)), "i64");
    }
}
