//! `components.rs`: a view per component (and the header and trailer), shared by
//! every message that includes it, a builder per component, and the groups
//! written inside components.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::builder::BuilderOf;
use super::context::{Cx, Module};
use super::names::id;
use super::view::ViewKind;

impl Cx<'_> {
    /// The items of `components.rs`.
    pub(super) fn components(&self) -> Vec<TokenStream> {
        let from = Module::Components;
        let mut items = Vec::new();
        let header = &self.dict.header().members;
        let trailer = &self.dict.trailer().members;
        let (h, tr) = (format_ident!("Header"), format_ident!("Trailer"));
        let getters = self.view_impl(&h, ViewKind::Block, header, 0, from);
        items.push(quote! {
            t::block!(Header, doc = " The standard header, in every message.");
            #getters
        });
        if self.builders {
            items.push(self.header_builder());
        }
        self.groups_in(header, from, &mut items);
        let getters = self.view_impl(&tr, ViewKind::Block, trailer, 0, from);
        items.push(quote! {
            t::block!(Trailer, doc = " The standard trailer, in every message.");
            #getters
        });
        self.groups_in(trailer, from, &mut items);
        for (c, name) in self.dict.components().iter().zip(&self.components) {
            let ty = id(name);
            let fix = &c.name;
            let getters = self.view_impl(&ty, ViewKind::Block, &c.members, 0, from);
            items.push(quote! {
                t::block!(#ty, component = #fix);
                #getters
            });
            if self.builders {
                items.push(self.builder(
                    &format_ident!("{}Builder", ty),
                    &c.members,
                    &BuilderOf {
                        what: &format!("the `{}` component", c.name),
                        from,
                        skip: &[],
                        sorted: false,
                        entry: false,
                        message: None,
                    },
                ));
            }
            self.groups_in(&c.members, from, &mut items);
        }
        items
    }
}
