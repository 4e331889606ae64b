//! Builders: a struct of public `Option` fields (slices of entry builders for
//! groups, component builders for components) with `Default`, one field per line,
//! and `build!`: `new` taking the required fields, the `Build` impl from the write
//! order and tags, and for a message `encode` and the view's `builder`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use super::context::{Cx, Module, qualify};
use super::names::{RESERVED_BUILDER, bytes_lit, doc, id, u32_lit};
use fix_dict::Member;

/// What a builder is for, beyond its members.
pub(super) struct BuilderOf<'a> {
    /// How its docs name what it builds (`a `Heartbeat``).
    pub(super) what: &'a str,
    /// The module it is written in.
    pub(super) from: Module,
    /// Tags it leaves out (the header's 8, 9, 35 and 10, which the encoder writes).
    pub(super) skip: &'a [u32],
    /// Writes in ascending tag order (the header) instead of dictionary order.
    pub(super) sorted: bool,
    /// `new` also takes the first field (a group entry's delimiter).
    pub(super) first: bool,
    /// A message's MsgType and view type: the builder gets `encode`, the view
    /// `builder`.
    pub(super) message: Option<(&'a str, &'a Ident)>,
}

impl Cx<'_> {
    /// The builder struct `bty` for `members` and its `build!` (`new`, `Build`,
    /// and for a message `encode` and the view's `builder`).
    pub(super) fn builder(
        &self,
        bty: &Ident,
        members: &[Member],
        of: &BuilderOf<'_>,
    ) -> TokenStream {
        let from = of.from;
        let names = self.member_names(members, RESERVED_BUILDER);
        let paired_lengths: Vec<u32> = self.dict.data_pairs().iter().map(|p| p.length).collect();
        let mut decls = Vec::new();
        // `new`'s arguments, each with its FIX type (and enum), as getters name them.
        let mut args = Vec::new();
        let mut borrows = false;
        // (sort key, `name(how)` entry of the write table)
        let mut writes: Vec<(u32, TokenStream)> = Vec::new();
        for (i, (m, name)) in members.iter().zip(&names).enumerate() {
            let fname = id(name);
            match m {
                Member::Field { tag, required, .. } => {
                    if of.skip.contains(tag) || paired_lengths.contains(tag) {
                        continue;
                    }
                    let Some((f, info)) = self.field(*tag) else {
                        continue;
                    };
                    borrows |= self.borrows(f, info);
                    let vt = self.value_type(f, info, &quote!('b));
                    let t = u32_lit(*tag);
                    let d = doc(self.field_doc(f, *required));
                    decls.push(quote!(#d pub #fname: Option<#vt>));
                    if *required || (of.first && i == 0) {
                        let ty = format_ident!("{}", f.ty.as_str());
                        let e = self.getter_enum(*tag).map(|e| quote!(, #e));
                        args.push(quote!(#fname(#ty #e)));
                    }
                    let how = if f.ty.is_data() {
                        let len = u32_lit(self.dict.length_tag_for_data(*tag).unwrap_or(0));
                        quote!(data = #t, length = #len)
                    } else {
                        quote!(#t)
                    };
                    writes.push((*tag, quote!(#fname(#how))));
                }
                Member::Group(g) => {
                    if !self.group_has_entry(g) || of.skip.contains(&g.counter) {
                        continue;
                    }
                    if !self.groups.contains_key(&g.id) {
                        continue;
                    }
                    borrows = true;
                    let ety = self.group_builder_type(g.id, from);
                    let t = u32_lit(g.counter);
                    let gname = self.dict.field(g.counter).map_or("?", |f| f.name.as_str());
                    let d = doc(format!("The `{gname}` ({}) group's entries.", g.counter));
                    decls.push(quote!(#d pub #fname: &'b [#ety<'b>]));
                    writes.push((g.counter, quote!(#fname(group #t))));
                }
                Member::Component { component, .. } => {
                    if self.components.get(*component).is_none() {
                        continue;
                    }
                    borrows = true;
                    let cb = self.component_builder_type(*component, from);
                    let cname = self
                        .dict
                        .components()
                        .get(*component)
                        .map_or("?", |c| c.name.as_str());
                    let d = doc(format!("The `{cname}` component."));
                    decls.push(quote!(#d pub #fname: Option<#cb<'b>>));
                    writes.push((u32::MAX, quote!(#fname(comp))));
                }
            }
        }
        if !borrows {
            decls.push(quote! {
                /// Ties the builder's lifetime (leave it `Default`).
                pub _b: ::core::marker::PhantomData<&'b ()>
            });
        }
        if of.sorted {
            writes.sort_by_key(|(k, _)| *k);
        }
        let writes = writes.into_iter().map(|(_, w)| w);
        let d = doc(if args.is_empty() {
            format!(
                "Builds {}: start from `Default` and set fields with struct update syntax (`..`).",
                of.what
            )
        } else {
            format!(
                "Builds {}: `new` takes the required fields; set the others with struct update syntax (`..`).",
                of.what
            )
        });
        let message = of.message.map(|(msg_type, view)| {
            let mt = bytes_lit(msg_type);
            let hb = qualify("HeaderBuilder", Module::Components, from);
            quote!(, msg_type = #mt, header = #hb, view = #view)
        });
        quote! {
            #d
            #[derive(Copy, Debug, Default)]
            pub struct #bty<'b> { #(#decls,)* }
            t::build!(#bty { #(#writes),* }, new(#(#args),*) #message);
        }
    }

    /// The standard header's builder, which also starts every message.
    pub(super) fn header_builder(&self) -> TokenStream {
        let bty = format_ident!("HeaderBuilder");
        let b = self.builder(
            &bty,
            &self.dict.header().members,
            &BuilderOf {
                what: "the standard header",
                from: Module::Components,
                skip: &[8, 9, 35, 10],
                sorted: true,
                first: false,
                message: None,
            },
        );
        quote! {
            #b
            impl HeaderBuilder<'_> {
                /// Starts a message of type `msg_type` in `buf` with BeginString
                /// [`BEGIN_STRING`](super::BEGIN_STRING): writes 8, 9 and 35, then the header
                /// fields in ascending tag order.
                pub fn start<'o>(&self, buf: &'o mut [u8], msg_type: &[u8]) -> Result<fc::Encoder<'o>, fc::EncodeError> {
                    let mut enc = fc::Encoder::new(buf, super::BEGIN_STRING, msg_type);
                    t::Build::write(self, &mut enc)?;
                    Ok(enc)
                }
            }
        }
    }
}

impl Cx<'_> {
    /// A builder field's doc: the FIX name, tag and type.
    fn field_doc(&self, f: &fix_dict::Field, required: bool) -> String {
        let end = if required { ", required." } else { "." };
        format!("`{}` ({}), {}{end}", f.name, f.tag, f.ty)
    }
}
