//! What the emitter knows about a dictionary before writing anything: Rust names
//! of fields, components, messages and groups (each group named where it is
//! written, keyed by its stable `GroupDecl::id`), every level's slots (components
//! expanded in place), and the Rust value type of each field.

use std::collections::{BTreeSet, HashMap};

use proc_macro2::TokenStream;
use quote::quote;

use super::names::{id, screaming};
use crate::ident;
use fix_dict::{Dictionary, Field, FieldType, GroupDecl, Member};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Module {
    Components,
    Messages,
}

/// What the emitter knows about one group as written.
#[derive(Clone, Debug)]
pub(super) struct GroupInfo {
    pub(super) module: Module,
    /// Entry view type name (`PartiesNoPartyIds`).
    pub(super) ty: String,
    /// The static's name (`PARTIES_NO_PARTY_IDS`).
    pub(super) stat: String,
    /// Number of slots of one entry.
    pub(super) len: usize,
    /// Every tag under the group: its entries' and, recursively, their nested
    /// groups'.
    pub(super) tags: BTreeSet<u32>,
}

/// How a level is walked: as a whole message (unknown fields are skipped) or as
/// one group entry (which ends at the first field it does not hold).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Walk {
    Message,
    Entry,
}

/// One slot of a level.
#[derive(Clone, Debug)]
pub(super) struct Slot {
    pub(super) tag: u32,
    pub(super) required: bool,
    /// The group whose counter this is (key into `Cx::groups`).
    pub(super) group: Option<usize>,
}

/// Per-field facts the emitter needs.
#[derive(Clone, Debug)]
pub(super) struct FieldInfo {
    /// `snake_case` getter name.
    pub(super) getter: String,
    /// `UpperCamel` type name (marker and enum).
    pub(super) ty: String,
    /// `SCREAMING` tag constant.
    pub(super) konst: String,
    /// Enum kind, when an enum is generated.
    pub(super) kind: EnumKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EnumKind {
    None,
    /// CHAR (or MULTIPLECHARVALUE elements): a byte table, no lifetime.
    Char,
    /// Anything else: a `match`, carries a lifetime.
    Bytes,
}

/// The generation context.
pub(super) struct Cx<'d> {
    pub(super) dict: &'d Dictionary,
    pub(super) fields: HashMap<u32, FieldInfo>,
    /// By `GroupDecl::id` (stable: the dictionary numbers groups as written).
    pub(super) groups: HashMap<usize, GroupInfo>,
    /// Component index to its type name.
    pub(super) components: Vec<String>,
    /// Component index to its slot count.
    pub(super) component_len: Vec<usize>,
    /// Message index to its type name.
    pub(super) messages: Vec<String>,
    /// Whether builders are emitted.
    pub(super) builders: bool,
    /// Messages (by FIX name) whose views include `doc/<Name>.md`.
    pub(super) examples: Vec<String>,
}

impl<'d> Cx<'d> {
    pub(super) fn new(dict: &'d Dictionary) -> Self {
        let mut fields = HashMap::new();
        let tys = ident::dedup(dict.fields().iter().map(|f| ident::upper_camel(&f.name)));
        for (f, ty) in dict.fields().iter().zip(tys) {
            let kind = if !f.is_enumerated() || f.ty == FieldType::Boolean {
                EnumKind::None
            } else if matches!(f.ty, FieldType::Char | FieldType::MultipleCharValue)
                && f.values.iter().all(|v| v.value.len() == 1)
            {
                EnumKind::Char
            } else {
                EnumKind::Bytes
            };
            fields.insert(
                f.tag,
                FieldInfo {
                    getter: ident::snake_case(&f.name),
                    konst: screaming(&ty),
                    ty,
                    kind,
                },
            );
        }
        // Type names: components (plus Header/Trailer) share one namespace, messages another.
        let mut comp_names: Vec<String> = vec!["Header".into(), "Trailer".into()];
        comp_names.extend(
            dict.components()
                .iter()
                .map(|c| ident::upper_camel(&c.name)),
        );
        let comp_names = ident::dedup(comp_names);
        let components: Vec<String> = comp_names[2..].to_vec();
        let mut msg_names: Vec<String> = vec!["Message".into()];
        msg_names.extend(dict.messages().iter().map(|m| ident::upper_camel(&m.name)));
        let messages = ident::dedup(msg_names)[1..].to_vec();
        let mut cx = Cx {
            dict,
            fields,
            groups: HashMap::new(),
            components,
            component_len: Vec::new(),
            messages,
            builders: true,
            examples: Vec::new(),
        };
        cx.component_len = (0..dict.components().len())
            .map(|i| cx.component_slots(i, 0))
            .collect();
        // Name every group where it is written, then size its entry.
        let mut used: Vec<String> = Vec::new();
        let mut pending: Vec<(Module, String, &'d GroupDecl)> = Vec::new();
        let collect = |module: Module, owner: &str, members: &'d [Member], pending: &mut Vec<_>| {
            for m in members {
                if let Member::Group(g) = m {
                    pending.push((module, owner.to_string(), g));
                }
            }
        };
        collect(
            Module::Components,
            "Header",
            &dict.header().members,
            &mut pending,
        );
        collect(
            Module::Components,
            "Trailer",
            &dict.trailer().members,
            &mut pending,
        );
        for (c, name) in dict.components().iter().zip(&cx.components) {
            collect(Module::Components, name, &c.members, &mut pending);
        }
        for (m, name) in dict.messages().iter().zip(&cx.messages) {
            collect(Module::Messages, name, &m.members, &mut pending);
        }
        let mut i = 0;
        while i < pending.len() {
            let (module, owner, g) = pending[i].clone();
            let counter = dict
                .field(g.counter)
                .map(|f| ident::upper_camel(&f.name))
                .unwrap_or_else(|| format!("GroupDecl{}", g.counter));
            let mut ty = format!("{owner}{counter}");
            let base = ty.clone();
            let mut n = 2;
            while used.contains(&ty)
                || (module == Module::Components && cx.components.contains(&ty))
                || (module == Module::Messages && cx.messages.contains(&ty))
            {
                ty = format!("{base}{n}");
                n += 1;
            }
            used.push(ty.clone());
            for m in &g.members {
                if let Member::Group(inner) = m {
                    pending.push((module, ty.clone(), inner));
                }
            }
            let stat = screaming(&ty);
            cx.groups.insert(
                g.id,
                GroupInfo {
                    module,
                    ty,
                    stat,
                    len: 0,
                    tags: BTreeSet::new(),
                },
            );
            i += 1;
        }
        let keys: Vec<(usize, &'d GroupDecl)> =
            pending.iter().map(|(_, _, g)| (g.id, *g)).collect();
        let defs: HashMap<usize, &'d GroupDecl> = keys.iter().copied().collect();
        for &(k, g) in &keys {
            let mut slots = Vec::new();
            cx.flatten(&g.members, true, &mut slots, 0);
            let mut tags = BTreeSet::new();
            cx.tags_under(g, &defs, &mut tags, 0);
            if let Some(info) = cx.groups.get_mut(&k) {
                info.len = slots.len();
                info.tags = tags;
            }
        }
        cx
    }

    /// Adds every tag under group `g` to `out`: its entries', and its nested
    /// groups' (found in `defs`), recursively.
    pub(super) fn tags_under(
        &self,
        g: &GroupDecl,
        defs: &HashMap<usize, &'d GroupDecl>,
        out: &mut BTreeSet<u32>,
        depth: usize,
    ) {
        if depth > fix_dict::MAX_COMPONENT_DEPTH {
            return;
        }
        let mut slots = Vec::new();
        self.flatten(&g.members, true, &mut slots, 0);
        for s in slots {
            out.insert(s.tag);
            if let Some(inner) = s.group.and_then(|k| defs.get(&k)) {
                self.tags_under(inner, defs, out, depth + 1);
            }
        }
    }

    pub(super) fn component_slots(&self, i: usize, depth: usize) -> usize {
        let Some(c) = self.dict.components().get(i) else {
            return 0;
        };
        if depth > fix_dict::MAX_COMPONENT_DEPTH {
            return 0;
        }
        c.members
            .iter()
            .map(|m| match m {
                Member::Field { .. } | Member::Group(_) => 1,
                Member::Component { component, .. } => self.component_slots(*component, depth + 1),
            })
            .sum()
    }

    /// Appends the slots of `members` (components expanded in place).
    pub(super) fn flatten(
        &self,
        members: &[Member],
        required: bool,
        out: &mut Vec<Slot>,
        depth: usize,
    ) {
        if depth > fix_dict::MAX_COMPONENT_DEPTH {
            return;
        }
        for m in members {
            match m {
                Member::Field {
                    tag, required: r, ..
                } => out.push(Slot {
                    tag: *tag,
                    required: required && *r,
                    group: None,
                }),
                Member::Group(g) => out.push(Slot {
                    tag: g.counter,
                    required: required && g.required,
                    group: self.group_has_entry(g).then_some(g.id),
                }),
                Member::Component {
                    component,
                    required: r,
                    ..
                } => {
                    if let Some(c) = self.dict.components().get(*component) {
                        self.flatten(&c.members, required && *r, out, depth + 1);
                    }
                }
            }
        }
    }

    pub(super) fn group_has_entry(&self, g: &GroupDecl) -> bool {
        let mut slots = Vec::new();
        self.flatten(&g.members, true, &mut slots, 0);
        !slots.is_empty()
    }

    pub(super) fn field(&self, tag: u32) -> Option<(&'d Field, &FieldInfo)> {
        Some((self.dict.field(tag)?, self.fields.get(&tag)?))
    }

    /// The path of group `key`'s table (a static), seen from `from`.
    pub(super) fn group_static(&self, key: usize, from: Module) -> TokenStream {
        match self.groups.get(&key) {
            Some(info) => qualify(&info.stat, info.module, from),
            None => quote!(UNREACHABLE_GROUP),
        }
    }

    /// The path of group `key`'s entry view, seen from `from`.
    pub(super) fn group_type(&self, key: usize, from: Module) -> TokenStream {
        match self.groups.get(&key) {
            Some(info) => qualify(&info.ty, info.module, from),
            None => quote!(UnreachableGroup),
        }
    }

    /// The path of component `i`'s view, seen from `from`.
    pub(super) fn component_type(&self, i: usize, from: Module) -> TokenStream {
        let name = self.components.get(i).map_or("Unknown", String::as_str);
        qualify(name, Module::Components, from)
    }

    /// The Rust value type of a field, with lifetime `lt` where it borrows.
    pub(super) fn value_type(&self, f: &Field, info: &FieldInfo, lt: &TokenStream) -> TokenStream {
        let enum_ty = id(&info.ty);
        match (info.kind, f.ty) {
            (EnumKind::Char, t) if !t.is_multiple() => return quote!(e::#enum_ty),
            (EnumKind::Bytes, t) if !t.is_multiple() => {
                return quote!(e::#enum_ty<#lt>);
            }
            _ => {}
        }
        use FieldType as T;
        match f.ty {
            T::Int
            | T::DayOfMonth
            | T::Reserved100Plus
            | T::Reserved1000Plus
            | T::Reserved4000Plus => quote!(i64),
            T::Length => quote!(v::Length),
            T::TagNum => quote!(v::TagNum),
            T::SeqNum => quote!(v::SeqNum),
            T::NumInGroup => quote!(v::NumInGroup),
            T::Float | T::Qty | T::Price | T::PriceOffset | T::Amt | T::Percentage => {
                quote!(v::Decimal)
            }
            T::Char => quote!(v::Char),
            T::Boolean => quote!(bool),
            T::MultipleCharValue => quote!(v::MultipleCharValue<#lt>),
            T::MultipleStringValue | T::MultipleValueString => {
                quote!(v::MultipleValueString<#lt>)
            }
            T::Country => quote!(v::Country),
            T::Currency => quote!(v::Currency),
            T::Exchange => quote!(v::Exchange),
            T::MonthYear => quote!(v::MonthYear),
            T::UtcTimestamp | T::Time => quote!(v::UtcTimestamp),
            T::UtcTimeOnly => quote!(v::UtcTimeOnly),
            T::UtcDateOnly | T::UtcDate => quote!(v::UtcDateOnly),
            T::LocalMktDate => quote!(v::LocalMktDate),
            T::TzTimeOnly => quote!(v::TzTimeOnly),
            T::TzTimestamp => quote!(v::TzTimestamp),
            T::Data | T::XmlData => quote!(&#lt [u8]),
            _ => quote!(v::FixStr<#lt>),
        }
    }

    /// Whether the field's value type borrows from the message.
    pub(super) fn borrows(&self, f: &Field, info: &FieldInfo) -> bool {
        use FieldType as T;
        match (info.kind, f.ty) {
            (EnumKind::Char, t) if !t.is_multiple() => false,
            (EnumKind::Bytes, t) if !t.is_multiple() => true,
            (_, t) if t.is_multiple() || t.is_data() => true,
            (
                _,
                T::String
                | T::LocalMktTime
                | T::Date
                | T::Language
                | T::Pattern
                | T::Tenor
                | T::Xid
                | T::XidRef,
            ) => true,
            _ => false,
        }
    }
    /// Getter names for `members`, deduplicated against `reserved`.
    pub(super) fn member_names(&self, members: &[Member], reserved: &[&str]) -> Vec<String> {
        let mut names: Vec<String> = reserved.iter().map(|s| s.to_string()).collect();
        for m in members {
            names.push(match m {
                Member::Field { tag, .. } => self
                    .fields
                    .get(tag)
                    .map_or_else(|| format!("tag_{tag}"), |f| f.getter.clone()),
                Member::Group(g) => self
                    .fields
                    .get(&g.counter)
                    .map_or_else(|| format!("tag_{}", g.counter), |f| f.getter.clone()),
                Member::Component { component, .. } => self
                    .dict
                    .components()
                    .get(*component)
                    .map_or_else(|| "component".into(), |c| ident::snake_case(&c.name)),
            });
        }
        ident::dedup(names)[reserved.len()..].to_vec()
    }
}

impl Cx<'_> {
    /// The slots of `members` (components expanded in place).
    pub(super) fn slots(&self, members: &[Member]) -> Vec<Slot> {
        let mut slots = Vec::new();
        self.flatten(members, true, &mut slots, 0);
        slots
    }

    /// The builder type of the group `key`'s entries, seen from `from`.
    pub(super) fn group_builder_type(&self, key: usize, from: Module) -> TokenStream {
        let Some(info) = self.groups.get(&key) else {
            return quote!(UnreachableGroupBuilder);
        };
        qualify(&format!("{}Builder", info.ty), info.module, from)
    }

    /// The builder type of component `i`, seen from `from`.
    pub(super) fn component_builder_type(&self, i: usize, from: Module) -> TokenStream {
        let name = self.components.get(i).map_or("Unknown", String::as_str);
        qualify(&format!("{name}Builder"), Module::Components, from)
    }
}

/// The path of item `name` of module `owner`, seen from module `from`.
pub(super) fn qualify(name: &str, owner: Module, from: Module) -> TokenStream {
    let s = id(name);
    match (owner, from) {
        (a, b) if a == b => quote!(#s),
        (Module::Components, _) => quote!(c::#s),
        (Module::Messages, _) => quote!(m::#s),
    }
}
