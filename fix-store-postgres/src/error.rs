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

#[cfg(test)]
mod tests {
    use super::*;

    /// An error with a cause, shown without it, as tokio-postgres's are.
    #[derive(Debug)]
    struct Outer(std::io::Error);

    impl fmt::Display for Outer {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("error connecting to server")
        }
    }

    impl Error for Outer {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn a_chain_is_one_line_and_plain_is_not_wrapped_twice() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no socket\nhere");
        let once = plain(Box::new(Outer(io)));
        assert_eq!(
            once.to_string(),
            "error connecting to server: no socket here"
        );
        assert!(once.source().is_some(), "the original is kept");
        let twice = plain(once);
        assert_eq!(
            twice.to_string(),
            "error connecting to server: no socket here"
        );
        assert!(twice.source().unwrap().is::<Outer>());
    }
}
