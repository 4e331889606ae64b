//! The declarative macros generated code invokes (exported at the crate root as
//! `__fix_*` and re-exported under `typed`).

#[cfg(doc)]
use super::{Build, block, build, char_enum};
#[cfg(doc)]
use crate::EncodeError;

// ----- Declarative macros for generated code ------------------------------------
//
// `fix-codegen` writes real items (impl blocks, builder structs, enums) whose
// members are short macro invocations, one per line: the printer it uses
// (prettyplease) formats items one member per line but the tokens inside one macro
// invocation as running text. So each getter is its own invocation in the view's
// `impl`; a builder's or an enum's members are written out as struct fields and
// variants, and their macro gets only the short table its expansion needs (the
// write order and tags and the fields `new` takes; the wire values). The
// expansions (structs, getters, `new`, `Build`, enum decoding) are written once
// here, every function `#[inline]`. Docs of generated items are assembled from the
// FIX name, tag and type the invocation carries. Numbers are named (`slot = 3`,
// `slots = 11`); the header's view and builder types are arguments, so nothing
// here names a path of the generated crate.

/// A component's read view (`Name<'v, 'a>`, a run of the enclosing view's slots):
/// `component = "FixName"` for a dictionary component, `doc = "..."` for the
/// header and trailer. Its getters go in an `impl<'v, 'a> Name<'v, 'a>` of
/// plain functions, as the generator writes them.
///
/// ```
/// use fix_core::typed::{self as t, Level, View};
/// use fix_core::value::FixStr;
/// use fix_core::{Fields, Parser};
///
/// t::block!(Order, component = "Order");
/// impl<'v, 'a> Order<'v, 'a> {
///     pub fn cl_ord_id(&self) -> t::Req<FixStr<'a>> { self.0.req(0, 11) }
///     pub fn text(&self) -> t::Opt<FixStr<'a>> { self.0.get(1, 58) }
/// }
/// static L: Level = Level { tags: &[11, 58], by_tag: &[0, 1], required: &[0], groups: &[], index: &[] };
/// let bytes = b"8=FIX.4.4\x019=13\x0135=D\x0111=ORD1\x0110=156\x01";
/// let mut fields = Fields::<8>::new();
/// let msg = Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// let view = View::<2>::new(msg, &L);
/// let order = Order(view.block());
/// assert_eq!(order.cl_ord_id().unwrap().as_bytes(), b"ORD1");
/// assert_eq!(order.text(), Ok(None));
/// # Ok::<(), fix_core::Error>(())
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_block {
    ($name:ident, component = $fix:literal) => {
        $crate::__fix_block!(
            $name,
            doc = concat!(
                " The `",
                $fix,
                "` component: a view over the slots it fills in the enclosing message or entry."
            )
        );
    };
    ($name:ident, doc = $doc:expr) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Debug)]
        pub struct $name<'v, 'a>(pub $crate::typed::Block<'v, 'a>);
    };
}

/// A group entry's read view (`Name<'a>` over its own `slots`), for the group
/// `group = "FixName"` with counter `tag`.
///
/// ```
/// fix_core::typed::entry!(PartiesNoPartyIds, slots = 2, group = "NoPartyIDs", tag = 453);
/// impl<'a> PartiesNoPartyIds<'a> {
///     pub fn party_id(&self) -> fix_core::typed::Opt<fix_core::value::FixStr<'a>> {
///         self.0.get(0, 448)
///     }
/// }
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_entry {
    ($name:ident, slots = $n:literal, group = $fix:literal, tag = $tag:literal) => {
        $crate::__fix_entry!(@view $name, $n, concat!(" One entry of the `", $fix, "` (", $tag, ") group."));
    };
    (@view $name:ident, $n:tt, $doc:expr $(, #[$attr:meta])*) => {
        #[doc = $doc]
        $(#[$attr])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name<'a>($crate::typed::View<'a, $n>);
        impl<'a> ::core::convert::From<$crate::typed::View<'a, $n>> for $name<'a> {
            #[inline]
            fn from(view: $crate::typed::View<'a, $n>) -> Self {
                Self(view)
            }
        }
        impl<'a> $name<'a> {
            /// The underlying message.
            #[inline]
            pub fn message(&self) -> &$crate::Message<'a> {
                self.0.message()
            }
        }
    };
}

/// A message's read view (`Name<'a>`): its FIX name and category (`admin` or
/// `app`), MsgType, its `slots` (header, body, trailer; the view holds
/// [`view_capacity`](crate::typed::view_capacity) of them, a power of two with a
/// spare, so that [`View::of_message`](crate::typed::View::of_message) fills it
/// without a test per field), its slot table `def` (a `MessageDef`), and the
/// header's and trailer's view types with their slots (the header's are the
/// first, `..9`; the trailer's the last, `32..`).
/// Attributes before the name go on the view type after its generated doc line
/// (a crate's hand-written example for the message, say).
///
/// ```
/// use fix_core::typed::{self as t, Level, MessageDef};
/// static HEARTBEAT: MessageDef = MessageDef {
///     name: "Heartbeat", msg_type: b"0", admin: true,
///     body: Level { tags: &[112], by_tag: &[0], required: &[], groups: &[], index: &[] },
///     view: Level { tags: &[35, 112, 10], by_tag: &[2, 0, 1], required: &[0, 2], groups: &[], index: &[] },
///     slot_of: &t::slot_table::<114>(&[35, 112, 10]),
///     sets: t::SlotSets::NONE,
/// };
/// t::block!(Header, doc = " The header.");
/// t::block!(Trailer, doc = " The trailer.");
/// t::message!(
///     Heartbeat, "Heartbeat", admin, msg_type = "0", slots = 3, def = HEARTBEAT,
///     header = Header(..1), trailer = Trailer(2..),
/// );
/// impl<'a> Heartbeat<'a> {
///     pub fn test_req_id(&self) -> t::Opt<fix_core::value::FixStr<'a>> { self.0.get(1, 112) }
/// }
/// let mut fields = fix_core::Fields::<8>::new();
/// let bytes = b"8=FIX.4.4\x019=12\x0135=0\x01112=T1\x0110=040\x01";
/// let msg = fix_core::Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// let hb = Heartbeat::new(msg);
/// assert_eq!(hb.test_req_id()?.unwrap().as_bytes(), b"T1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_message {
    (
        $(#[$attr:meta])*
        $name:ident, $fix:literal, $cat:ident, msg_type = $mt:literal, slots = $n:literal,
        def = $def:ident, header = $($h:ident)::+ (..$hl:literal),
        trailer = $($tr:ident)::+ ($t:literal..) $(,)?
    ) => {
        // The view's slots rounded up to a power of two, above the level's, so
        // that filling it stores every field without a test (`View::of_message`).
        $crate::__fix_entry!(@view $name, { $crate::typed::view_capacity($n) }, concat!(
            " `", $fix, "` (MsgType `", $mt, "`, ", stringify!($cat), "): a read view; getters are `O(1)`."
        ) $(, #[$attr])*);
        impl<'a> $name<'a> {
            /// MsgType (35).
            pub const MSG_TYPE: &'static [u8] = $mt.as_bytes();
            /// The slot table.
            pub const DEF: &'static $crate::typed::MessageDef = &$def;
            /// Reads `msg` (one pass over its fields). Does not check MsgType: the
            /// crate's `Message::new` dispatches on it.
            #[inline]
            pub fn new(msg: $crate::Message<'a>) -> Self {
                Self($crate::typed::View::of_message(msg, &$def))
            }
            /// The streaming walk of the group whose entries are `E`, one of the
            /// message's groups outside any other group, straight from `msg`: no view,
            /// no slot table (an `E` of no such group walks nothing).
            #[inline]
            pub fn walk<E: $crate::typed::WalkEntry<'a>>(msg: $crate::Message<'a>) -> $crate::typed::Walk<'a, E> {
                $crate::typed::Walk::in_message(&msg, &$def)
            }
            /// The standard header.
            #[inline]
            pub fn header(&self) -> $($h)::+<'_, 'a> {
                $($h)::+(self.0.sub(0, $hl))
            }
            /// The standard trailer.
            #[inline]
            pub fn trailer(&self) -> $($tr)::+<'_, 'a> {
                $($tr)::+(self.0.sub($t, $n - $t))
            }
        }
    };
}

/// The [`Build`] impl of a builder struct, and its `new` when it has required
/// fields. The fields in write order, each `name(tag)` (a value),
/// `name(data = tag, length = length_tag)`, `name(group counter)` or `name(comp)`,
/// with `req` in front when it is required (`req comp tag` names the component's
/// first required tag): `write` returns [`EncodeError::MissingRequired`] for a
/// required one that is unset (or a required group with no entries), as it comes
/// to it. `new('b) = XRequired { a, b, c(group) }` is the struct of the required
/// fields (written out by the generator; `new()` when it does not borrow) that `new` takes,
/// each set in the builder (a group's entries as they are, the others `Some`);
/// `view = V` gives the message view `V` a `builder` that does the same.
/// `starts = comp.field(tag)` makes `write` first check the field that starts a
/// group entry when it is inside the entry's first component. A message's
/// builder also gets `encode`, given its MsgType and the header's builder type
/// (which has `start`), and is a [`MessageBody`](crate::typed::MessageBody) a
/// session sends as it is.
///
/// ```
/// use fix_core::EncodeError;
/// use fix_core::typed::{self as t, Build};
/// use fix_core::value::FixStr;
///
/// #[derive(Copy, Debug, Default)]
/// pub struct PartyBuilder<'b> {
///     pub party_id: Option<FixStr<'b>>,
///     pub party_role: Option<i64>,
/// }
/// pub struct PartyRequired<'b> {
///     pub party_id: FixStr<'b>,
/// }
/// t::build!(PartyBuilder { party_id(req 448), party_role(452) }, new('b) = PartyRequired { party_id });
/// let party_id = FixStr::parse(b"P1").unwrap();
/// let party = PartyBuilder { party_role: Some(3), ..PartyBuilder::new(PartyRequired { party_id }) };
/// let mut buf = [0u8; 64];
/// let mut enc = fix_core::Encoder::new(&mut buf, b"FIX.4.4", b"D");
/// party.write(&mut enc)?;
/// assert!(enc.finish()?.windows(13).any(|w| w == b"448=P1\x01452=3\x01"));
/// let mut enc = fix_core::Encoder::new(&mut buf, b"FIX.4.4", b"D");
/// let unset = PartyBuilder { party_id: None, ..party };
/// assert_eq!(unset.write(&mut enc), Err(EncodeError::MissingRequired { tag: 448 }));
/// # Ok::<(), fix_core::EncodeError>(())
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_build {
    (
        $name:ident { $($f:ident($($how:tt)*)),* $(,)? }
        $(, new $rl:tt = $req:ident { $($rf:ident $(($rk:ident))?),* $(,)? }
            $(, view = $view:ident)?)?
        $(, starts = $s0:ident $(. $sp:ident)* ($stag:literal))?
        $(, msg_type = $mt:literal, header = $($hb:ident)::+)? $(,)?
    ) => {
        // Written out rather than derived: a derived `Clone` of a `Copy` struct
        // still checks every field's type, compile time a large dictionary's
        // builders pay for nothing.
        impl ::core::clone::Clone for $name<'_> {
            #[inline]
            fn clone(&self) -> Self {
                *self
            }
        }
        impl $crate::typed::Build for $name<'_> {
            #[inline]
            fn write(
                &self,
                enc: &mut $crate::Encoder<'_>,
            ) -> ::core::result::Result<(), $crate::EncodeError> {
                $(
                    if !$crate::__fix_build!(@set self.$s0 $(, $sp)*) {
                        return Err($crate::EncodeError::MissingRequired { tag: $stag });
                    }
                )?
                $($crate::__fix_put!(enc, self.$f, $($how)*);)*
                let _ = enc;
                Ok(())
            }
        }
        $(
            impl<'b> $name<'b> {
                #[doc = concat!(" A builder with the fields of [`", stringify!($req), "`] set, the others unset.")]
                #[inline]
                pub fn new(required: $crate::__fix_build!(@ty $req $rl)) -> Self {
                    $name {
                        $($rf: $crate::__fix_build!(@wrap $($rk)? required.$rf),)*
                        ..::core::default::Default::default()
                    }
                }
            }
            $(
                impl $view<'_> {
                    #[doc = concat!(" Starts a [`", stringify!($name), "`] with the fields of [`", stringify!($req), "`] set, the others unset.")]
                    #[inline]
                    pub fn builder<'b>(required: $crate::__fix_build!(@ty $req $rl)) -> $name<'b> {
                        $name::new(required)
                    }
                }
            )?
        )?
        $(
            impl $name<'_> {
                /// Encodes the message into `buf`: header (8, 9, 35, then the header
                /// fields in ascending tag order), body, CheckSum. A required field
                /// that is unset, in the header or the body, is
                /// [`EncodeError::MissingRequired`](fix_core::EncodeError::MissingRequired).
                #[inline]
                pub fn encode<'o>(
                    &self,
                    header: &$($hb)::+<'_>,
                    buf: &'o mut [u8],
                ) -> ::core::result::Result<&'o [u8], $crate::EncodeError> {
                    let mut enc = header.start(buf, $mt)?;
                    $crate::typed::Build::write(self, &mut enc)?;
                    enc.finish()
                }
            }
            impl $crate::typed::MessageBody for $name<'_> {
                const MSG_TYPE: &'static [u8] = $mt;
                #[inline]
                fn write_body(
                    &self,
                    enc: &mut $crate::Encoder<'_>,
                ) -> ::core::result::Result<(), $crate::EncodeError> {
                    $crate::typed::Build::write(self, enc)
                }
            }
        )?
    };
    (@ty $req:ident ($lt:lifetime)) => { $req<$lt> };
    (@ty $req:ident ()) => { $req };
    (@wrap group $v:expr) => { $v };
    (@wrap $v:expr) => { ::core::option::Option::Some($v) };
    (@set $v:expr, $f:ident $(, $rest:ident)*) => {
        $v.as_ref().is_some_and(|c| $crate::__fix_build!(@set c.$f $(, $rest)*))
    };
    (@set $v:expr) => { $v.is_some() };
}

/// The [`AppHeader`](crate::typed::AppHeader) impl of the standard header's
/// builder: the header fields an application sets, in ascending tag order, as
/// [`build!`]'s table without `req` (the generator leaves out
/// [`SESSION_TAGS`](crate::typed::SESSION_TAGS), which a session writes).
///
/// ```
/// use fix_core::typed::{self as t, AppHeader};
/// use fix_core::value::FixStr;
/// #[derive(Default)]
/// pub struct HeaderBuilder<'b> {
///     pub poss_resend: Option<bool>,
///     pub on_behalf_of_comp_id: Option<FixStr<'b>>,
/// }
/// t::app_header!(HeaderBuilder { poss_resend(97), on_behalf_of_comp_id(115) });
/// let header = HeaderBuilder { on_behalf_of_comp_id: Some(FixStr::parse(b"DESK").unwrap()), ..Default::default() };
/// let mut buf = [0u8; 32];
/// let mut enc = fix_core::Encoder::fields(&mut buf);
/// header.write_app_fields(&mut enc)?;
/// assert_eq!(enc.finish()?, b"115=DESK\x01");
/// # Ok::<(), fix_core::EncodeError>(())
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_app_header {
    ($name:ident { $($f:ident($($how:tt)*)),* $(,)? }) => {
        impl $crate::typed::AppHeader for $name<'_> {
            #[inline]
            fn write_app_fields(
                &self,
                enc: &mut $crate::Encoder<'_>,
            ) -> ::core::result::Result<(), $crate::EncodeError> {
                $($crate::__fix_put!(enc, self.$f, $($how)*);)*
                let _ = enc;
                Ok(())
            }
        }
    };
}

/// One write of [`build!`]'s `Build::write`.
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_put {
    ($enc:ident, $v:expr, req data = $tag:literal, length = $len:literal) => {
        $crate::typed::put_data($enc, $len, $tag, Some(*$crate::typed::required(&$v, $tag)?))?
    };
    ($enc:ident, $v:expr, req group $tag:literal) => {
        $crate::typed::put_group($enc, $tag, $crate::typed::required_entries($v, $tag)?)?
    };
    ($enc:ident, $v:expr, req comp $tag:literal) => {
        $crate::typed::Build::write($crate::typed::required(&$v, $tag)?, $enc)?
    };
    ($enc:ident, $v:expr, req $tag:literal) => {
        $enc.field($tag, $crate::typed::required(&$v, $tag)?)?
    };
    ($enc:ident, $v:expr, data = $tag:literal, length = $len:literal) => {
        $crate::typed::put_data($enc, $len, $tag, $v)?
    };
    ($enc:ident, $v:expr, group $tag:literal) => {
        $crate::typed::put_group($enc, $tag, $v)?
    };
    ($enc:ident, $v:expr, comp) => {
        $crate::typed::put_component($enc, &$v)?
    };
    ($enc:ident, $v:expr, $tag:literal) => {
        $crate::typed::put($enc, $tag, &$v)?
    };
}

/// The decoding of a CHAR enum (written out with its variants and an `Other(u8)`):
/// each variant's byte, `O(1)` decoding through a 256-byte table.
///
/// ```
/// /// Values of `Side` (54), CHAR.
/// #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
/// pub enum Side { Buy, Sell, Other(u8) }
/// fix_core::typed::char_enum!(Side { Buy = b'1', Sell = b'2' });
/// assert_eq!(Side::from_bytes(b"2"), Ok(Side::Sell));
/// assert_eq!(Side::from_bytes(b"7"), Ok(Side::Other(b'7')));
/// assert_eq!(Side::Buy.as_bytes(), b"1");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_char_enum {
    ($name:ident { $($var:ident = $b:literal),* $(,)? }) => {
        impl $name {
            const TABLE: [u8; 256] = $crate::typed::byte_table(&[$($b),*]);
            const VARIANTS: &'static [Self] = &[$(Self::$var),*];
            /// Decodes wire bytes in `O(1)` (one table load).
            #[inline]
            pub fn from_bytes(bytes: &[u8]) -> ::core::result::Result<Self, $crate::typed::EnumError> {
                $crate::typed::decode_char(bytes, &Self::TABLE, Self::VARIANTS, Self::Other)
            }
            /// The wire bytes.
            #[inline]
            pub fn as_bytes(&self) -> &'static [u8] {
                match self {
                    $(Self::$var => &[$b],)*
                    Self::Other(b) => $crate::typed::byte_str(*b),
                }
            }
        }
        impl<'a> $crate::value::FieldValue<'a> for $name {
            type Error = $crate::typed::EnumError;
            #[inline]
            fn parse_fix(bytes: &'a [u8]) -> ::core::result::Result<Self, $crate::typed::EnumError> {
                Self::from_bytes(bytes)
            }
            #[inline]
            fn write_fix(&self, out: &mut [u8]) -> ::core::result::Result<usize, $crate::value::BufferTooSmall> {
                $crate::typed::write_bytes(self.as_bytes(), out)
            }
        }
    };
}

/// The decoding of an enum of multi-byte values (written out with its variants
/// and an `Other(&'a [u8])`): each variant's wire bytes, decoding through a
/// compiled `match`; with `integer = true` an unlisted value must be an integer.
///
/// ```
/// /// Values of `SecurityType` (167), STRING.
/// #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
/// pub enum SecurityType<'a> { CommonStock, Future, Other(&'a [u8]) }
/// fix_core::typed::bytes_enum!(SecurityType { CommonStock = b"CS", Future = b"FUT" }, integer = false);
/// assert_eq!(SecurityType::from_bytes(b"FUT"), Ok(SecurityType::Future));
/// assert_eq!(SecurityType::from_bytes(b"XX"), Ok(SecurityType::Other(b"XX")));
/// assert_eq!(SecurityType::CommonStock.as_bytes(), b"CS");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_bytes_enum {
    ($name:ident { $($var:ident = $b:literal),* $(,)? }, integer = $int:literal $(,)?) => {
        impl<'a> $name<'a> {
            /// Decodes wire bytes (a compiled `match`).
            #[inline]
            pub fn from_bytes(bytes: &'a [u8]) -> ::core::result::Result<Self, $crate::typed::EnumError> {
                Ok(match bytes {
                    $($b => Self::$var,)*
                    _ => Self::Other($crate::typed::check_other(bytes, $int)?),
                })
            }
            /// The wire bytes.
            #[inline]
            pub fn as_bytes(&self) -> &'a [u8] {
                match self {
                    $(Self::$var => $b,)*
                    Self::Other(b) => b,
                }
            }
        }
        impl<'a> $crate::value::FieldValue<'a> for $name<'a> {
            type Error = $crate::typed::EnumError;
            #[inline]
            fn parse_fix(bytes: &'a [u8]) -> ::core::result::Result<Self, $crate::typed::EnumError> {
                Self::from_bytes(bytes)
            }
            #[inline]
            fn write_fix(&self, out: &mut [u8]) -> ::core::result::Result<usize, $crate::value::BufferTooSmall> {
                $crate::typed::write_bytes(self.as_bytes(), out)
            }
        }
    };
}

/// The streaming walk of a group's entries (`t::Walk`): the entry view `entry`
/// implements `t::WalkEntry` with the group table `table`, decoding each tag into
/// the variant of the enum `field` (written out with one variant per tag the entry
/// holds, each carrying a `t::Value`, the bytes of a DATA field or a nested group's
/// `t::Walk`) that the table names; the first is the delimiter. The enum gets
/// `tag` and `starts_entry`, and a `Clone` written out (see [`build!`]).
///
/// ```
/// use fix_core::typed::{self as t, Group, Level, Value, Walk};
/// use fix_core::value::FixStr;
///
/// static NO_PARTY_IDS: Group = Group { name: "NoPartyIDs", counter: 453, delimiter: 448,
///     entry: Level { tags: &[448, 452], by_tag: &[0, 1], required: &[], groups: &[], index: &[] } };
/// t::entry!(Party, slots = 2, group = "NoPartyIDs", tag = 453);
/// #[derive(Copy, Debug)]
/// pub enum PartyField<'a> {
///     PartyId(Value<'a, FixStr<'a>, 448>),
///     PartyRole(Value<'a, i64, 452>),
/// }
/// t::walk!(Party => PartyField, table = NO_PARTY_IDS, { PartyId = 448, PartyRole = 452 });
///
/// let bytes = b"8=FIX.4.4\x019=29\x0135=D\x01453=2\x01448=A\x01452=3\x01448=B\x0110=068\x01";
/// let mut fields = fix_core::Fields::<16>::new();
/// let msg = fix_core::Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// let tags: Vec<_> = Walk::<Party>::after(&msg, 3).map(|f| (f.tag(), f.starts_entry())).collect();
/// assert_eq!(tags, [(448, true), (452, false), (448, true)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_walk {
    (
        $entry:ident => $field:ident, table = $($g:ident)::+,
        { $first:ident = $ftag:literal $(, $var:ident = $tag:literal)* $(,)? } $(,)?
    ) => {
        impl<'a> $crate::typed::WalkEntry<'a> for $entry<'a> {
            const GROUP: &'static $crate::typed::Group = &$($g)::+;
            type Field = $field<'a>;
            #[inline]
            fn field(
                cursor: &mut $crate::typed::Cursor<'a>,
                tag: u32,
            ) -> ::core::option::Option<$field<'a>> {
                ::core::option::Option::Some(match tag {
                    $ftag => $field::$first(cursor.take()),
                    $($tag => $field::$var(cursor.take()),)*
                    _ => return ::core::option::Option::None,
                })
            }
        }
        impl ::core::clone::Clone for $field<'_> {
            #[inline]
            fn clone(&self) -> Self {
                *self
            }
        }
        impl $field<'_> {
            /// The field's tag.
            #[inline]
            pub const fn tag(&self) -> u32 {
                match self {
                    Self::$first(_) => $ftag,
                    $(Self::$var(_) => $tag,)*
                }
            }
            /// Whether the field starts an entry: it is the group's delimiter, the
            /// first field of every entry.
            #[inline]
            pub const fn starts_entry(&self) -> bool {
                matches!(self, Self::$first(_))
            }
        }
    };
}
