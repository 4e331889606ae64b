//! `messages.rs`: per message its `MessageDef` slot table, a read view over
//! `fix_core::Message` and a builder demanding the required fields, and the
//! groups written inside messages.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::builder::BuilderOf;
use super::context::{Cx, Module, Slot, Walk};
use super::names::{bytes_lit, doc, id, screaming, u32_lit, usize_lit};
use super::view::ViewKind;

impl Cx<'_> {
    /// The items of `messages.rs`.
    pub(super) fn messages(&self) -> Vec<TokenStream> {
        let from = Module::Messages;
        let mut items = Vec::new();
        let header_slots = self.slots(&self.dict.header().members);
        let trailer_slots = self.slots(&self.dict.trailer().members);
        let hlen = header_slots.len();
        let tlen = trailer_slots.len();
        for (m, name) in self.dict.messages().iter().zip(&self.messages) {
            let ty = id(name);
            let stat = id(&screaming(name));
            let body = self.slots(&m.members);
            let body_end = hlen + body.len();
            let total = body_end + tlen;
            let mname = &m.name;
            let mt = bytes_lit(&m.msg_type);
            let admin = m.category == fix_dict::Category::Admin;
            let ds = doc(format!(
                "The body table of `{}` (MsgType `{}`).",
                m.name, m.msg_type
            ));
            // The body's tags are a run of the view's (header, body, trailer), so
            // they are written once.
            let all: Vec<Slot> = header_slots
                .iter()
                .chain(&body)
                .chain(&trailer_slots)
                .cloned()
                .collect();
            let tags = all.iter().map(|s| u32_lit(s.tag));
            let (h, b) = (usize_lit(hlen), usize_lit(body.len()));
            let body_level = self.level_of(quote!(BODY), &body, from, Walk::Message);
            let view_level = self.level_of(quote!(ALL), &all, from, Walk::Message);
            let (mt_str, category) = (&m.msg_type, format_ident!("{}", m.category.to_string()));
            let (n, be) = (usize_lit(total), usize_lit(body_end));
            let getters = self.view_impl(&ty, ViewKind::Owned, &m.members, hlen, from);
            items.push(quote! {
                #ds
                pub static #stat: t::MessageDef = {
                    const ALL: &[u32] = &[#(#tags),*];
                    const BODY: &[u32] = ALL.split_at(#h).1.split_at(#b).0;
                    t::MessageDef {
                        name: #mname, msg_type: #mt, admin: #admin,
                        body: #body_level,
                        view: #view_level,
                    }
                };
                message!(
                    #ty, #mname, #category, msg_type = #mt_str, slots = #n, def = #stat,
                    header = c::Header(0..#h), trailer = c::Trailer(#be..#n),
                );
                #getters
            });
            if self.builders {
                items.push(self.builder(
                    &format_ident!("{}Builder", ty),
                    &m.members,
                    &BuilderOf {
                        what: &format!("a `{}`", m.name),
                        from,
                        skip: &[],
                        sorted: false,
                        first: false,
                        message: Some((&m.msg_type, &ty)),
                    },
                ));
            }
            self.groups_in(&m.members, from, &mut items);
        }
        items
    }
}
