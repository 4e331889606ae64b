//! Validation of parsed messages against a data dictionary, with the
//! SessionRejectReason, RefTagID and text a Reject carries.
//!
//! [`Validator`] walks a [`Message`](crate::Message) against any [`Dictionary`]:
//! the const tables generated for a dictionary crate, or a dictionary loaded at run
//! time. It allocates nothing.

mod dictionary;
mod reject;
mod validator;

pub use dictionary::{Dictionary, FieldInfo, FieldType, Group, Layout, Member, byte_set_contains};
pub use reject::{Reject, SessionRejectReason};
pub use validator::{ShapeCache, USER_DEFINED_MIN, Validator};
