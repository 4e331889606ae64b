//! The run-time half of generated dictionary crates: const tables and the generic
//! views over them.
//!
//! `fix-codegen` turns a QuickFIX XML dictionary into plain declarations — a
//! [`Level`] per message and per group entry, a [`Group`] per repeating group, a
//! [`MessageDef`] per message, a [`Tables`] tying them together — and thin typed
//! wrappers around [`View`], [`Block`] and [`Entries`], and per group entry an enum
//! of its fields that a streaming [`Walk`] hands over. All logic lives here, once.
//!
//! # Slots
//!
//! A [`Level`] lists the tags of one level (a message's header, body and trailer
//! with components expanded in place, or one group entry) in dictionary order: tag
//! number `i` is *slot* `i`. A component therefore occupies a contiguous run of
//! slots, which is what lets one generated component view type serve every message
//! that includes it ([`Block::sub`]).
//!
//! [`View::new`] walks the message's fields once and records, for every slot, the
//! index of the field that filled it. After that every getter is one array load:
//! `O(1)`. A whole message's view ([`View::of_message`]) skips the walk when its
//! [`MessageDef::slot_of`] table exists (a tag-indexed table of slots, built at
//! compile time): each field is one load of its slot and one store. A group counter's slot points at the counter; the group's entries are
//! found by walking the fields after it with the group's [`Group`] table (delimiter
//! and member tags), and are skipped by the walk of the enclosing level.
//!
//! # Streaming walks
//!
//! A [`Walk`] reads a group's entries without slots: each field once, in wire
//! order, decoded by the entry's generated [`WalkEntry::field`] (a `match` on the
//! tag) into a variant carrying a [`Value`] (parsed on [`Value::get`]), the bytes
//! of a DATA field, or a nested group's own `Walk`. It starts from a view's
//! [`Entries::walk`], or straight from a parsed message through the generated
//! message's `walk` ([`Walk::in_message`]), and ends where the views' entries end.
//!
//! # Errors
//!
//! Getters return [`FieldError`]: `Missing` for an absent required field,
//! `Invalid` for a value that does not parse as the field's type. Optional fields
//! give `Ok(None)` when absent. Structural problems (a field in the wrong place, a
//! group count that does not match) are validation's concern: views read what is
//! there, first occurrence wins, and never panic.
//!
//! ```
//! use fix_core::typed::{Level, View};
//! use fix_core::value::FixStr;
//! use fix_core::{Fields, Parser};
//!
//! // A level with header tags 8, 9, 35, body tags 11 and 58, trailer tag 10.
//! static LEVEL: Level = Level {
//!     tags: &[8, 9, 35, 11, 58, 10],
//!     by_tag: &[0, 1, 5, 3, 2, 4],
//!     required: &[0, 1, 2, 3, 5],
//!     groups: &[],
//!     index: &[],
//! };
//!
//! let bytes = b"8=FIX.4.4\x019=13\x0135=D\x0111=ORD1\x0110=156\x01";
//! let mut fields = Fields::<16>::new();
//! let msg = Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
//! let view = View::<6>::new(msg, &LEVEL);
//! let body = view.block();
//! assert_eq!(body.req::<FixStr>(3, 11).unwrap().as_bytes(), b"ORD1");
//! assert_eq!(body.get::<FixStr>(4, 58), Ok(None));
//! # Ok::<(), fix_core::Error>(())
//! ```

mod build;
mod dispatch;
mod enums;
mod errors;
mod index;
mod macros;
mod schema;
mod stream;
mod tables;
mod view;
mod walk;

pub use crate::FieldType;
pub use crate::validate::SlotSets;
pub use build::{
    AppHeader, Build, MessageBody, SESSION_TAGS, WithHeader, put, put_component, put_data,
    put_group, required, required_entries,
};
pub use dispatch::{ApplVersion, Crack, Unsupported};
pub use enums::{byte_str, byte_table, check_other, decode_char, parse_char, write_bytes};
pub use errors::{EnumError, FieldError};
pub use index::{
    DISJOINT_BIT, GROUP_BIT, INDEX_SLOT_LIMIT, INDEX_TAG_LIMIT, Slots, fill_hash_index, hash_index,
    hash_tag,
};
pub use stream::{Cursor, Take, Value, Walk, WalkEntry};
pub use tables::{
    FieldDef, Group, Level, MessageDef, Tables, field_checks, field_index, msg_type_index,
    slot_sets, slot_table, view_groups,
};
pub use view::{ABSENT, Block, Entries, Opt, Req, View, view_capacity};

#[doc(inline)]
pub use crate::__fix_app_header as app_header;
#[doc(inline)]
pub use crate::__fix_block as block;
#[doc(inline)]
pub use crate::__fix_build as build;
#[doc(inline)]
pub use crate::__fix_bytes_enum as bytes_enum;
#[doc(inline)]
pub use crate::__fix_char_enum as char_enum;
#[doc(inline)]
pub use crate::__fix_entry as entry;
#[doc(inline)]
pub use crate::__fix_message as message;
#[doc(inline)]
pub use crate::__fix_walk as walk;
