//! What a generated `Handler` (one method per application message, as
//! QuickFIX's MessageCracker) needs from the session layer: [`Unsupported`],
//! its answer to a message it does not handle, and [`Crack`], the dispatch a
//! session calls.

use crate::Message;

/// How a handler refuses a message type it does not handle: QuickFIX answers
/// with a BusinessMessageReject whose BusinessRejectReason is 3
/// (UnsupportedMessageType). A generated `Handler`'s default methods return it.
///
/// ```
/// use fix_core::typed::Unsupported;
/// #[derive(Debug, PartialEq)]
/// struct Reject { reason: u32 }
/// impl Unsupported for Reject {
///     fn unsupported(_msg: &fix_core::Message<'_>) -> Self { Reject { reason: 3 } }
/// }
/// let mut fields = fix_core::Fields::<8>::new();
/// let bytes = b"8=FIX.4.4\x019=5\x0135=0\x0110=163\x01";
/// let msg = fix_core::Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// assert_eq!(Reject::unsupported(&msg), Reject { reason: 3 });
/// # Ok::<(), fix_core::Error>(())
/// ```
pub trait Unsupported {
    /// The refusal of `msg`, whose type the handler does not handle.
    fn unsupported(msg: &Message<'_>) -> Self;
}

/// A typed application's entry point: reads `msg` as its dictionary's type for
/// its MsgType and calls the handler's method for it, which may queue answers
/// in `out`. A generated crate's `Cracker` implements it for any of its
/// `Handler`s; the session layer makes every `Crack` an application.
///
/// ```
/// use fix_core::typed::Crack;
/// struct Count(u32);
/// impl Crack<Vec<u8>, ()> for Count {
///     fn crack(&mut self, msg: &fix_core::Message<'_>, out: &mut Vec<u8>) -> Result<(), ()> {
///         self.0 += 1;
///         out.extend_from_slice(msg.msg_type());
///         Ok(())
///     }
/// }
/// let mut fields = fix_core::Fields::<8>::new();
/// let bytes = b"8=FIX.4.4\x019=5\x0135=0\x0110=163\x01";
/// let msg = fix_core::Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// let mut out = Vec::new();
/// Count(0).crack(&msg, &mut out).unwrap();
/// assert_eq!(out, b"0");
/// # Ok::<(), fix_core::Error>(())
/// ```
pub trait Crack<O: ?Sized, R> {
    /// Dispatches `msg` on its MsgType.
    fn crack(&mut self, msg: &Message<'_>, out: &mut O) -> Result<(), R>;
}

/// The application version a dispatch reads, for FIXT.1.1, whose application
/// messages say their version by ApplVerID (1128) or the session's
/// DefaultApplVerID (1137): a crate generated for FIX 5.0 or later implements it
/// for its `Cracker`, so that a session picks that crate for the messages of its
/// version (fix-session's `ByApplVerId`).
///
/// ```
/// use fix_core::typed::ApplVersion;
/// struct Fix50Sp2;
/// impl ApplVersion for Fix50Sp2 {
///     const APPL_VER_ID: &'static [u8] = b"9";
/// }
/// assert_eq!(Fix50Sp2::APPL_VER_ID, b"9");
/// ```
pub trait ApplVersion {
    /// The ApplVerID code of the messages this dispatch reads (`b"9"`:
    /// FIX.5.0SP2).
    const APPL_VER_ID: &'static [u8];
}
