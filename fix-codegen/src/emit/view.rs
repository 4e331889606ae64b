//! Read views: the getters of a component, group entry or message in the
//! view's `impl`, each written out as a plain function: a field's with the
//! value type the generator spells (one type map, `Cx::value_type`, shared
//! with the builders), a group's returning its `Entries`, a component's its
//! view over the component's slots. Go-to-definition lands on the getter
//! and the compiler expands no macro for it (FIX50SP2's release build: 46 s
//! to 40 s with the fields' getters as functions).

use proc_macro2::TokenStream;
use quote::quote;
use syn::Ident;

use super::context::{Cx, Module};
use super::names::{RESERVED, id, u32_lit, usize_lit};
use fix_dict::Member;

/// Which kind of view a getter belongs to: a component's (`Name<'v, 'a>`, whose
/// component getters keep `'v`) or an entry's or message's (`Name<'a>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ViewKind {
    Block,
    Owned,
}

impl Cx<'_> {
    /// `impl` of the view `ty` holding one getter per member of `members`, whose
    /// first slot is `base`; nothing when there are no getters.
    pub(super) fn view_impl(
        &self,
        ty: &Ident,
        kind: ViewKind,
        members: &[Member],
        base: usize,
        from: Module,
    ) -> TokenStream {
        let getters = self.getters(members, base, from, kind);
        if getters.is_empty() {
            return TokenStream::new();
        }
        match kind {
            ViewKind::Block => quote! { impl<'v, 'a> #ty<'v, 'a> { #(#getters)* } },
            ViewKind::Owned => quote! { impl<'a> #ty<'a> { #(#getters)* } },
        }
    }

    /// The getter invocations of a view over `members`, whose first slot is `base`.
    fn getters(
        &self,
        members: &[Member],
        base: usize,
        from: Module,
        kind: ViewKind,
    ) -> Vec<TokenStream> {
        let names = self.member_names(members, RESERVED);
        let mut slot = base;
        let mut out = Vec::new();
        for (m, name) in members.iter().zip(names) {
            let getter = id(&name);
            let s = usize_lit(slot);
            match m {
                Member::Field { tag, required, .. } => {
                    slot += 1;
                    let Some((f, info)) = self.field(*tag) else {
                        continue;
                    };
                    let t = u32_lit(*tag);
                    let ty_name = f.ty.as_str();
                    let data = matches!(ty_name, "DATA" | "XMLDATA");
                    let doc = format!(
                        "`{}` ({}), {}{}.",
                        f.name,
                        tag,
                        ty_name,
                        if *required { ", required" } else { "" }
                    );
                    let vt = self.value_type(f, info, &quote!('a));
                    let sig = match (data, *required) {
                        (true, false) => {
                            quote!(-> ::core::option::Option<&'a [u8]> { self.0.data(#s) })
                        }
                        (true, true) => quote!(-> t::Req<&'a [u8]> { self.0.req_data(#s, #t) }),
                        (false, false) => quote!(-> t::Opt<#vt> { self.0.get(#s, #t) }),
                        (false, true) => quote!(-> t::Req<#vt> { self.0.req(#s, #t) }),
                    };
                    out.push(quote!(#[doc = #doc] #[inline] pub fn #getter(&self) #sig));
                }
                Member::Group(g) => {
                    slot += 1;
                    let Some(info) = self.groups.get(&g.id).filter(|_| self.group_has_entry(g))
                    else {
                        continue;
                    };
                    let entry = self.group_type(g.id, from);
                    let table = self.group_static(g.id, from);
                    let fix = self.dict.field(g.counter).map_or("?", |f| f.name.as_str());
                    let doc = format!(
                        "The `{fix}` ({}) repeating group{}: its entries in wire order.",
                        g.counter,
                        if g.required { ", required" } else { "" }
                    );
                    let n = usize_lit(info.len);
                    out.push(quote! {
                        #[doc = #doc]
                        #[inline]
                        pub fn #getter(&self) -> t::Entries<'a, #entry<'a>, #n> {
                            self.0.group(#s, &#table)
                        }
                    });
                }
                Member::Component {
                    component,
                    required,
                    ..
                } => {
                    let len = self.component_len.get(*component).copied().unwrap_or(0);
                    slot += len;
                    let ty = self.component_type(*component, from);
                    let fix = self
                        .dict
                        .components()
                        .get(*component)
                        .map_or("?", |c| c.name.as_str());
                    let doc = format!(
                        "The `{fix}` component{}.",
                        if *required { " (required)" } else { "" }
                    );
                    let len = usize_lit(len);
                    // In a component's own view the result lives as long as
                    // the enclosing view, else as long as the borrow.
                    let view = match kind {
                        ViewKind::Block => quote!('v),
                        ViewKind::Owned => quote!('_),
                    };
                    out.push(quote! {
                        #[doc = #doc]
                        #[inline]
                        pub fn #getter(&self) -> #ty<#view, 'a> {
                            #ty(self.0.sub(#s, #len))
                        }
                    });
                }
            }
        }
        out
    }
}
