//! The generic read views generated types wrap: [`View`], [`Block`] and the group
//! iterator [`Entries`].

use core::fmt;
use core::marker::PhantomData;

use super::errors::FieldError;
use super::stream::{Walk, WalkEntry};
use super::tables::{Group, Level, MessageDef};
use super::walk::{declared, scan, scan_sections};
use crate::value::FieldValue;
use crate::{Field, Message};

/// The slot value of a tag that did not occur (also used for fields past index
/// `u16::MAX - 1`, which a view does not record).
pub const ABSENT: u16 = u16::MAX;

/// What a getter of a required field returns.
pub type Req<T> = Result<T, FieldError>;

/// What a getter of an optional field returns: `Ok(None)` when absent.
pub type Opt<T> = Result<Option<T>, FieldError>;

/// The number of slots of a generated message's view whose level has `slots`:
/// the next power of two above it, so that [`View::of_message`] stores every
/// field without a test (a slot index masked to the view's size, the last slot
/// spare for the tags the view does not hold). The slots past the level's stay
/// [`ABSENT`].
///
/// ```
/// use fix_core::typed::view_capacity;
/// assert_eq!((view_capacity(30), view_capacity(248), view_capacity(255)), (32, 256, 256));
/// assert_eq!(view_capacity(256), 512);
/// ```
pub const fn view_capacity(slots: usize) -> usize {
    (slots + 1).next_power_of_two()
}

/// A message or group entry with its slots filled: `N` is its [`Level`]'s length.
///
/// Generated message and entry types wrap one. Building it is one pass over the
/// fields; every lookup after that is `O(1)`.
///
/// ```
/// use fix_core::typed::{Level, View};
/// use fix_core::{Fields, Parser};
/// static HB: Level = Level { tags: &[112], by_tag: &[0], required: &[], groups: &[], index: &[] };
/// let bytes = b"8=FIX.4.4\x019=12\x0135=0\x01112=T1\x0110=040\x01";
/// let mut fields = Fields::<8>::new();
/// let msg = Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// let view = View::<1>::new(msg, &HB);
/// assert_eq!(view.block().raw(0), Some(&b"T1"[..]));
/// # Ok::<(), fix_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct View<'a, const N: usize> {
    msg: Message<'a>,
    slots: [u16; N],
}

impl<'a, const N: usize> View<'a, N> {
    /// Walks all of `msg`'s fields against `level` (whose length should be `N`;
    /// extra slots stay empty, missing ones are not recorded).
    pub fn new(msg: Message<'a>, level: &'static Level) -> Self {
        let mut slots = [ABSENT; N];
        scan(level, msg.fields(), msg.bytes(), 0, None, &mut slots);
        View { msg, slots }
    }

    /// The view of a whole message `msg` whose table is `def` (`N` should be
    /// the length of `def.view`): its slots filled through
    /// [`def.slot_of`](MessageDef::slot_of), one load per field, or by the walk
    /// of [`View::new`] over `def.view` when that table is empty. The two give
    /// the same slots.
    ///
    /// ```
    /// use fix_core::typed::{Level, MessageDef, SlotSets, View, slot_table};
    /// use fix_core::{Fields, Parser};
    /// static TAGS: &[u32] = &[8, 9, 35, 112, 10];
    /// static HB: MessageDef = MessageDef {
    ///     name: "Heartbeat", msg_type: b"0", admin: true,
    ///     body: Level { tags: &[112], by_tag: &[0], required: &[], groups: &[], index: &[] },
    ///     view: Level { tags: TAGS, by_tag: &[0, 1, 4, 2, 3], required: &[], groups: &[], index: &[] },
    ///     slot_of: &slot_table::<114>(TAGS),
    ///     sets: SlotSets::NONE,
    /// };
    /// let bytes = b"8=FIX.4.4\x019=12\x0135=0\x01112=T1\x0110=040\x01";
    /// let mut fields = Fields::<8>::new();
    /// let msg = Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
    /// let view = View::<5>::of_message(msg, &HB);
    /// assert_eq!(view.block().raw(3), Some(&b"T1"[..]));
    /// assert_eq!(view.slots(), View::<5>::new(msg, &HB.view).slots());
    /// # Ok::<(), fix_core::Error>(())
    /// ```
    #[inline]
    pub fn of_message(msg: Message<'a>, def: &'static MessageDef) -> Self {
        let fields = msg.fields();
        let slot_of = def.slot_of;
        // An empty table (a view only a walk can fill), more fields than a slot
        // can number, or (below) a power-of-two view without a spare slot: the
        // walk.
        let (Some(last), true) = (
            slot_of.len().checked_sub(1),
            fields.len() <= usize::from(ABSENT),
        ) else {
            return View::new(msg, &def.view);
        };
        let masked = N.is_power_of_two();
        if masked && def.view.tags.len() >= N {
            return View::new(msg, &def.view);
        }
        // Each field stored in its slot, backwards, so the first occurrence of a
        // tag is the one left, as a walk leaves it; a tag the view does not hold
        // reads ABSENT in the table, as do tags past it (the table's last
        // entry). A group's entries need no skipping: the table exists only for
        // views that share no tag with their groups.
        //
        // Written here, indexing `view.slots` directly rather than through a
        // helper taking `&mut`: a borrowed local is returned by a copy of the
        // whole view (568 bytes for an ExecutionReport, 88 instructions), an
        // unborrowed one is built where the caller wants it. Eight fields a
        // step, so the loop's own count is paid once for eight.
        let mut view = View {
            msg,
            slots: [ABSENT; N],
        };
        let slot = |f: &Field| usize::from(slot_of[(f.tag() as usize).min(last)]);
        let (head, eights) = fields.as_rchunks::<8>();
        if masked {
            // A generated message view has a power of two of slots, more than
            // its level's (see `view_capacity`): its last slot is nobody's, and
            // ABSENT masked to the view's size is that slot. Every field is then
            // stored, with no test and no branch, and the spare slot emptied
            // after.
            let mut pos = fields.len();
            for eight in eights.iter().rev() {
                pos -= 8;
                for (i, f) in eight.iter().enumerate().rev() {
                    view.slots[slot(f) & (N - 1)] = (pos + i) as u16;
                }
            }
            for pos in (0..head.len()).rev() {
                view.slots[slot(&head[pos]) & (N - 1)] = pos as u16;
            }
            view.slots[N - 1] = ABSENT;
        } else {
            // Any other size: a slot past the view's (ABSENT included) is none.
            let mut pos = fields.len();
            for eight in eights.iter().rev() {
                pos -= 8;
                for (i, f) in eight.iter().enumerate().rev() {
                    let s = slot(f);
                    if s < N {
                        view.slots[s] = (pos + i) as u16;
                    }
                }
            }
            for pos in (0..head.len()).rev() {
                let s = slot(&head[pos]);
                if s < N {
                    view.slots[s] = pos as u16;
                }
            }
        }
        view
    }

    /// Walks all of `msg`'s fields against `levels` laid end to end (a message's
    /// header, body and trailer; their lengths should add up to `N`).
    pub fn sections(msg: Message<'a>, levels: &[&'static Level]) -> Self {
        let mut slots = [ABSENT; N];
        scan_sections(levels, msg.fields(), msg.bytes(), &mut slots);
        View { msg, slots }
    }

    /// The group entry of `group` starting at field `pos`, and where it ends.
    fn entry(msg: Message<'a>, group: &'static Group, pos: usize) -> (Self, usize) {
        let mut slots = [ABSENT; N];
        let end = scan(
            &group.entry,
            msg.fields(),
            msg.bytes(),
            pos,
            Some(group.delimiter),
            &mut slots,
        );
        (View { msg, slots }, end)
    }

    /// The underlying message.
    pub fn message(&self) -> &Message<'a> {
        &self.msg
    }

    /// The field index recorded for each slot ([`ABSENT`] when none).
    pub fn slots(&self) -> &[u16; N] {
        &self.slots
    }

    /// All slots, for the getters.
    #[inline]
    pub fn block(&self) -> Block<'_, 'a> {
        Block {
            msg: &self.msg,
            slots: &self.slots,
        }
    }

    /// The slots `offset..offset + len` (a component's run).
    #[inline]
    pub fn sub(&self, offset: usize, len: usize) -> Block<'_, 'a> {
        self.block().sub(offset, len)
    }

    /// [`Block::get`] over all slots.
    #[inline]
    pub fn get<T: FieldValue<'a>>(&self, slot: usize, tag: u32) -> Opt<T> {
        self.block().get(slot, tag)
    }

    /// [`Block::req`] over all slots.
    #[inline]
    pub fn req<T: FieldValue<'a>>(&self, slot: usize, tag: u32) -> Req<T> {
        self.block().req(slot, tag)
    }

    /// [`Block::data`] over all slots.
    #[inline]
    pub fn data(&self, slot: usize) -> Option<&'a [u8]> {
        self.block().data(slot)
    }

    /// [`Block::req_data`] over all slots.
    #[inline]
    pub fn req_data(&self, slot: usize, tag: u32) -> Req<&'a [u8]> {
        self.block().req_data(slot, tag)
    }

    /// [`Block::group`] over all slots.
    #[inline]
    pub fn group<E: From<View<'a, M>>, const M: usize>(
        &self,
        slot: usize,
        group: &'static Group,
    ) -> Entries<'a, E, M> {
        self.block().group(slot, group)
    }
}

/// A run of a view's slots: a whole message or entry, or one component in it.
/// Generated component view types wrap one, so one type serves every message.
///
/// ```
/// use fix_core::typed::{Level, View};
/// use fix_core::value::FixStr;
/// use fix_core::{Fields, Parser};
/// // Body: 11, then a two-slot component (55, 48).
/// static L: Level = Level { tags: &[11, 55, 48], by_tag: &[0, 2, 1], required: &[0], groups: &[], index: &[] };
/// let bytes = b"8=FIX.4.4\x019=17\x0135=D\x0111=A\x0155=IBM\x0110=075\x01";
/// let mut fields = Fields::<8>::new();
/// let msg = Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// let view = View::<3>::new(msg, &L);
/// let instrument = view.sub(1, 2);
/// assert_eq!(instrument.req::<FixStr>(0, 55).unwrap().as_bytes(), b"IBM");
/// assert_eq!(instrument.get::<FixStr>(1, 48), Ok(None));
/// assert!(!instrument.has(1) && instrument.has(0));
/// # Ok::<(), fix_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Block<'v, 'a> {
    msg: &'v Message<'a>,
    slots: &'v [u16],
}

impl<'v, 'a> Block<'v, 'a> {
    /// The slots `offset..offset + len` of this block (empty when out of range).
    #[inline]
    pub fn sub(&self, offset: usize, len: usize) -> Block<'v, 'a> {
        Block {
            msg: self.msg,
            slots: self.slots.get(offset..offset + len).unwrap_or(&[]),
        }
    }

    /// The underlying message.
    pub fn message(&self) -> &'v Message<'a> {
        self.msg
    }

    /// The field recorded in `slot`.
    #[inline(always)]
    pub fn field(&self, slot: usize) -> Option<&'a Field> {
        let i = *self.slots.get(slot)?;
        self.msg.fields().get(usize::from(i))
    }

    /// The raw value in `slot`.
    #[inline]
    pub fn raw(&self, slot: usize) -> Option<&'a [u8]> {
        let f = self.field(slot)?;
        self.msg.bytes().get(f.value_range())
    }

    /// Whether `slot` holds a field.
    #[inline]
    pub fn has(&self, slot: usize) -> bool {
        self.field(slot).is_some()
    }

    /// The optional field `tag` in `slot`, parsed as `T`.
    #[inline(always)]
    pub fn get<T: FieldValue<'a>>(&self, slot: usize, tag: u32) -> Result<Option<T>, FieldError> {
        let Some(f) = self.field(slot) else {
            return Ok(None);
        };
        let range = f.value_range();
        let offset = range.start;
        let soh_free = !self.msg.has_values_by_length();
        T::parse_in(self.msg.bytes(), range, soh_free)
            .map(Some)
            .map_err(|_| FieldError::Invalid { tag, offset })
    }

    /// The required field `tag` in `slot`, parsed as `T`.
    #[inline(always)]
    pub fn req<T: FieldValue<'a>>(&self, slot: usize, tag: u32) -> Result<T, FieldError> {
        self.get(slot, tag)?.ok_or(FieldError::Missing { tag })
    }

    /// The optional DATA field in `slot`, as bytes.
    #[inline]
    pub fn data(&self, slot: usize) -> Option<&'a [u8]> {
        self.raw(slot)
    }

    /// The required DATA field `tag` in `slot`, as bytes.
    #[inline]
    pub fn req_data(&self, slot: usize, tag: u32) -> Result<&'a [u8], FieldError> {
        self.raw(slot).ok_or(FieldError::Missing { tag })
    }

    /// The entries of `group`, whose counter sits in `slot`. `M` is the length of
    /// the entry's level; `E` is the generated entry type.
    pub fn group<E: From<View<'a, M>>, const M: usize>(
        &self,
        slot: usize,
        group: &'static Group,
    ) -> Entries<'a, E, M> {
        let (pos, remaining) = match self.field(slot) {
            Some(f) => {
                let i = usize::from(self.slots.get(slot).copied().unwrap_or(ABSENT));
                (i + 1, declared(self.msg.value(f)))
            }
            None => (0, 0),
        };
        Entries {
            msg: *self.msg,
            group,
            pos,
            remaining,
            entry: PhantomData,
        }
    }
}

/// The entries of a repeating group, in wire order: an iterator of generated entry
/// types. It stops at the count the NUMINGROUP field declares or at the first field
/// that does not start an entry, whichever comes first; never allocates.
///
/// ```
/// use fix_core::typed::{Group, Level, View};
/// use fix_core::{Fields, Parser};
/// static PARTIES: Group = Group { name: "NoPartyIDs", counter: 453, delimiter: 448,
///     entry: Level { tags: &[448, 452], by_tag: &[0, 1], required: &[], groups: &[], index: &[] } };
/// static BODY: Level = Level { tags: &[453], by_tag: &[0], required: &[], groups: &[(0, &PARTIES)], index: &[] };
/// struct Party<'a>(View<'a, 2>);
/// impl<'a> From<View<'a, 2>> for Party<'a> { fn from(v: View<'a, 2>) -> Self { Party(v) } }
///
/// let bytes = b"8=FIX.4.4\x019=29\x0135=D\x01453=2\x01448=A\x01452=3\x01448=B\x0110=068\x01";
/// let mut fields = Fields::<16>::new();
/// let msg = Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// let view = View::<1>::new(msg, &BODY);
/// let ids: Vec<_> = view.group::<Party, 2>(0, &PARTIES).map(|p| p.0.block().raw(0)).collect();
/// assert_eq!(ids, [Some(&b"A"[..]), Some(&b"B"[..])]);
/// # Ok::<(), fix_core::Error>(())
/// ```
pub struct Entries<'a, E, const M: usize> {
    msg: Message<'a>,
    group: &'static Group,
    pos: usize,
    remaining: usize,
    entry: PhantomData<fn() -> E>,
}

impl<'a, E: WalkEntry<'a>, const M: usize> Entries<'a, E, M> {
    /// The entries not yet iterated as a streaming [`Walk`]: their fields in wire
    /// order, each decoded by a `match` on its tag, with no slot table.
    ///
    /// ```
    /// use fix_core::typed::{Cursor, Group, Level, View, WalkEntry};
    /// static PARTIES: Group = Group { name: "NoPartyIDs", counter: 453, delimiter: 448,
    ///     entry: Level { tags: &[448, 452], by_tag: &[0, 1], required: &[], groups: &[], index: &[] } };
    /// static BODY: Level = Level { tags: &[453], by_tag: &[0], required: &[], groups: &[(0, &PARTIES)], index: &[] };
    /// struct Party<'a>(View<'a, 2>);
    /// impl<'a> From<View<'a, 2>> for Party<'a> { fn from(v: View<'a, 2>) -> Self { Party(v) } }
    /// impl<'a> WalkEntry<'a> for Party<'a> {
    ///     const GROUP: &'static Group = &PARTIES;
    ///     type Field = (u32, &'a [u8]);
    ///     fn field(cursor: &mut Cursor<'a>, tag: u32) -> Option<Self::Field> {
    ///         matches!(tag, 448 | 452).then(|| (tag, cursor.take()))
    ///     }
    /// }
    ///
    /// let bytes = b"8=FIX.4.4\x019=29\x0135=D\x01453=2\x01448=A\x01452=3\x01448=B\x0110=068\x01";
    /// let mut fields = fix_core::Fields::<16>::new();
    /// let msg = fix_core::Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
    /// let view = View::<1>::new(msg, &BODY);
    /// let mut entries = view.group::<Party, 2>(0, &PARTIES);
    /// entries.next();
    /// let rest: Vec<_> = entries.walk().collect();
    /// assert_eq!(rest, [(448, &b"B"[..])]);
    /// # Ok::<(), fix_core::Error>(())
    /// ```
    pub fn walk(self) -> Walk<'a, E> {
        let fields = self.msg.fields().get(self.pos..).unwrap_or(&[]);
        Walk::new(
            self.msg.bytes(),
            fields,
            self.remaining,
            !self.msg.has_values_by_length(),
        )
    }
}

impl<E, const M: usize> fmt::Debug for Entries<'_, E, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entries")
            .field("group", &self.group.name)
            .field("pos", &self.pos)
            .finish()
    }
}

impl<E, const M: usize> Clone for Entries<'_, E, M> {
    fn clone(&self) -> Self {
        Entries {
            msg: self.msg,
            group: self.group,
            pos: self.pos,
            remaining: self.remaining,
            entry: PhantomData,
        }
    }
}

impl<'a, E: From<View<'a, M>>, const M: usize> Iterator for Entries<'a, E, M> {
    type Item = E;

    fn next(&mut self) -> Option<E> {
        if self.remaining == 0 {
            return None;
        }
        let f = self.msg.fields().get(self.pos)?;
        if f.tag() != self.group.delimiter {
            self.remaining = 0;
            return None;
        }
        let (view, end) = View::entry(self.msg, self.group, self.pos);
        self.pos = end;
        self.remaining -= 1;
        Some(E::from(view))
    }
}
