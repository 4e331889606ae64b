//! `mod.rs` of the generated module: the `Message` enum dispatching on MsgType,
//! and the validation tables (`FIELDS`, `MESSAGES`, `HEADER`, `TRAILER`,
//! `DATA_FIELDS`, `DICTIONARY`).

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Ident;

use super::context::{Cx, Module, Walk};
use super::names::{bytes_lit, doc, id, screaming, u32_lit, usize_lit};
use fix_dict::Protocol;

impl Cx<'_> {
    /// The generated `mod.rs`; `uses` are the imports every file shares.
    pub(super) fn root(&self, uses: &TokenStream) -> TokenStream {
        let v = self.dict.version();
        let begin = match v.protocol {
            Protocol::Fixt => format!("FIXT.{}.{}", v.major, v.minor),
            Protocol::Fix if v.major >= 5 => "FIXT.1.1".to_string(),
            Protocol::Fix => format!("FIX.{}.{}", v.major, v.minor),
        };
        let begin = bytes_lit(&begin);
        let fields = self.dict.fields().iter().map(|f| {
            let tag = u32_lit(f.tag);
            let name = &f.name;
            let tv = Ident::new(&format!("{:?}", f.ty), Span::call_site());
            let mut values: Vec<&str> = f.values.iter().map(|v| v.value.as_str()).collect();
            values.sort_unstable();
            let values = values.into_iter().map(bytes_lit);
            quote!(t::FieldDef::new(#tag, #name, t::FieldType::#tv, &[#(#values),*]))
        });
        let pairs = self.dict.data_pairs().iter().map(|p| {
            let (l, d) = (u32_lit(p.length), u32_lit(p.data));
            quote!(fc::DataFieldPair { length: #l, data: #d })
        });
        // The O(1) tag index covers every tag below this bound (all standard tags,
        // and venue tags in the usual 5000s), a few kilobytes at most.
        const INDEX_LIMIT: u32 = 1 << 13;
        let index_len = self
            .dict
            .fields()
            .iter()
            .map(|f| f.tag)
            .filter(|&t| t < INDEX_LIMIT)
            .max()
            .map_or(0, |t| t as usize + 1);
        let index_len = usize_lit(index_len);
        let header_slots = self.slots(&self.dict.header().members);
        let trailer_slots = self.slots(&self.dict.trailer().members);
        let header = self.level(&header_slots, Module::Messages, Walk::Message);
        let trailer = self.level(&trailer_slots, Module::Messages, Walk::Message);
        let mut by_type: Vec<(&str, &String)> = self
            .dict
            .messages()
            .iter()
            .zip(&self.messages)
            .map(|(m, n)| (m.msg_type.as_str(), n))
            .collect();
        by_type.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let defs = by_type.iter().map(|(_, n)| {
            let s = id(&screaming(n));
            quote!(&messages::#s)
        });
        let variants: Vec<Ident> = self.messages.iter().map(|n| id(n)).collect();
        let variant_docs = self
            .dict
            .messages()
            .iter()
            .map(|m| doc(format!("`{}` (MsgType `{}`).", m.name, m.msg_type)));
        let arms = self.dict.messages().iter().zip(&variants).map(|(m, v)| {
            let mt = bytes_lit(&m.msg_type);
            quote!(#mt => Self::#v(messages::#v::new(msg)))
        });
        let msg_arms = variants.iter().map(|v| quote!(Self::#v(m) => m.message()));
        let handler = self.handler();
        let source = format!(
            "Typed messages for {} (generated from the dictionary by `fix-codegen`).",
            v
        );
        quote! {
            #![doc = #source]
            #![allow(clippy::too_many_arguments, clippy::large_enum_variant, clippy::needless_lifetimes, clippy::match_single_binding, clippy::needless_update, clippy::new_without_default, non_camel_case_types, non_snake_case, non_upper_case_globals, unused_imports, dead_code)]
            #uses
            use self::{components as c, enums as e, messages as m};
            pub mod components;
            pub mod enums;
            pub mod fields;
            pub mod messages;

            /// BeginString (8) of this dictionary's messages.
            pub const BEGIN_STRING: &[u8] = #begin;

            /// Every field, sorted by tag, with its listed values.
            pub static FIELDS: &[t::FieldDef] = &[#(#fields),*];

            /// The LENGTH/DATA pairs.
            pub static DATA_FIELD_PAIRS: &[fc::DataFieldPair] = &[#(#pairs),*];

            /// The data fields, for `fix_core::Parser::with_data_fields`.
            pub static DATA_FIELDS: fc::DataFields<'static> = fc::DataFields::new(DATA_FIELD_PAIRS);

            /// The header's slots.
            pub static HEADER: t::Level = #header;

            /// The trailer's slots.
            pub static TRAILER: t::Level = #trailer;

            /// Every message's table, sorted by MsgType.
            pub static MESSAGES: &[&t::MessageDef] = &[#(#defs),*];

            /// The whole dictionary, for validation.
            pub static DICTIONARY: t::Tables = t::Tables {
                begin_string: BEGIN_STRING,
                fields: FIELDS,
                messages: MESSAGES,
                header: &HEADER,
                trailer: &TRAILER,
                data_fields: fc::DataFields::new(DATA_FIELD_PAIRS),
                by_tag: &t::field_index::<#index_len>(FIELDS),
                checks: &t::field_checks::<#index_len>(FIELDS),
                by_msg_type: &t::msg_type_index::<128>(MESSAGES),
            };

            /// Any message of this dictionary, by MsgType.
            #[derive(Clone, Copy, Debug)]
            #[non_exhaustive]
            pub enum Message<'a> {
                #(#variant_docs #variants(messages::#variants<'a>),)*
                /// A MsgType the dictionary does not define.
                Unknown(fc::Message<'a>),
            }

            impl<'a> Message<'a> {
                /// Dispatches on MsgType and reads the message (one pass over its fields).
                pub fn new(msg: fc::Message<'a>) -> Self {
                    match msg.msg_type() {
                        #(#arms,)*
                        _ => Self::Unknown(msg),
                    }
                }

                /// The underlying message.
                pub fn message(&self) -> &fc::Message<'a> {
                    match self {
                        #(#msg_arms,)*
                        Self::Unknown(m) => m,
                    }
                }
            }

            #handler
        }
    }

    /// `Handler` (a method per application message, each refusing its message
    /// as unsupported unless implemented), `crack` (the dispatch on MsgType)
    /// and `Cracker` (a handler as a `t::Crack`).
    fn handler(&self) -> TokenStream {
        // FIX 5.0 and later ride on FIXT.1.1, where a message's ApplVerID picks
        // the crate that reads it.
        let v = self.dict.version();
        let appl_ver = match v.appl_ver_id() {
            Some(code) if v.protocol == Protocol::Fix && v.major >= 5 => {
                let lit = bytes_lit(code);
                let d = doc(format!(
                    "ApplVerID (1128) of this dictionary's application messages: `{code}` ({v})."
                ));
                quote! {
                    #d
                    pub const APPL_VER_ID: &[u8] = #lit;

                    impl<H> t::ApplVersion for Cracker<H> {
                        const APPL_VER_ID: &'static [u8] = APPL_VER_ID;
                    }
                }
            }
            _ => TokenStream::new(),
        };
        let app: Vec<(&fix_dict::Message, Ident, Ident)> = self
            .dict
            .messages()
            .iter()
            .zip(&self.messages)
            .filter(|(m, _)| m.category == fix_dict::Category::App)
            .map(|(m, n)| (m, id(n), id(&handler_method(n))))
            .collect();
        let methods = app.iter().map(|(m, ty, on)| {
            let d = doc(format!("`{}` (MsgType `{}`).", m.name, m.msg_type));
            quote! {
                #d
                fn #on(&mut self, msg: &m::#ty<'_>, _out: &mut O) -> Result<(), R> {
                    Err(R::unsupported(msg.message()))
                }
            }
        });
        let arms = app.iter().map(|(m, ty, on)| {
            let mt = bytes_lit(&m.msg_type);
            quote!(#mt => handler.#on(&m::#ty::new(*msg), out))
        });
        quote! {
            /// The application messages of this dictionary, one method each, as
            /// QuickFIX's MessageCracker: [`crack`] reads a message as the type
            /// its MsgType names and calls its method, statically dispatched.
            /// Every method answers [`Unsupported`](t::Unsupported) (QuickFIX's
            /// BusinessMessageReject, UnsupportedMessageType) unless
            /// implemented. `O` is where answers go and `R` the refusal (a
            /// session's `Outbox` and `AppReject`); [`Cracker`] makes a handler a
            /// session's application.
            pub trait Handler<O: ?Sized, R: t::Unsupported> {
                #(#methods)*
                /// A MsgType this dictionary does not define as an application message.
                fn on_other(&mut self, msg: &fc::Message<'_>, _out: &mut O) -> Result<(), R> {
                    Err(R::unsupported(msg))
                }
            }

            /// Reads `msg` as the view its MsgType names (one pass over its fields)
            /// and calls `handler`'s method for it.
            pub fn crack<O: ?Sized, R: t::Unsupported, H: Handler<O, R> + ?Sized>(
                handler: &mut H,
                msg: &fc::Message<'_>,
                out: &mut O,
            ) -> Result<(), R> {
                match msg.msg_type() {
                    #(#arms,)*
                    _ => handler.on_other(msg, out),
                }
            }

            /// A [`Handler`] as a [`Crack`](t::Crack): with `fix-session`, an
            /// `Application` whose `from_app` is [`crack`].
            #[derive(Clone, Copy, Debug, Default)]
            pub struct Cracker<H>(pub H);

            impl<O: ?Sized, R: t::Unsupported, H: Handler<O, R>> t::Crack<O, R> for Cracker<H> {
                #[inline]
                fn crack(&mut self, msg: &fc::Message<'_>, out: &mut O) -> Result<(), R> {
                    crack(&mut self.0, msg, out)
                }
            }

            #appl_ver
        }
    }
}

/// The `Handler` method for the message type named `ty`: `on_` and its words in
/// snake case (`on_new_order_single`), never a keyword or a leading digit, so
/// never escaped.
fn handler_method(ty: &str) -> String {
    let words: Vec<String> = crate::ident::words(ty)
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect();
    if words.is_empty() {
        return "on_unnamed".to_owned();
    }
    format!("on_{}", words.join("_"))
}
