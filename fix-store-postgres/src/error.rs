//! The server's own words in the store's errors. tokio-postgres shows a
//! failed request as `db error` and keeps the server's message in the
//! error's source, where a log line never reaches: the store's errors say
//! the message itself (`role "fix" does not exist`), on one line.

use std::error::Error;
use std::fmt;

/// A boxed error as the store keeps it.
pub(crate) type Boxed = Box<dyn Error + Send + Sync>;

/// A client error shown in one line, the original kept as its source.
#[derive(Debug)]
struct Plain {
    text: String,
    source: Boxed,
}

impl fmt::Display for Plain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Error for Plain {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&*self.source)
    }
}

/// `source`, displayed as [`describe`] tells it.
pub(crate) fn plain(source: Boxed) -> Boxed {
    if source.is::<Plain>() {
        return source;
    }
    let text = describe(&*source);
    Box::new(Plain { text, source })
}

/// One line for `e`: the server's message (`DbError::message`) when the
/// server refused something, else each error of the chain after the other
/// (`error connecting to server: No such file or directory (os error 2)`).
pub(crate) fn describe(e: &(dyn Error + 'static)) -> String {
    let mut parts = Vec::new();
    let mut next = Some(e);
    while let Some(e) = next {
        let db = e
            .downcast_ref::<tokio_postgres::Error>()
            .and_then(tokio_postgres::Error::as_db_error)
            .or_else(|| e.downcast_ref::<tokio_postgres::error::DbError>());
        if let Some(db) = db {
            parts.push(db.message().to_owned());
            break;
        }
        if let Some(plain) = e.downcast_ref::<Plain>() {
            parts.push(plain.text.clone());
            break;
        }
        parts.push(e.to_string());
        next = e.source();
    }
    parts.join(": ").replace('\n', " ")
}
