//! FIXT.1.1's typed dispatch by application version: [`ByApplVerId`] hands an
//! application message to the generated crate of its ApplVerID (1128), or else
//! of the session's DefaultApplVerID, as QuickFIX's `MessageCracker` picks the
//! cracker of a FIXT.1.1 message's version.

use fix_core::Message;
use fix_core::typed::{ApplVersion, Crack, Unsupported};

use crate::{AppReject, Outbox};

/// The dispatches of a FIXT.1.1 session by ApplVerID: a generated crate's
/// `Cracker` for each application version the application reads (a crate
/// generated for FIX 5.0 or later says its version, [`ApplVersion`]), tried in
/// turn, the one added last first; statically dispatched, a comparison of the
/// code per crate.
///
/// An application message goes to the crate of its ApplVerID (1128), or else
/// of the session's DefaultApplVerID ([`Outbox::default_appl_ver_id`]: the
/// counterparty's Logon's, else the session setting). A version no crate is
/// given for, or a message with neither, is refused as QuickFIX's cracker of
/// that version refuses a message its application does not handle: a
/// BusinessMessageReject with BusinessRejectReason 3 (UnsupportedMessageType).
/// A `ByApplVerId` is an [`Application`](crate::Application), as every
/// [`Crack`] is.
///
/// ```
/// use fix_core::typed::{ApplVersion, Crack};
/// use fix_session::{AppReject, ByApplVerId, Outbox};
///
/// /// Counts what it is given; stands for a generated crate's `Cracker`.
/// struct Counter<const V: u8>(u32);
/// impl<const V: u8> ApplVersion for Counter<V> {
///     const APPL_VER_ID: &'static [u8] = &[V];
/// }
/// impl<const V: u8> Crack<Outbox, AppReject> for Counter<V> {
///     fn crack(&mut self, _: &fix_core::Message<'_>, _: &mut Outbox) -> Result<(), AppReject> {
///         self.0 += 1;
///         Ok(())
///     }
/// }
/// let mut app = ByApplVerId::new(Counter::<b'9'>(0)).or(Counter::<b'8'>(0));
/// let mut fields = fix_core::Fields::<16>::new();
/// let sp1 = b"8=FIXT.1.1\x019=20\x0135=D\x011128=8\x0111=ORD1\x0110=042\x01";
/// let msg = fix_core::Parser::new().parse(sp1, &mut fields)?.complete().unwrap();
/// app.crack(&msg, &mut Outbox::default()).unwrap();
/// assert_eq!((app.crack.0, app.rest.crack.0), (1, 0));
/// // FIX.5.0 (7): no crate for it.
/// let fix50 = b"8=FIXT.1.1\x019=20\x0135=D\x011128=7\x0111=ORD1\x0110=041\x01";
/// let msg = fix_core::Parser::new().parse(fix50, &mut fields)?.complete().unwrap();
/// let refused = app.crack(&msg, &mut Outbox::default()).unwrap_err();
/// assert!(matches!(refused, AppReject::Business { reason: 3, .. }));
/// # Ok::<(), fix_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ByApplVerId<C, Rest = NoApplVer> {
    /// The dispatch of the version `C` reads.
    pub crack: C,
    /// The dispatches of the other versions.
    pub rest: Rest,
}

/// The end of a [`ByApplVerId`] chain: no crate for the message's version, so
/// UnsupportedMessageType.
///
/// ```
/// use fix_session::{ApplVerDispatch, NoApplVer, Outbox};
/// let mut fields = fix_core::Fields::<8>::new();
/// let bytes = b"8=FIXT.1.1\x019=5\x0135=D\x0110=005\x01";
/// let msg = fix_core::Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// assert!(NoApplVer.crack_appl_ver(b"7", &msg, &mut Outbox::default()).is_err());
/// # Ok::<(), fix_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct NoApplVer;

/// A dispatch given the ApplVerID of the message: [`ByApplVerId`]'s chain.
pub trait ApplVerDispatch {
    /// Hands `msg`, of ApplVerID code `appl_ver_id`, to the dispatch of that
    /// version, or refuses it as unsupported.
    fn crack_appl_ver(
        &mut self,
        appl_ver_id: &[u8],
        msg: &Message<'_>,
        out: &mut Outbox,
    ) -> Result<(), AppReject>;
}

impl ApplVerDispatch for NoApplVer {
    fn crack_appl_ver(
        &mut self,
        _: &[u8],
        msg: &Message<'_>,
        _: &mut Outbox,
    ) -> Result<(), AppReject> {
        Err(AppReject::unsupported(msg))
    }
}

impl<C: Crack<Outbox, AppReject> + ApplVersion, R: ApplVerDispatch> ApplVerDispatch
    for ByApplVerId<C, R>
{
    #[inline]
    fn crack_appl_ver(
        &mut self,
        appl_ver_id: &[u8],
        msg: &Message<'_>,
        out: &mut Outbox,
    ) -> Result<(), AppReject> {
        if appl_ver_id == C::APPL_VER_ID {
            self.crack.crack(msg, out)
        } else {
            self.rest.crack_appl_ver(appl_ver_id, msg, out)
        }
    }
}

impl<C> ByApplVerId<C> {
    /// The dispatch of one application version: `fix50sp2::Cracker(handler)`.
    ///
    /// ```
    /// # struct C;
    /// let d = fix_session::ByApplVerId::new(C);
    /// # let _ = d.crack;
    /// ```
    pub fn new(crack: C) -> Self {
        ByApplVerId {
            crack,
            rest: NoApplVer,
        }
    }
}

impl<C, R> ByApplVerId<C, R> {
    /// These dispatches and `crack`, for one more application version (tried
    /// first).
    ///
    /// ```
    /// # struct A; struct B;
    /// let d = fix_session::ByApplVerId::new(A).or(B);
    /// # let (_, _) = (d.crack, d.rest.crack);
    /// ```
    pub fn or<D>(self, crack: D) -> ByApplVerId<D, Self> {
        ByApplVerId { crack, rest: self }
    }
}

impl<C, R> Crack<Outbox, AppReject> for ByApplVerId<C, R>
where
    Self: ApplVerDispatch,
{
    #[inline]
    fn crack(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        let default = out.default_appl_ver_id;
        match msg.get(1128).or(default.get()) {
            Some(appl_ver_id) => self.crack_appl_ver(appl_ver_id, msg, out),
            None => Err(AppReject::unsupported(msg)),
        }
    }
}
