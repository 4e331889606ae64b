//! QuickFIX's acceptance configuration, shared by the in-memory runner and the
//! engine's runner over TCP: the sessions the acceptor has (one per
//! TargetCompID, SenderCompID ISLD) and the dictionaries they validate against.

use fix_dict::Dictionary;
use fix_session::Dictionaries as SessionDicts;

/// The dictionaries the sessions validate against, loaded once.
#[derive(Debug)]
pub struct Dictionaries {
    /// BeginString (FIX.4.x) or DefaultApplVerID (FIXT.1.1's 7, 8, 9) to dictionary.
    by_version: Vec<(&'static str, Dictionary)>,
}

impl Dictionaries {
    /// FIX.4.4 from our `spec/`, the others from QuickFIX's.
    pub fn load() -> Dictionaries {
        let qf = crate::files::quickfix_dir().join("spec");
        let ours = crate::files::workspace_root().join("spec/FIX44.xml");
        let load = |p: std::path::PathBuf| {
            Dictionary::from_path(&p).unwrap_or_else(|e| panic!("{}: {e:?}", p.display()))
        };
        // QuickFIX checks CHAR fields as STRING before FIX.4.2 (FIX.4.0/4.1's
        // BeginString is a CHAR); fix-dict takes CHAR as one character, so
        // those two are read with their CHAR fields as STRING. QuickFIX reads
        // FIX.4.0/4.1's TIME as a UTCTIMESTAMP, which fix-core leaves unchecked.
        let load_char_as_string = |p: std::path::PathBuf| {
            let text = std::fs::read_to_string(&p)
                .unwrap()
                .replace("type='CHAR'", "type='STRING'")
                .replace("type='TIME'", "type='UTCTIMESTAMP'");
            Dictionary::from_xml(&p.display().to_string(), &text)
                .unwrap_or_else(|e| panic!("{}: {e:?}", p.display()))
        };
        Dictionaries {
            by_version: vec![
                ("FIX.4.0", load_char_as_string(qf.join("FIX40.xml"))),
                ("FIX.4.1", load_char_as_string(qf.join("FIX41.xml"))),
                ("FIX.4.2", load(qf.join("FIX42.xml"))),
                ("FIX.4.3", load(qf.join("FIX43.xml"))),
                ("FIX.4.4", load(ours)),
                ("7", load(qf.join("FIX50.xml"))),
                ("8", load(qf.join("FIX50SP1.xml"))),
                ("9", load(qf.join("FIX50SP2.xml"))),
                ("FIXT.1.1", load(qf.join("FIXT11.xml"))),
            ],
        }
    }

    fn get(&self, version: &str) -> &Dictionary {
        &self
            .by_version
            .iter()
            .find(|(v, _)| *v == version)
            .unwrap()
            .1
    }

    /// The dictionary of `profile`'s application messages.
    pub fn app(&self, profile: &Profile) -> &Dictionary {
        self.get(profile.dict)
    }

    /// What `profile`'s session validates against. FIXT.1.1: FIXT11.xml for
    /// the header, trailer and admin messages, the FIX50* dictionary of the
    /// message's ApplVerID (or the DefaultApplVerID) for application messages.
    pub fn session(&self, profile: &Profile) -> SessionDicts<&Dictionary> {
        match profile.appl_ver_id {
            Some(_) => SessionDicts::new(self.get(profile.begin))
                .with_app("7", self.get("7"))
                .with_app("8", self.get("8"))
                .with_app("9", self.get("9")),
            None => SessionDicts::single(self.app(profile)),
        }
    }
}

/// One session of the acceptor: SenderCompID ISLD, ResetOnLogon.
#[derive(Clone, Copy, Debug)]
pub struct Profile {
    /// TargetCompID: the scripts' SenderCompID.
    pub target: &'static str,
    pub begin: &'static str,
    /// The [`Dictionaries`] key of its application messages.
    dict: &'static str,
    /// DefaultApplVerID (FIXT.1.1).
    pub appl_ver_id: Option<&'static str>,
    /// ValidateFieldsHaveValues.
    pub have_values: bool,
}

const fn profile(
    target: &'static str,
    begin: &'static str,
    dict: &'static str,
    appl_ver_id: Option<&'static str>,
    have_values: bool,
) -> Profile {
    Profile {
        target,
        begin,
        dict,
        appl_ver_id,
        have_values,
    }
}

const PROFILES: &[Profile] = &[
    profile("TW40", "FIX.4.0", "FIX.4.0", None, true),
    profile("TW41", "FIX.4.1", "FIX.4.1", None, true),
    profile("TW42", "FIX.4.2", "FIX.4.2", None, true),
    profile("TW43", "FIX.4.3", "FIX.4.3", None, true),
    profile("TW44", "FIX.4.4", "FIX.4.4", None, true),
    profile("TW50", "FIXT.1.1", "7", Some("7"), true),
    profile("TW50SP1", "FIXT.1.1", "8", Some("8"), true),
    profile("TW50SP2", "FIXT.1.1", "9", Some("9"), true),
    profile("TW", "FIX.4.4", "FIX.4.4", None, true),
    profile(
        "NO_CHECK_FIELDS_HAVE_VALUES",
        "FIX.4.4",
        "FIX.4.4",
        None,
        false,
    ),
];

/// The sessions of the scripts of server directory `dir`: those of `future`
/// log on to TW as FIX.4.2.
pub fn profiles(dir: &str) -> impl Iterator<Item = Profile> {
    let future = dir == "future";
    PROFILES.iter().map(move |&p| {
        if future && p.target == "TW" {
            Profile {
                begin: "FIX.4.2",
                dict: "FIX.4.2",
                ..p
            }
        } else {
            p
        }
    })
}
