//! `messages.rs`: per message its `MessageDef` slot table, a read view over
//! `fix_core::Message` and a builder demanding the required fields, and the
//! groups written inside messages.

use std::collections::BTreeSet;

use fix_core::validate;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::builder::BuilderOf;
use super::context::{Cx, Module, Slot, Walk};
use super::names::{bytes_lit, doc, id, screaming, u16_lit, u32_lit, usize_lit};
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
            // The view's groups are the header's, the body's and the trailer's, each
            // shifted to its section; the body's are named once (`GROUPS`).
            let body_groups = self.group_pairs(&body, from);
            let (header_groups, trailer_groups) = (
                self.group_pairs(&header_slots, from),
                self.group_pairs(&trailer_slots, from),
            );
            let groups_const = (!body_groups.is_empty())
                .then(|| quote!(const GROUPS: &[(u16, &t::Group)] = &[#(#body_groups),*];));
            let body_expr = if body_groups.is_empty() {
                quote!(&[])
            } else {
                quote!(GROUPS)
            };
            let mut view_const = None;
            let group_count = header_groups.len() + body_groups.len() + trailer_groups.len();
            let view_groups = if group_count == body_groups.len() && hlen == 0 {
                body_expr.clone()
            } else if body_groups.is_empty() {
                let pairs = self.group_pairs(&all, from);
                quote!(&[#(#pairs),*])
            } else {
                let mut sections = Vec::new();
                if !header_groups.is_empty() {
                    sections.push(quote!((0, &[#(#header_groups),*])));
                }
                if !body_groups.is_empty() {
                    let start = u16_lit(hlen);
                    sections.push(quote!((#start, GROUPS)));
                }
                if !trailer_groups.is_empty() {
                    let start = u16_lit(body_end);
                    sections.push(quote!((#start, &[#(#trailer_groups),*])));
                }
                let n = usize_lit(group_count);
                view_const = Some(quote! {
                    const VIEW_GROUPS: [(u16, &t::Group); #n] = t::view_groups(&[#(#sections),*]);
                });
                quote!(&VIEW_GROUPS)
            };
            let body_level =
                self.level_of(quote!(BODY), &body, from, Walk::Message, Some(body_expr));
            let view_level =
                self.level_of(quote!(ALL), &all, from, Walk::Message, Some(view_groups));
            // The fast path of validation reads the slot sets with `slot_of`:
            // without it, they would go unread.
            let (slot_of, sets) = match self.slot_of(&all) {
                Some(slot_of) if self.msg_type_ok(&m.msg_type) => {
                    (slot_of, quote!(t::slot_sets(&VIEW).with_msg_type_ok()))
                }
                Some(slot_of) => (slot_of, quote!(t::slot_sets(&VIEW))),
                None => (quote!(&[]), quote!(t::SlotSets::NONE)),
            };
            let (mt_str, category) = (&m.msg_type, format_ident!("{}", m.category.to_string()));
            let (n, be) = (usize_lit(total), usize_lit(body_end));
            let getters = self.view_impl(&ty, ViewKind::Owned, &m.members, hlen, from);
            // The generated file is `src/generated/messages.rs`: `doc/` is two up.
            let example = self.examples.contains(&m.name).then(|| {
                let path = format!("../../doc/{}.md", m.name);
                quote!(#[doc = include_str!(#path)])
            });
            items.push(quote! {
                #ds
                pub static #stat: t::MessageDef = {
                    const ALL: &[u32] = &[#(#tags),*];
                    const BODY: &[u32] = ALL.split_at(#h).1.split_at(#b).0;
                    #groups_const
                    #view_const
                    const VIEW: t::Level = #view_level;
                    t::MessageDef {
                        name: #mname, msg_type: #mt, admin: #admin,
                        body: #body_level,
                        view: VIEW,
                        slot_of: #slot_of,
                        sets: #sets,
                    }
                };
                t::message!(
                    #example #ty, #mname, #category, msg_type = #mt_str, slots = #n, def = #stat,
                    header = c::Header(..#h), trailer = c::Trailer(#be..),
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
                        entry: false,
                        message: Some((&m.msg_type, &ty)),
                    },
                ));
            }
            self.groups_in(&m.members, from, &mut items);
        }
        items
    }

    /// Whether `msg_type` passes the value checks the generated tables make of
    /// field 35 (its format, and its listed values when it has some), so that a
    /// message's table can vouch for it.
    fn msg_type_ok(&self, msg_type: &str) -> bool {
        let Some(f) = self.dict.field(35) else {
            return false;
        };
        let value = msg_type.as_bytes();
        let listed = |v: &[u8]| f.values.iter().any(|e| e.value.as_bytes() == v);
        !value.is_empty()
            && f.ty.format().accepts(value)
            && (f.values.is_empty() || validate::value_listed(f.ty.is_multiple(), value, listed))
    }

    /// A message view's `slot_of` table (`t::slot_table`, computed at compile
    /// time from `ALL`), or `None` when the view cannot be filled by tag: a tag
    /// in two slots, a group sharing a tag with the message (only a walk knows
    /// which of the two fields is the message's), or a tag past
    /// [`SLOT_TABLE_TAGS`].
    fn slot_of(&self, all: &[Slot]) -> Option<TokenStream> {
        let own: BTreeSet<u32> = all.iter().map(|s| s.tag).collect();
        let disjoint = all.iter().filter_map(|s| s.group).all(|g| {
            self.groups
                .get(&g)
                .is_some_and(|info| info.tags.is_disjoint(&own))
        });
        match own.last() {
            Some(&max) if own.len() == all.len() && disjoint && max < SLOT_TABLE_TAGS => {
                let n = usize_lit(max as usize + 2);
                Some(quote!(&t::slot_table::<#n>(ALL)))
            }
            _ => None,
        }
    }
}

/// A message view whose tags are all below this gets a `slot_of` table (at most
/// 8 KiB; FIX 4.4's largest tag is 958, FIX 5.0 SP2's below 3000). A venue's tag
/// past it (user-defined tags start at 5000) leaves its messages to the walk.
const SLOT_TABLE_TAGS: u32 = 4096;
