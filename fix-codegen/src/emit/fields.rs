//! `fields.rs`: a tag constant per field (`tag!`), documented with the field's
//! FIX name, type and the Rust type its getters return.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

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
                let (konst, tag, fix) = (id(&info.konst), u32_lit(f.tag), &f.name);
                let ty = format_ident!("{}", f.ty.as_str());
                let e = self.getter_enum(f.tag).map(|e| quote!(, #e));
                Some(quote!(t::tag!(#konst = #tag, #fix, #ty #e);))
            })
            .collect()
    }
}
