//! QuickFIX/J's `LogonTag`: fields the settings add to every Logon the
//! session sends, through the application's `to_admin`, which this wraps.

use fix_core::Message;
use fix_session::{AppReject, Application, Outbox, Refusal, SessionId};

/// The application, with the settings' Logon fields added before its own.
pub(crate) struct LogonTags {
    pub(crate) inner: Box<dyn Application + Send>,
    /// (tag, value), in the order of the settings' numbers.
    pub(crate) fields: Vec<(u32, String)>,
}

impl LogonTags {
    /// `app`, wrapped when `fields` has any.
    pub(crate) fn wrap(
        app: Box<dyn Application + Send>,
        fields: &[(u32, String)],
    ) -> Box<dyn Application + Send> {
        if fields.is_empty() {
            app
        } else {
            Box::new(LogonTags {
                inner: app,
                fields: fields.to_vec(),
            })
        }
    }
}

// `from_admin`/`from_app` are QuickFIX's names (see fix-session's trait).
#[allow(clippy::wrong_self_convention)]
impl Application for LogonTags {
    fn on_create(&mut self, id: &SessionId) {
        self.inner.on_create(id);
    }
    fn on_logon(&mut self, id: &SessionId) {
        self.inner.on_logon(id);
    }
    fn on_logout(&mut self, id: &SessionId) {
        self.inner.on_logout(id);
    }
    fn to_admin(&mut self, msg_type: &[u8], extra: &mut Outbox) {
        if msg_type == b"A" {
            for (tag, value) in &self.fields {
                extra.field(*tag, value.as_bytes());
            }
        }
        self.inner.to_admin(msg_type, extra);
    }
    fn from_admin(&mut self, msg: &Message<'_>) -> Result<(), Refusal> {
        self.inner.from_admin(msg)
    }
    fn to_app(&mut self, msg: &Message<'_>, resend: bool) -> bool {
        self.inner.to_app(msg, resend)
    }
    fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        self.inner.from_app(msg, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Plain;
    impl Application for Plain {
        fn to_admin(&mut self, msg_type: &[u8], extra: &mut Outbox) {
            if msg_type == b"A" {
                extra.field(554, b"secret");
            }
        }
    }

    #[test]
    fn a_logon_gets_the_fields_before_the_applications() {
        let fields = vec![(553, "user".to_owned()), (925, "new".to_owned())];
        let mut app = LogonTags::wrap(Box::new(Plain), &fields);
        let mut extra = Outbox::default();
        app.to_admin(b"A", &mut extra);
        assert_eq!(
            extra.extra_fields(),
            b"553=user\x01925=new\x01554=secret\x01"
        );
        let mut heartbeat = Outbox::default();
        app.to_admin(b"0", &mut heartbeat);
        assert!(heartbeat.is_empty());
    }
}
