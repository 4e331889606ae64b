//! ident
