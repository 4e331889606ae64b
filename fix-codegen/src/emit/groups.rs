//! Repeating groups, written where the dictionary writes them (in a component or
//! a message): the group's table, its entry view and its entry builder.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use super::builder::BuilderOf;
use super::context::{Cx, Module, Slot, Walk};
use super::names::{doc, id, u32_lit, usize_lit};
use super::view::ViewKind;
use fix_dict::Member;

impl Cx<'_> {
    /// The tables, entry views and entry builders of every group written in
    /// `members` (nested groups after their parent), owned by module `from`.
    pub(super) fn groups_in(&self, members: &[Member], from: Module, out: &mut Vec<TokenStream>) {
        for m in members {
            let Member::Group(g) = m else { continue };
            let Some(info) = self.groups.get(&g.id) else {
                continue;
            };
            if !self.group_has_entry(g) {
                continue;
            }
            let slots = self.slots(&g.members);
            let level = self.level(&slots, from, Walk::Entry);
            let stat = id(&info.stat);
            let counter = u32_lit(g.counter);
            let delimiter = u32_lit(slots.first().map_or(0, |s| s.tag));
            let gname = self.dict.field(g.counter).map_or("?", |f| f.name.as_str());
            let ds = doc(format!("The `{gname}` ({}) group's table.", g.counter));
            let ty = id(&info.ty);
            let n = usize_lit(info.len);
            let getters = self.view_impl(&ty, ViewKind::Owned, &g.members, 0, from);
            let walk = self.walk(&ty, &stat, gname, g.counter, &slots, from);
            out.push(quote! {
                #ds
                pub static #stat: t::Group = t::Group {
                    name: #gname, counter: #counter, delimiter: #delimiter, entry: #level,
                };
                t::entry!(#ty, slots = #n, group = #gname, tag = #counter);
                #getters
                #walk
            });
            if self.builders {
                let bty = quote::format_ident!("{}Builder", ty);
                out.push(self.builder(
                    &bty,
                    &g.members,
                    &BuilderOf {
                        what: &format!("one `{gname}` entry"),
                        from,
                        skip: &[],
                        sorted: false,
                        entry: true,
                        message: None,
                    },
                ));
            }
            self.groups_in(&g.members, from, out);
        }
    }

    /// The streaming walk of a group's entries: an enum with a variant per tag the
    /// entry holds (the first slot holding a tag names it; slots are the entry's,
    /// components expanded), in slot order, so the delimiter comes first, and the
    /// `walk!` table mapping tags to variants.
    fn walk(
        &self,
        ty: &Ident,
        stat: &Ident,
        gname: &str,
        counter: u32,
        slots: &[Slot],
        from: Module,
    ) -> TokenStream {
        let field_ty = format_ident!("{}Field", ty);
        let mut seen = BTreeSet::new();
        let (mut variants, mut table) = (Vec::new(), Vec::new());
        for slot in slots {
            if !seen.insert(slot.tag) {
                continue;
            }
            let Some((f, info)) = self.field(slot.tag) else {
                continue;
            };
            let var = id(&info.ty);
            let tag = u32_lit(slot.tag);
            let starts = if variants.is_empty() {
                " Starts an entry."
            } else {
                ""
            };
            let (text, payload) = match slot.group {
                Some(k) => {
                    let entry = self.group_type(k, from);
                    (
                        format!("The `{}` ({}) group: a walk of its entries.", f.name, f.tag),
                        quote!(t::Walk<'a, #entry<'a>>),
                    )
                }
                None if f.ty.is_data() => (
                    format!("`{}` ({}), {}.", f.name, f.tag, f.ty.as_str()),
                    quote!(&'a [u8]),
                ),
                None => {
                    let value = self.value_type(f, info, &quote!('a));
                    (
                        format!("`{}` ({}), {}.", f.name, f.tag, f.ty.as_str()),
                        quote!(t::Value<'a, #value, #tag>),
                    )
                }
            };
            let ds = doc(format!("{text}{starts}"));
            variants.push(quote!(#ds #var(#payload),));
            table.push(quote!(#var = #tag));
        }
        let ds = doc(format!(
            "One field of a `{gname}` ({counter}) entry, as the group's streaming walk \
             (`t::Walk`) hands them over in wire order; the first variant's field starts each entry."
        ));
        quote! {
            #ds
            #[derive(Copy, Debug)]
            pub enum #field_ty<'a> {
                #(#variants)*
            }
            t::walk!(#ty => #field_ty, table = #stat, { #(#table),* });
        }
    }
}
