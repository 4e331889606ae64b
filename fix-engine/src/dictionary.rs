//! Where each session's dictionaries come from ([`DictionarySource`]): one
//! schema for every session (a generated crate's tables), or the XML files its
//! settings name, read with fix-dict ([`FileDictionaries`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use fix_core::validate::{FieldInfo, Schema, ValueFormat};
use fix_session::Dictionaries;

use crate::config::SessionSettings;
use crate::{EngineError, EngineErrorKind};

/// What gives each session of an [`Engine`](crate::Engine) the dictionaries it
/// validates against.
///
/// Any schema that can be cloned is one, for every session (`&fix44::DICTIONARY`),
/// refusing sessions whose settings name dictionary files;
/// [`FileDictionaries`] reads the files.
///
/// ```
/// use fix_engine::DictionarySource;
/// use fix_engine::config::{Schedule, SessionBuilder};
/// let s = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1"))
///     .socket_accept_port(5001).schedule(Schedule::non_stop()).build()?;
/// assert!((&fix44::DICTIONARY).dictionaries(&s).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait DictionarySource<D: Schema> {
    /// The dictionaries of the session `settings` describe.
    fn dictionaries(&self, settings: &SessionSettings) -> Result<Dictionaries<D>, EngineError>;
}

impl<D: Schema + Clone> DictionarySource<D> for D {
    fn dictionaries(&self, settings: &SessionSettings) -> Result<Dictionaries<D>, EngineError> {
        let paths = &settings.dictionaries;
        let named = paths
            .data_dictionary
            .as_ref()
            .or(paths.transport.as_ref())
            .or(paths.app.first().map(|(_, p)| p));
        if let Some(path) = named {
            return Err(EngineError::from(EngineErrorKind::Dictionary {
                id: settings.session.id.clone(),
                path: path.clone(),
                message: "the engine was given one schema for every session: \
                          start it with FileDictionaries to read dictionary files"
                    .into(),
            }));
        }
        Ok(Dictionaries::single(self.clone()))
    }
}

/// A dictionary read from a QuickFIX XML file, shared by the sessions that
/// name the file.
///
/// ```
/// let d = fix_engine::FileDictionary::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/FIX44.xml"))?;
/// assert_eq!(fix_core::validate::Schema::begin_string(&d), Some(&b"FIX.4.4"[..]));
/// # Ok::<(), fix_dict::Diagnostics>(())
/// ```
#[derive(Clone, Debug)]
pub struct FileDictionary(Arc<fix_dict::Dictionary>);

impl FileDictionary {
    /// Reads and resolves the dictionary at `path`.
    ///
    /// ```
    /// assert!(fix_engine::FileDictionary::read("/nonexistent/FIX44.xml").is_err());
    /// ```
    pub fn read(path: impl AsRef<Path>) -> Result<FileDictionary, fix_dict::Diagnostics> {
        fix_dict::Dictionary::from_path(path).map(|d| FileDictionary(Arc::new(d)))
    }

    /// The dictionary itself.
    ///
    /// ```
    /// let d = fix_engine::FileDictionary::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/FIX44.xml"))?;
    /// assert!(d.dictionary().file().ends_with("FIX44.xml"));
    /// # Ok::<(), fix_dict::Diagnostics>(())
    /// ```
    pub fn dictionary(&self) -> &fix_dict::Dictionary {
        &self.0
    }
}

impl Schema for FileDictionary {
    type Layout = fix_dict::Layout;

    fn begin_string(&self) -> Option<&[u8]> {
        self.0.begin_string()
    }

    fn field_format(&self, tag: u32) -> Option<ValueFormat> {
        self.0.field_format(tag)
    }

    fn field_info(&self, tag: u32) -> Option<FieldInfo> {
        Schema::field_info(&*self.0, tag)
    }

    fn value_allowed(&self, tag: u32, value: &[u8]) -> bool {
        Schema::value_allowed(&*self.0, tag, value)
    }

    fn byte_set(&self, tag: u32) -> Option<[u64; 4]> {
        Schema::byte_set(&*self.0, tag)
    }

    fn header_layout(&self) -> &Self::Layout {
        self.0.header_layout()
    }

    fn trailer_layout(&self) -> &Self::Layout {
        self.0.trailer_layout()
    }

    fn body_layout(&self, msg_type: &[u8]) -> Option<&Self::Layout> {
        self.0.body_layout(msg_type)
    }
}

/// The dictionary files the sessions' settings name (`DataDictionary`; on
/// FIXT.1.1 `TransportDataDictionary` and `AppDataDictionary`), each read
/// once however many sessions name it. A session with `UseDataDictionary=N`,
/// or naming no file, is refused: it needs the one-schema source.
///
/// ```no_run
/// # async fn f(settings: fix_engine::config::Settings) -> Result<(), fix_engine::EngineError> {
/// struct App;
/// impl fix_session::Application for App {}
/// let dicts = fix_engine::FileDictionaries::new();
/// let engine = fix_engine::Engine::start(settings, dicts, |_, _| App).await?;
/// # Ok(()) }
/// ```
#[derive(Debug, Default)]
pub struct FileDictionaries {
    read: Mutex<HashMap<PathBuf, FileDictionary>>,
}

impl FileDictionaries {
    /// A source that has read nothing yet.
    ///
    /// ```
    /// let _ = fix_engine::FileDictionaries::new();
    /// ```
    pub fn new() -> FileDictionaries {
        FileDictionaries::default()
    }

    fn read(&self, settings: &SessionSettings, path: &Path) -> Result<FileDictionary, EngineError> {
        // Held across a read of the file: each is read once, and only when a
        // session is made.
        let mut read = self.read.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(d) = read.get(path) {
            return Ok(d.clone());
        }
        let d = FileDictionary::read(path).map_err(|e| {
            EngineError::from(EngineErrorKind::Dictionary {
                id: settings.session.id.clone(),
                path: path.to_owned(),
                message: e.to_string().trim_end().to_owned(),
            })
        })?;
        read.insert(path.to_owned(), d.clone());
        Ok(d)
    }
}

impl DictionarySource<FileDictionary> for FileDictionaries {
    fn dictionaries(
        &self,
        settings: &SessionSettings,
    ) -> Result<Dictionaries<FileDictionary>, EngineError> {
        let paths = &settings.dictionaries;
        if let Some(path) = &paths.data_dictionary {
            return Ok(Dictionaries::single(self.read(settings, path)?));
        }
        if let Some(path) = &paths.transport {
            let mut dicts = Dictionaries::new(self.read(settings, path)?);
            for (appl_ver_id, path) in &paths.app {
                dicts = dicts.with_app(appl_ver_id, self.read(settings, path)?);
            }
            return Ok(dicts);
        }
        Err(EngineError::from(EngineErrorKind::Dictionary {
            id: settings.session.id.clone(),
            path: PathBuf::new(),
            message: "the session names no DataDictionary or TransportDataDictionary".into(),
        }))
    }
}
