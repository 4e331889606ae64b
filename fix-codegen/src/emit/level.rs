//! The slot tables of levels (`t::Level` literals): a message's header, body and
//! trailer, and every group entry.

use std::collections::BTreeSet;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::context::{Cx, Module, Slot, Walk};
use super::names::u16_lit;

impl Cx<'_> {
    /// A `Level { .. }` literal for `slots`.
    pub(super) fn level(&self, slots: &[Slot], from: Module, walk: Walk) -> TokenStream {
        let tags = slots.iter().map(|s| Literal::u32_unsuffixed(s.tag));
        self.level_of(quote!(&[#(#tags),*]), slots, from, walk, None)
    }

    /// The `(slot, &GROUP)` pairs of the group counters among `slots`.
    pub(super) fn group_pairs(&self, slots: &[Slot], from: Module) -> Vec<TokenStream> {
        slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let g = self.group_static(s.group?, from);
                let i = u16_lit(i);
                Some(quote!((#i, &#g)))
            })
            .collect()
    }

    /// A `Level { .. }` literal for `slots`, whose tags are the expression `tags`
    /// (a constant when there is an index, which names them twice) and whose
    /// groups are the expression `groups` (by default the list of them). A level
    /// with an index leaves `by_tag` empty: only lookups without one read it.
    pub(super) fn level_of(
        &self,
        tags: TokenStream,
        slots: &[Slot],
        from: Module,
        walk: Walk,
        groups: Option<TokenStream>,
    ) -> TokenStream {
        let required = slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.required)
            .map(|(i, _)| u16_lit(i));
        let groups = groups.unwrap_or_else(|| {
            let pairs = self.group_pairs(slots, from);
            quote!(&[#(#pairs),*])
        });
        let Some(buckets) = index_buckets(slots) else {
            let mut by_tag: Vec<usize> = (0..slots.len()).collect();
            by_tag.sort_by_key(|&i| (slots[i].tag, i));
            let by_tag = by_tag.into_iter().map(u16_lit);
            return quote! {
                t::Level {
                    tags: #tags,
                    by_tag: &[#(#by_tag),*],
                    required: &[#(#required),*],
                    groups: #groups,
                    index: &[],
                }
            };
        };
        let index = self.hash_index(slots, walk, buckets);
        quote! {
            t::Level {
                tags: #tags,
                by_tag: &[],
                required: &[#(#required),*],
                groups: #groups,
                index: &[#(#index),*],
            }
        }
    }

    /// The level's `fix_core::typed::hash_index` of `buckets` buckets, as
    /// `hash_index` computes it, written out: a crate compiles a literal table
    /// much faster than it evaluates the function (fix44 spent half a second of
    /// its build in it).
    fn hash_index(&self, slots: &[Slot], walk: Walk, buckets: usize) -> Vec<Literal> {
        let tags: Vec<u32> = slots.iter().map(|s| s.tag).collect();
        let group_slots: Vec<u16> = (0..slots.len())
            .filter(|&i| slots[i].group.is_some())
            .map(slot_u16)
            .collect();
        // At a message's level, a group none of whose tags the level holds needs
        // no skipping (`fix_core::typed::DISJOINT_BIT`).
        let own: BTreeSet<u32> = tags.iter().copied().collect();
        let disjoint: Vec<u16> = (0..slots.len())
            .filter(|&i| {
                let info = slots[i].group.and_then(|g| self.groups.get(&g));
                walk == Walk::Message && info.is_some_and(|info| info.tags.is_disjoint(&own))
            })
            .map(slot_u16)
            .collect();
        let mut table = vec![0u32; buckets];
        fix_core::typed::fill_hash_index(&mut table, &tags, &group_slots, &disjoint);
        table.into_iter().map(Literal::u32_unsuffixed).collect()
    }
}

/// A slot's number as a level's tables hold it (a level with an index has
/// fewer than `INDEX_SLOT_LIMIT` slots: `index_buckets`).
fn slot_u16(slot: usize) -> u16 {
    u16::try_from(slot).unwrap_or(u16::MAX)
}

/// The bucket count of a level's `fix_core::typed::hash_index`: a power of two at
/// least twice the slot count, so that a miss (a header probe for every body tag)
/// ends at an empty bucket after one or two probes. `None` (binary search instead)
/// for an empty level or one a bucket cannot describe.
fn index_buckets(slots: &[Slot]) -> Option<usize> {
    use fix_core::typed::{INDEX_SLOT_LIMIT, INDEX_TAG_LIMIT};
    let fits = slots.len() < INDEX_SLOT_LIMIT && slots.iter().all(|s| s.tag < INDEX_TAG_LIMIT);
    (!slots.is_empty() && fits).then(|| (slots.len() * 2).next_power_of_two())
}
