//! Builders: a struct of public `Option` fields (slices of entry builders for
//! groups, component builders for components) with `Default`, one field per line;
//! for a builder with required fields the struct of those fields (`XRequired`,
//! which `new` takes, so a call site names each one); and `build!`: the `Build`
//! impl from the write order and tags (a required member marked `req`, which
//! `write` refuses to leave unset), `new`, and for a message `encode` and the
//! view's `builder`.

use std::collections::HashSet;

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
    /// Writes in ascending tag order (the header) instead of dictionary order;
    /// the header's builder also gets `app_header!`, its fields but
    /// `SESSION_TAGS` (the ones an application sets beside a session).
    pub(super) sorted: bool,
    /// A group entry: its first member, which starts the entry on the wire, is
    /// required too.
    pub(super) entry: bool,
    /// A message's MsgType and view type: the builder gets `encode`, the view
    /// `builder`.
    pub(super) message: Option<(&'a str, &'a Ident)>,
}

impl Cx<'_> {
    /// The builder struct `bty` for `members`, its `XRequired` struct when it has
    /// required members, and its `build!` (`Build`, `new`, and for a message
    /// `encode` and the view's `builder`).
    pub(super) fn builder(
        &self,
        bty: &Ident,
        members: &[Member],
        of: &BuilderOf<'_>,
    ) -> TokenStream {
        let from = of.from;
        let names = self.member_names(members, RESERVED_BUILDER);
        let paired_lengths: Vec<u32> = self.dict.data_pairs().iter().map(|p| p.length).collect();
        // A LENGTH field is written with its DATA field, which carries its `required`.
        let required_data: HashSet<u32> = members
            .iter()
            .filter_map(|m| match m {
                Member::Field {
                    tag,
                    required: true,
                    ..
                } => self.data_for_length(*tag),
                _ => None,
            })
            .collect();
        let base = bty.to_string();
        let rty = format_ident!("{}Required", base.strip_suffix("Builder").unwrap_or(&base));
        let mut decls = Vec::new();
        // The `XRequired` struct's fields and how `new` sets each (`name` or
        // `name(group)`).
        let mut req_decls = Vec::new();
        let mut req_sets = Vec::new();
        let mut req_borrows = false;
        let mut borrows = false;
        let mut nested = false;
        let mut starts = None;
        // (sort key, `name(how)` entry of the write table)
        let mut writes: Vec<(u32, TokenStream)> = Vec::new();
        // The header's: what the application sets beside a session
        // (`app_header!`), the same entries without `req`.
        let mut app_writes: Vec<(u32, TokenStream)> = Vec::new();
        for (i, (m, name)) in members.iter().zip(&names).enumerate() {
            let fname = id(name);
            let first = of.entry && i == 0;
            match m {
                Member::Field { tag, required, .. } => {
                    if of.skip.contains(tag) || paired_lengths.contains(tag) {
                        continue;
                    }
                    let Some((f, info)) = self.field(*tag) else {
                        continue;
                    };
                    let b = self.borrows(f, info);
                    borrows |= b;
                    let vt = self.value_type(f, info, &quote!('b));
                    let t = u32_lit(*tag);
                    let req = *required || required_data.contains(tag) || first;
                    let d = doc(self.field_doc(f, req.then_some(first)));
                    decls.push(quote!(#d pub #fname: Option<#vt>));
                    if req {
                        let d = doc(self.field_doc(f, None));
                        req_decls.push(quote!(#d pub #fname: #vt));
                        req_sets.push(quote!(#fname));
                        req_borrows |= b;
                    }
                    let r = req.then(|| quote!(req));
                    let how = if f.ty.is_data() {
                        let len = u32_lit(self.dict.length_tag_for_data(*tag).unwrap_or(0));
                        quote!(data = #t, length = #len)
                    } else {
                        quote!(#t)
                    };
                    if of.sorted && !fix_core::typed::SESSION_TAGS.contains(tag) {
                        app_writes.push((*tag, quote!(#fname(#how))));
                    }
                    writes.push((*tag, quote!(#fname(#r #how))));
                }
                Member::Group(g) => {
                    if !self.group_has_entry(g) || of.skip.contains(&g.counter) {
                        continue;
                    }
                    if !self.groups.contains_key(&g.id) {
                        continue;
                    }
                    borrows = true;
                    nested = true;
                    let ety = self.group_builder_type(g.id, from);
                    let t = u32_lit(g.counter);
                    let gname = self.dict.field(g.counter).map_or("?", |f| f.name.as_str());
                    let req = g.required || first;
                    let what = format!("The `{gname}` ({}) group's entries", g.counter);
                    let d = doc(if req {
                        format!("{what}: required, at least one.")
                    } else {
                        format!("{what}.")
                    });
                    decls.push(quote!(#d pub #fname: &'b [#ety<'b>]));
                    if req {
                        let d = doc(format!("{what}: at least one."));
                        req_decls.push(quote!(#d pub #fname: &'b [#ety<'b>]));
                        req_sets.push(quote!(#fname(group)));
                        req_borrows = true;
                    }
                    let r = req.then(|| quote!(req));
                    if of.sorted {
                        app_writes.push((g.counter, quote!(#fname(group #t))));
                    }
                    writes.push((g.counter, quote!(#fname(#r group #t))));
                }
                Member::Component {
                    component,
                    required,
                    ..
                } => {
                    let Some(c) = self.dict.components().get(*component) else {
                        continue;
                    };
                    borrows = true;
                    nested = true;
                    let cb = self.component_builder_type(*component, from);
                    // A required component none of whose fields is required cannot be
                    // told from an absent one on the wire, so only one with a
                    // required field is checked, by the first such tag.
                    let inner = (*required)
                        .then(|| self.first_required(&c.members, 0))
                        .flatten();
                    let path = first.then(|| self.delimiter_path(*component, 0)).flatten();
                    let what = format!("The `{}` component", c.name);
                    let (d, rd) = match (&path, inner) {
                        (Some((_, tag, fix)), _) => {
                            let s = format!("{what}, whose `{fix}` ({tag}) starts the entry");
                            (format!("{s}: required."), format!("{s}."))
                        }
                        (None, Some(tag)) => (
                            format!("{what}: required (its tag {tag} is)."),
                            format!("{what}, whose tag {tag} is required."),
                        ),
                        (None, None) => (format!("{what}."), format!("{what}.")),
                    };
                    let d = doc(d);
                    decls.push(quote!(#d pub #fname: Option<#cb<'b>>));
                    if inner.is_some() || first {
                        let d = doc(rd);
                        req_decls.push(quote!(#d pub #fname: #cb<'b>));
                        req_sets.push(quote!(#fname));
                        req_borrows = true;
                    }
                    if let Some((path, tag, _)) = path {
                        let path = path.iter().map(|p| id(p));
                        let t = u32_lit(tag);
                        starts = Some(quote!(, starts = #fname #(.#path)* (#t)));
                    }
                    let how = match inner {
                        Some(tag) => {
                            let t = u32_lit(tag);
                            quote!(req comp #t)
                        }
                        None => quote!(comp),
                    };
                    writes.push((u32::MAX, quote!(#fname(#how))));
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
        let error = "([`EncodeError::MissingRequired`](fc::EncodeError::MissingRequired))";
        let mut text = if req_decls.is_empty() {
            format!(
                "Builds {}, which has no required fields: start from `Default` and set fields with struct update syntax (`..`).",
                of.what
            )
        } else {
            let also = of.message.map_or(String::new(), |(_, view)| {
                format!(" (as does [`{view}::builder`])")
            });
            let which = if of.entry {
                "the member that starts it and its required fields"
            } else {
                "its required fields"
            };
            format!(
                "Builds {}: [`{bty}::new`]{also} takes [`{rty}`], {which}; set the others with struct update syntax (`..`).",
                of.what
            )
        };
        if !req_decls.is_empty() {
            text = format!(
                "{text} Encoding refuses a required field left unset, here or in a component or group entry that is set {error}."
            );
        } else if nested {
            text = format!(
                "{text} Encoding still refuses a component or group entry that is set without its own required fields {error}."
            );
        }
        let d = doc(text);
        let message = of.message.map(|(msg_type, _)| {
            let mt = bytes_lit(msg_type);
            let hb = qualify("HeaderBuilder", Module::Components, from);
            quote!(, msg_type = #mt, header = #hb)
        });
        let (required, new) = if req_decls.is_empty() {
            (None, None)
        } else {
            let lt = req_borrows.then(|| quote!(<'b>));
            let new_lt = if req_borrows {
                quote!(('b))
            } else {
                quote!(())
            };
            let rd = doc(if of.entry {
                format!(
                    "What {} cannot go without: the member that starts it and its required fields. [`{bty}::new`] takes it, so that a call site names each one.",
                    of.what
                )
            } else {
                format!(
                    "The required fields of {}, which [`{bty}::new`] takes, so that a call site names each one.",
                    of.what
                )
            });
            let view = of.message.map(|(_, view)| quote!(, view = #view));
            (
                Some(quote! {
                    #rd
                    #[derive(Clone, Copy, Debug)]
                    pub struct #rty #lt { #(#req_decls,)* }
                }),
                Some(quote!(, new #new_lt = #rty { #(#req_sets),* } #view)),
            )
        };
        app_writes.sort_by_key(|(k, _)| *k);
        let app_writes = app_writes.into_iter().map(|(_, w)| w);
        let app_header = of
            .sorted
            .then(|| quote!(t::app_header!(#bty { #(#app_writes),* });));
        quote! {
            #d
            #[derive(Copy, Debug, Default)]
            pub struct #bty<'b> { #(#decls,)* }
            #required
            t::build!(#bty { #(#writes),* } #new #starts #message);
            #app_header
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
                entry: false,
                message: None,
            },
        );
        quote! {
            #b
            impl HeaderBuilder<'_> {
                /// Starts a message of type `msg_type` in `buf` with BeginString
                /// [`BEGIN_STRING`](super::BEGIN_STRING): writes 8, 9 and 35, then the header
                /// fields in ascending tag order; a required one that is unset is
                /// [`EncodeError::MissingRequired`](fc::EncodeError::MissingRequired).
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
    /// A builder field's doc: the FIX name, tag and type; `Some(first)` when it is
    /// required (`first`: as the field that starts a group entry).
    fn field_doc(&self, f: &fix_dict::Field, required: Option<bool>) -> String {
        let end = match required {
            None => ".",
            Some(false) => ", required.",
            Some(true) => ", required: it starts the entry.",
        };
        format!("`{}` ({}), {}{end}", f.name, f.tag, f.ty)
    }

    /// The DATA field whose LENGTH field is `tag`, if it is one.
    fn data_for_length(&self, tag: u32) -> Option<u32> {
        self.dict
            .data_pairs()
            .iter()
            .find(|p| p.length == tag)
            .map(|p| p.data)
    }

    /// The first tag a builder of `members` refuses to leave unset, in write order:
    /// a required field's (a DATA field's for its required LENGTH), a required
    /// group's counter, or the first such tag inside a required component.
    pub(super) fn first_required(&self, members: &[Member], depth: usize) -> Option<u32> {
        if depth > fix_dict::MAX_COMPONENT_DEPTH {
            return None;
        }
        members.iter().find_map(|m| match m {
            Member::Field {
                tag,
                required: true,
                ..
            } => Some(self.data_for_length(*tag).unwrap_or(*tag)),
            Member::Group(g) if g.required && self.group_has_entry(g) => Some(g.counter),
            Member::Component {
                component,
                required: true,
                ..
            } => self
                .dict
                .components()
                .get(*component)
                .and_then(|c| self.first_required(&c.members, depth + 1)),
            _ => None,
        })
    }

    /// The builder field names from inside component `i` down to the field that
    /// starts it, with that field's tag and FIX name; `None` when it starts with a
    /// group or a LENGTH field.
    fn delimiter_path(&self, i: usize, depth: usize) -> Option<(Vec<String>, u32, String)> {
        let c = self.dict.components().get(i)?;
        if depth > fix_dict::MAX_COMPONENT_DEPTH {
            return None;
        }
        let first = c.members.first()?;
        let name = self
            .member_names(&c.members, RESERVED_BUILDER)
            .swap_remove(0);
        match first {
            Member::Field { tag, .. } => {
                let f = self.dict.field(*tag)?;
                (self.data_for_length(*tag).is_none()).then(|| (vec![name], *tag, f.name.clone()))
            }
            Member::Component { component, .. } => {
                let (mut path, tag, fix) = self.delimiter_path(*component, depth + 1)?;
                path.insert(0, name);
                Some((path, tag, fix))
            }
            Member::Group(_) => None,
        }
    }
}
