//! The acceptance suite's application, as QuickFIX's test application behaves.

use std::collections::HashSet;

use fix_core::Message;
use fix_dict::Dictionary;
use fix_session::{AppReject, Application, Outbox, is_header_or_trailer};

/// Sends every NewOrderSingle and SecurityDefinition back with its body:
/// top-level fields and whole groups in ascending tag order (QuickFIX's field maps
/// are sorted by tag; a group's entries keep their order). Other application
/// messages get a BusinessMessageReject, as from QuickFIX's test application.
/// As there, the echo keeps PossResend (97=Y), and a PossResend order whose
/// ClOrdID the session has seen is ignored. One per session.
#[derive(Debug)]
pub struct Echo<'d> {
    /// The session's application dictionary (for its groups).
    dict: &'d Dictionary,
    /// The ClOrdIDs of the orders seen.
    orders: HashSet<Vec<u8>>,
}

impl<'d> Echo<'d> {
    pub fn new(dict: &'d Dictionary) -> Self {
        Echo {
            dict,
            orders: HashSet::new(),
        }
    }
}

impl Application for Echo<'_> {
    fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        if !matches!(msg.msg_type(), b"D" | b"d") {
            return Err(AppReject::Business {
                reason: 3,
                ref_tag: None,
                text: "Unsupported Message Type".into(),
            });
        }
        let poss_resend = msg.get(97) == Some(b"Y");
        if let Some(id) = msg.get(11) {
            let fresh = self.orders.insert(id.to_vec());
            if poss_resend && !fresh {
                return Ok(());
            }
        }
        let body: Vec<(u32, &[u8])> = msg
            .iter()
            .filter(|(t, _)| !is_header_or_trailer(*t))
            .collect();
        let layout = self.dict.message(msg.msg_type()).map(|m| m.layout());
        // Items: a field, or a group counter with every field of its entries.
        let mut items: Vec<&[(u32, &[u8])]> = Vec::new();
        let mut i = 0;
        while i < body.len() {
            let start = i;
            i += 1;
            if let Some(group) = layout.and_then(|l| l.group(body[start].0)) {
                while i < body.len() && in_group(&group.entry, body[i].0) {
                    i += 1;
                }
            }
            items.push(&body[start..i]);
        }
        items.sort_by_key(|item| item[0].0);
        out.send_fields(msg.msg_type(), items.into_iter().flatten().copied());
        if poss_resend {
            out.set_poss_resend();
        }
        Ok(())
    }
}

fn in_group(entry: &fix_dict::Layout, tag: u32) -> bool {
    entry.contains(tag) || entry.groups().iter().any(|g| in_group(&g.entry, tag))
}
