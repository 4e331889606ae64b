//! Repeating groups, written where the dictionary writes them (in a component or
//! a message): the group's table, its entry view and its entry builder.

use proc_macro2::TokenStream;
use quote::quote;

use super::builder::BuilderOf;
use super::context::{Cx, Module, Walk};
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
            out.push(quote! {
                #ds
                pub static #stat: t::Group = t::Group {
                    name: #gname, counter: #counter, delimiter: #delimiter, entry: #level,
                };
                t::entry!(#ty, slots = #n, group = #gname, tag = #counter);
                #getters
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
}
