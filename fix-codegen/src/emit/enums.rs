//! `enums.rs`: an enum per enumerated field, its variants written out (each with
//! its wire value and meaning) and an `Other` variant for unlisted values; its
//! decoding from `char_enum!` (CHAR: a 256-byte table) or `bytes_enum!`
//! (a compiled `match`).

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::context::{Cx, EnumKind};
use super::names::{bytes_lit, doc, id};
use crate::ident;

impl Cx<'_> {
    /// The items of `enums.rs`.
    pub(super) fn enums(&self) -> Vec<TokenStream> {
        let mut out = Vec::new();
        for f in self.dict.fields() {
            let Some(info) = self.fields.get(&f.tag) else {
                continue;
            };
            if info.kind == EnumKind::None {
                continue;
            }
            let variant_names: Vec<String> = {
                let mut names = vec!["Other".to_string()];
                names.extend(
                    f.values
                        .iter()
                        .map(|v| ident::enum_variant(&v.description, &v.value)),
                );
                ident::dedup(names)[1..].to_vec()
            };
            let ty = id(&info.ty);
            let d = doc(format!(
                "Values of `{}` ({}), {}; `Other` carries a value the dictionary does not list.",
                f.name, f.tag, f.ty
            ));
            let vars: Vec<_> = variant_names.iter().map(|n| id(n)).collect();
            let docs = f.values.iter().map(|v| {
                let text = if v.description.is_empty() {
                    format!("`{}`.", v.value)
                } else {
                    format!("`{}`: {}.", v.value, v.description)
                };
                doc(text.replace(['\r', '\n'], " "))
            });
            let derive = quote!(#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]);
            out.push(match info.kind {
                EnumKind::Char => {
                    let wire = f.values.iter().map(|v| {
                        Literal::byte_character(v.value.as_bytes().first().copied().unwrap_or(b' '))
                    });
                    quote! {
                        #d
                        #derive
                        pub enum #ty {
                            #(#docs #vars,)*
                            /// A value the dictionary does not list.
                            Other(u8),
                        }
                        t::char_enum!(#ty { #(#vars = #wire),* });
                    }
                }
                _ => {
                    let wire = f.values.iter().map(|v| bytes_lit(&v.value));
                    let int = f.ty.is_integer();
                    quote! {
                        #d
                        #derive
                        pub enum #ty<'a> {
                            #(#docs #vars,)*
                            /// A value the dictionary does not list.
                            Other(&'a [u8]),
                        }
                        t::bytes_enum!(#ty { #(#vars = #wire),* }, integer = #int);
                    }
                }
            });
        }
        out
    }
}
