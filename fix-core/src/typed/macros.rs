//! The declarative macros generated code invokes (exported at the crate root as
//! `__fix_*` and re-exported under `typed`).

#[cfg(doc)]
use super::{Build, builder, view};

// ----- Declarative macros for generated code ------------------------------------
//
// `fix-codegen` writes one short invocation per view, builder, enum and tag list;
// the expansion (structs, getters, `From`, `Build`, enum decoding) is written once
// here. Docs of generated items are assembled from the FIX name, tag and type the
// invocation carries. The macros are exported under `typed` (`t::view!`, ...); the
// `__fix_*` names are their helpers.

/// A read view for generated code: a component (`block`), a group entry
/// (`entry`) or a message (`message`), with one getter per member.
///
/// Members: `opt`/`req name(slot, tag, "FixName", TYPE, RustType)` for fields,
/// `data`/`req_data name(slot, tag, "FixName", TYPE)` for DATA fields,
/// `group`/`req_group name(slot, counter, "FixName", EntryType, entry_len, TABLE)`
/// for repeating groups and `comp`/`req_comp name(slot, len, "FixName",
/// ComponentType)` for components.
///
/// ```
/// use fix_core::typed::{self as t, Level, View};
/// use fix_core::value::FixStr;
/// use fix_core::{Fields, Parser};
///
/// t::view! {
///     /// Two fields of an order.
///     block Order {
///         req cl_ord_id(0, 11, "ClOrdID", STRING, FixStr<'a>);
///         opt text(1, 58, "Text", STRING, FixStr<'a>);
///     }
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
macro_rules! __fix_view {
    (
        $(#[$m:meta])*
        block $name:ident { $($kind:ident $get:ident($($a:tt)*);)* }
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name<'v, 'a>(pub $crate::typed::Block<'v, 'a>);
        impl<'v, 'a> $name<'v, 'a> {
            $($crate::__fix_getter! { 'v $kind $get $($a)* })*
        }
    };
    (
        $(#[$m:meta])*
        entry $name:ident[$n:literal] { $($kind:ident $get:ident($($a:tt)*);)* }
    ) => {
        $(#[$m])*
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
            $($crate::__fix_getter! { '_ $kind $get $($a)* })*
        }
    };
    (
        $(#[$m:meta])*
        message $name:ident[$n:literal] = $def:ident($mt:literal, $h:literal, $t:literal, $tl:literal)
        $(builder $bty:ident($($arg:ident: $aty:ty),*))?
        { $($kind:ident $get:ident($($a:tt)*);)* }
    ) => {
        $crate::__fix_view! {
            $(#[$m])*
            entry $name[$n] { $($kind $get($($a)*);)* }
        }
        impl<'a> $name<'a> {
            /// MsgType (35).
            pub const MSG_TYPE: &'static [u8] = $mt;
            /// The slot table.
            pub const DEF: &'static $crate::typed::MessageDef = &$def;
            /// Reads `msg` (one pass over its fields). Does not check MsgType: see
            /// [`Message::new`](super::Message::new).
            #[inline]
            pub fn new(msg: $crate::Message<'a>) -> Self {
                Self($crate::typed::View::new(msg, &$def.view))
            }
            /// The standard header.
            #[inline]
            pub fn header(&self) -> super::components::Header<'_, 'a> {
                super::components::Header(self.0.sub(0, $h))
            }
            /// The standard trailer.
            #[inline]
            pub fn trailer(&self) -> super::components::Trailer<'_, 'a> {
                super::components::Trailer(self.0.sub($t, $tl))
            }
            $(
                /// A builder, with the required body fields.
                #[inline]
                pub fn builder<'b>($($arg: $aty),*) -> $bty<'b> {
                    $bty::new($($arg),*)
                }
            )?
        }
    };
}

/// One getter of [`view!`]'s views.
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_getter {
    ($lt:lifetime opt $get:ident $slot:literal, $tag:literal, $fix:literal, $ty:ident, $t:ty) => {
        #[doc = concat!("`", $fix, "` (", $tag, "), ", stringify!($ty), ".")]
        #[inline]
        pub fn $get(&self) -> $crate::typed::Opt<$t> {
            self.0.get($slot, $tag)
        }
    };
    ($lt:lifetime req $get:ident $slot:literal, $tag:literal, $fix:literal, $ty:ident, $t:ty) => {
        #[doc = concat!("`", $fix, "` (", $tag, "), ", stringify!($ty), ", required.")]
        #[inline]
        pub fn $get(&self) -> $crate::typed::Req<$t> {
            self.0.req($slot, $tag)
        }
    };
    ($lt:lifetime data $get:ident $slot:literal, $tag:literal, $fix:literal, $ty:ident) => {
        #[doc = concat!("`", $fix, "` (", $tag, "), ", stringify!($ty), ".")]
        #[inline]
        pub fn $get(&self) -> ::core::option::Option<&'a [u8]> {
            self.0.data($slot)
        }
    };
    ($lt:lifetime req_data $get:ident $slot:literal, $tag:literal, $fix:literal, $ty:ident) => {
        #[doc = concat!("`", $fix, "` (", $tag, "), ", stringify!($ty), ", required.")]
        #[inline]
        pub fn $get(&self) -> $crate::typed::Req<&'a [u8]> {
            self.0.req_data($slot, $tag)
        }
    };
    ($lt:lifetime group $get:ident $slot:literal, $tag:literal, $fix:literal, $($e:ident)::+, $n:literal, $($g:ident)::+) => {
        #[doc = concat!("The `", $fix, "` (", $tag, ") repeating group: its entries in wire order.")]
        #[inline]
        pub fn $get(&self) -> $crate::typed::Entries<'a, $($e)::+<'a>, $n> {
            self.0.group($slot, &$($g)::+)
        }
    };
    ($lt:lifetime req_group $get:ident $slot:literal, $tag:literal, $fix:literal, $($e:ident)::+, $n:literal, $($g:ident)::+) => {
        #[doc = concat!("The `", $fix, "` (", $tag, ") repeating group, required: its entries in wire order.")]
        #[inline]
        pub fn $get(&self) -> $crate::typed::Entries<'a, $($e)::+<'a>, $n> {
            self.0.group($slot, &$($g)::+)
        }
    };
    ($lt:lifetime comp $get:ident $slot:literal, $len:literal, $fix:literal, $($c:ident)::+) => {
        #[doc = concat!("The `", $fix, "` component.")]
        #[inline]
        pub fn $get(&self) -> $($c)::+<$lt, 'a> {
            $($c)::+(self.0.sub($slot, $len))
        }
    };
    ($lt:lifetime req_comp $get:ident $slot:literal, $len:literal, $fix:literal, $($c:ident)::+) => {
        #[doc = concat!("The `", $fix, "` component (required).")]
        #[inline]
        pub fn $get(&self) -> $($c)::+<$lt, 'a> {
            $($c)::+(self.0.sub($slot, $len))
        }
    };
}

/// A builder for generated code: a struct of public fields with `Default`, a `new`
/// taking the required fields, [`Build`], and for a message (`message b"MsgType"`)
/// an `encode` after the standard header.
///
/// Fields: `name: Type = kind(..)` with kind `opt`/`req(tag, "FixName", TYPE)`,
/// `data`/`req_data(length_tag, tag, "FixName", TYPE)`, `group(counter,
/// "FixName")`, `comp("FixName")`, or `phantom()` (ties the lifetime).
///
/// ```
/// use fix_core::typed::{self as t, Build};
/// use fix_core::value::FixStr;
///
/// t::builder! {
///     /// Builds a party.
///     PartyBuilder(party_id: FixStr<'b>) {
///         party_id: Option<FixStr<'b>> = req(448, "PartyID", STRING);
///         party_role: Option<i64> = opt(452, "PartyRole", INT);
///     }
/// }
/// let party = PartyBuilder { party_role: Some(3), ..PartyBuilder::new(FixStr::parse(b"P1").unwrap()) };
/// let mut buf = [0u8; 64];
/// let mut enc = fix_core::Encoder::new(&mut buf, b"FIX.4.4", b"D");
/// party.write(&mut enc)?;
/// assert!(enc.finish()?.windows(13).any(|w| w == b"448=P1\x01452=3\x01"));
/// # Ok::<(), fix_core::EncodeError>(())
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_builder {
    (
        $(#[$m:meta])*
        $name:ident($($arg:ident: $aty:ty),*) $(message $mt:literal)? {
            $($f:ident: $fty:ty = $kind:ident($($a:tt)*);)*
        }
    ) => {
        $(#[$m])*
        #[derive(Copy, Debug, Default)]
        pub struct $name<'b> {
            $(
                #[doc = $crate::__fix_builder_doc!($kind $($a)*)]
                pub $f: $fty,
            )*
        }
        impl ::core::clone::Clone for $name<'_> {
            #[inline]
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<'b> $name<'b> {
            /// A builder with the required fields set.
            #[inline]
            pub fn new($($arg: $aty),*) -> Self {
                Self {
                    $($arg: ::core::option::Option::Some($arg),)*
                    ..::core::default::Default::default()
                }
            }
            $(
                /// Encodes the message into `buf`: header (8, 9, 35, then the header
                /// fields in ascending tag order), body, CheckSum.
                #[inline]
                pub fn encode<'o>(
                    &self,
                    header: &super::components::HeaderBuilder<'_>,
                    buf: &'o mut [u8],
                ) -> ::core::result::Result<&'o [u8], $crate::EncodeError> {
                    let mut enc = header.start(buf, $mt)?;
                    $crate::typed::Build::write(self, &mut enc)?;
                    enc.finish()
                }
            )?
        }
        impl $crate::typed::Build for $name<'_> {
            #[inline]
            fn write(
                &self,
                enc: &mut $crate::Encoder<'_>,
            ) -> ::core::result::Result<(), $crate::EncodeError> {
                $($crate::__fix_put!(enc, self.$f, $kind $($a)*);)*
                let _ = enc;
                Ok(())
            }
        }
    };
}

/// The doc of one [`builder!`] field.
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_builder_doc {
    (opt $tag:literal, $fix:literal, $ty:ident) => {
        concat!(" `", $fix, "` (", $tag, "), ", stringify!($ty), ".")
    };
    (req $tag:literal, $fix:literal, $ty:ident) => {
        concat!(
            " `",
            $fix,
            "` (",
            $tag,
            "), ",
            stringify!($ty),
            ", required."
        )
    };
    (data $len:literal, $tag:literal, $fix:literal, $ty:ident) => {
        concat!(" `", $fix, "` (", $tag, "), ", stringify!($ty), ".")
    };
    (req_data $len:literal, $tag:literal, $fix:literal, $ty:ident) => {
        concat!(
            " `",
            $fix,
            "` (",
            $tag,
            "), ",
            stringify!($ty),
            ", required."
        )
    };
    (group $tag:literal, $fix:literal) => {
        concat!(" The `", $fix, "` (", $tag, ") group's entries.")
    };
    (comp $fix:literal) => {
        concat!(" The `", $fix, "` component.")
    };
    (phantom) => {
        " Ties the builder's lifetime (leave it `Default`)."
    };
}

/// One write of [`builder!`]'s `Build::write`.
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_put {
    ($enc:ident, $v:expr, opt $tag:literal, $($rest:tt)*) => {
        $crate::typed::put($enc, $tag, &$v)?
    };
    ($enc:ident, $v:expr, req $tag:literal, $($rest:tt)*) => {
        $crate::typed::put($enc, $tag, &$v)?
    };
    ($enc:ident, $v:expr, data $len:literal, $tag:literal, $($rest:tt)*) => {
        $crate::typed::put_data($enc, $len, $tag, $v)?
    };
    ($enc:ident, $v:expr, req_data $len:literal, $tag:literal, $($rest:tt)*) => {
        $crate::typed::put_data($enc, $len, $tag, $v)?
    };
    ($enc:ident, $v:expr, group $tag:literal, $($rest:tt)*) => {
        $crate::typed::put_group($enc, $tag, $v)?
    };
    ($enc:ident, $v:expr, comp $($rest:tt)*) => {
        $crate::typed::put_component($enc, &$v)?
    };
    ($enc:ident, $v:expr, phantom) => {
        ()
    };
}

/// A CHAR enum for generated code: variants with their byte, an `Other(u8)` for
/// unlisted values, `O(1)` decoding through a 256-byte table.
///
/// ```
/// fix_core::typed::char_enum! {
///     /// Values of `Side` (54), CHAR.
///     Side {
///         /// `1`: BUY.
///         Buy = b'1',
///         /// `2`: SELL.
///         Sell = b'2',
///     }
/// }
/// assert_eq!(Side::from_bytes(b"2"), Ok(Side::Sell));
/// assert_eq!(Side::from_bytes(b"7"), Ok(Side::Other(b'7')));
/// assert_eq!(Side::Buy.as_bytes(), b"1");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_char_enum {
    (
        $(#[$m:meta])*
        $name:ident { $($(#[$vm:meta])* $var:ident = $b:literal,)* }
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $var,)*
            /// A value the dictionary does not list.
            Other(u8),
        }
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

/// An enum of multi-byte values for generated code: variants with their wire
/// bytes, `Other(&[u8])` for unlisted values (checked as an integer when the first
/// argument is `true`), decoding through a compiled `match`.
///
/// ```
/// fix_core::typed::bytes_enum! {
///     /// Values of `SecurityType` (167), STRING.
///     SecurityType(false) {
///         /// `CS`: COMMON_STOCK.
///         CommonStock = b"CS",
///         /// `FUT`: FUTURE.
///         Future = b"FUT",
///     }
/// }
/// assert_eq!(SecurityType::from_bytes(b"FUT"), Ok(SecurityType::Future));
/// assert_eq!(SecurityType::from_bytes(b"XX"), Ok(SecurityType::Other(b"XX")));
/// assert_eq!(SecurityType::CommonStock.as_bytes(), b"CS");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_bytes_enum {
    (
        $(#[$m:meta])*
        $name:ident($int:literal) { $($(#[$vm:meta])* $var:ident = $b:literal,)* }
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name<'a> {
            $($(#[$vm])* $var,)*
            /// A value the dictionary does not list.
            Other(&'a [u8]),
        }
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

/// Tag constants for generated code, each documented with the field's FIX name,
/// tag, type and the Rust type its getters return.
///
/// ```
/// fix_core::typed::tags! {
///     CL_ORD_ID = 11, "ClOrdID", STRING, "FixStr<'a>";
///     SIDE = 54, "Side", CHAR, "enums::Side";
/// }
/// assert_eq!((CL_ORD_ID, SIDE), (11, 54));
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_tags {
    ($($konst:ident = $tag:literal, $fix:literal, $ty:ident, $rt:literal;)*) => {
        $(
            #[doc = concat!("`", $fix, "` (", $tag, "), ", stringify!($ty), ": getters return `", $rt, "`.")]
            pub const $konst: u32 = $tag;
        )*
    };
}
