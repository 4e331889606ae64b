//! Validation of parsed messages against a data dictionary, with the
//! SessionRejectReason, RefTagID and text a Reject carries.
//!
//! [`Validator`] walks a [`Message`](crate::Message) against any [`Schema`]:
//! the const tables generated for a dictionary crate, or a dictionary loaded at run
//! time. It allocates nothing.

mod dense;
mod reject;
mod schema;
mod validator;

pub use dense::{DENSE_SLOTS, Dense, SlotSets};
pub use reject::{Echo, Invalid, Reject, SessionRejectReason};
pub use schema::{
    FieldInfo, Group, Layout, Member, Schema, ValueFormat, byte_set_contains, value_listed,
};
pub use validator::{ShapeCache, USER_DEFINED_MIN, Validator};
