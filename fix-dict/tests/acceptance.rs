//! QuickFIX's acceptance scripts for message validation, run through our validator:
//! each offending message of `server/fix44/14*.def`, `server/fix44/2q*.def` and
//! `server/future/14*.def` must get the SessionRejectReason, RefTagID, RefMsgType and
//! text the script expects, and each message the script expects echoed must pass.
//!
//! The scripts are read from `../shared/reference/quickfix/acceptance` (read-only
//! fixtures, never copied here); the dictionary is our `spec/FIX44.xml`, or
//! QuickFIX's FIX42.xml for the FIX 4.2 scripts.

use std::path::{Path, PathBuf};

use fix_core::validate::{Echo, Invalid, Reject, Validator};
use fix_core::{Fields, Parser, Status};
use fix_dict::Dictionary;
use fix_test_support::alloc::{Counting, allocations_during};

fn shared() -> PathBuf {
    fix_test_support::files::quickfix_dir()
}

/// One `I` message and the `E` message the engine must answer with.
struct Case {
    script: String,
    line: usize,
    input: Vec<u8>,
    expected: Vec<(u32, String)>,
}

/// `(tag, value)` pairs of a script message (SOH-separated, no 9/10 needed).
fn fields_of(text: &[u8]) -> Vec<(u32, String)> {
    text.split(|&b| b == 1)
        .filter(|f| !f.is_empty())
        .filter_map(|f| {
            let f = String::from_utf8_lossy(f);
            let (tag, value) = f.split_once('=')?;
            Some((tag.parse().ok()?, value.to_string()))
        })
        .collect()
}

/// The runner's rewriting: `<TIME>` becomes a time, BodyLength and CheckSum added.
fn wire(script_msg: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(script_msg).replace("<TIME>", "20261130-14:03:27");
    let bytes = text.into_bytes();
    let first_soh = bytes.iter().position(|&b| b == 1).expect("8= field");
    let (begin, body) = bytes.split_at(first_soh + 1);
    let mut out = begin.to_vec();
    out.extend_from_slice(format!("9={}\x01", body.len()).as_bytes());
    out.extend_from_slice(body);
    let sum = out.iter().fold(0u8, |s, &b| s.wrapping_add(b));
    out.extend_from_slice(format!("10={sum:03}\x01").as_bytes());
    out
}

fn cases(script: &Path) -> Vec<Case> {
    let text = std::fs::read(script).unwrap();
    let name = script.file_name().unwrap().to_string_lossy().into_owned();
    let mut out = Vec::new();
    let mut pending: Option<(usize, Vec<u8>)> = None;
    for (n, line) in text.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if let Some(msg) = line.strip_prefix(b"I").filter(|m| m.starts_with(b"8=")) {
            pending = Some((n + 1, msg.to_vec()));
        } else if let Some(msg) = line.strip_prefix(b"E").filter(|m| m.starts_with(b"8=")) {
            let expected = fields_of(msg);
            let Some((line, input)) = pending.take() else {
                continue;
            };
            // Logon and Logout answers are the session's business, not validation's.
            let msg_type = &expected.iter().find(|(t, _)| *t == 35).unwrap().1;
            if !["A", "5"].contains(&msg_type.as_str()) {
                out.push(Case {
                    script: name.clone(),
                    line,
                    input: wire(&input),
                    expected,
                });
            }
        }
    }
    out
}

/// Our own `spec/FIX44.xml` for FIX.4.4; QuickFIX's FIX42.xml for the FIX.4.2
/// scripts (we have no FIX 4.2 dictionary of our own).
fn dictionary(begin_string: &[u8]) -> Dictionary {
    let path = match begin_string {
        b"FIX.4.2" => shared().join("spec/FIX42.xml"),
        b"FIX.4.4" => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec/FIX44.xml"),
        other => panic!("no dictionary for {}", String::from_utf8_lossy(other)),
    };
    Dictionary::from_path(path).unwrap()
}

/// Our verdict on one input: `None` for a valid message.
fn verdict(dict: &Dictionary, input: &[u8], fields: &mut [fix_core::Field]) -> Option<Invalid> {
    let parser = Parser::new().with_empty_values(true);
    match parser.parse(input, fields) {
        Ok(Status::Complete(msg)) => Validator::new().validate(dict, &msg).err(),
        Ok(Status::Partial { .. }) => panic!("incomplete input"),
        Err(e) => Some(Invalid::Reject(
            Reject::from_parse_error(&e, input).unwrap_or_else(|| panic!("{e}")),
        )),
    }
}

#[test]
fn validation_matches_the_acceptance_scripts() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let dir = shared().join("acceptance/server");
    let mut scripts: Vec<PathBuf> = ["fix44", "future"]
        .iter()
        .flat_map(|d| std::fs::read_dir(dir.join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("14") || name.starts_with("2q")
        })
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 12, "found {} scripts", scripts.len());

    let fix42 = dictionary(b"FIX.4.2");
    let fix44 = dictionary(b"FIX.4.4");
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut reasons = std::collections::BTreeSet::new();
    for script in &scripts {
        for case in cases(script) {
            let dict = if case.input.starts_with(b"8=FIX.4.2") {
                &fix42
            } else {
                &fix44
            };
            let mut fields = Fields::<128>::new();
            let got = verdict(dict, &case.input, &mut fields);
            let get = |tag: u32| {
                case.expected
                    .iter()
                    .find(|(t, _)| *t == tag)
                    .map(|(_, v)| v.clone())
            };
            let is_reject = get(35).as_deref() == Some("3");
            let wanted = is_reject.then(|| {
                (
                    get(58).unwrap(),
                    get(371).map(|t| t.parse::<i64>().unwrap()),
                    get(372).unwrap_or_default(),
                    get(373).map(|c| c.parse::<u32>().unwrap()),
                )
            });
            let ours = got.map(|e| match e {
                Invalid::Reject(r) => (
                    r.text().to_string(),
                    r.ref_tag,
                    r.ref_msg_type.to_string(),
                    Some(r.reason.code()),
                ),
                // Not a Reject at all: never what these scripts expect.
                Invalid::IncorrectBeginString { .. } => (e.to_string(), None, String::new(), None),
            });
            // FIX 4.2 scripts leave out 373 for reasons 4.2 does not have.
            let same = match (&wanted, &ours) {
                (Some((t, tag, mt, code)), Some((ot, otag, omt, ocode))) => {
                    t == ot && tag == otag && mt == omt && (code.is_none() || code == ocode)
                }
                (None, None) => true,
                _ => false,
            };
            if same && let Some((_, _, _, Some(code))) = &ours {
                reasons.insert(*code);
            }
            if !same {
                failures.push(format!(
                    "{}:{}: expected {wanted:?}, got {ours:?}",
                    case.script, case.line
                ));
            }
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= 19, "only {checked} cases");
    // Every reason QuickFIX's validation scripts exercise is matched.
    assert_eq!(
        reasons.into_iter().collect::<Vec<_>>(),
        [0, 1, 2, 4, 5, 6, 11, 13, 14, 15, 16, 17]
    );
}

// Counts only inside `allocations_during`, on its own thread: the other tests of
// this binary run beside it.
#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn validation_allocates_nothing() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let dict = dictionary(b"FIX.4.4");
    let messages: Vec<Vec<u8>> = fix_test_support::files::corpus()
        .into_iter()
        .map(|(_, bytes)| bytes)
        .collect();
    assert_eq!(messages.len(), 5, "the corpus has five messages");
    let mut fields = Fields::<128>::new();
    let validator = Validator::new();
    let allocations = allocations_during(|| {
        for _ in 0..10 {
            for m in &messages {
                let msg = Parser::new()
                    .parse(m, &mut fields)
                    .unwrap()
                    .complete()
                    .unwrap();
                assert_eq!(validator.validate(&dict, &msg), Ok(()));
            }
        }
    });
    assert_eq!(allocations, 0);
}

/// `2i_BeginStringValueUnexpected`: a message whose BeginString is not the
/// session's is answered with a Logout whose Text the script gives, not with a
/// Reject. The validator says so with a verdict of its own, for every such
/// message of the script, and the script's other messages are not flagged so.
#[test]
fn an_unexpected_begin_string_is_a_logout_not_a_reject() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let script = shared().join("acceptance/server/fix44/2i_BeginStringValueUnexpected.def");
    let text = std::fs::read(&script).unwrap();
    let dict = dictionary(b"FIX.4.4");
    let lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect();
    let mut wrong = 0;
    for (n, line) in lines.iter().enumerate() {
        let Some(msg) = line.strip_prefix(b"I").filter(|m| m.starts_with(b"8=")) else {
            continue;
        };
        let input = wire(msg);
        let mut fields = Fields::<64>::new();
        let got = verdict(&dict, &input, &mut fields);
        let is_wrong = matches!(got, Some(Invalid::IncorrectBeginString { .. }));
        assert_eq!(is_wrong, !input.starts_with(b"8=FIX.4.4"), "line {}", n + 1);
        if !is_wrong {
            continue;
        }
        wrong += 1;
        // The answer the script expects: a Logout with this Text.
        let answer = lines[n + 1..]
            .iter()
            .find_map(|l| l.strip_prefix(b"E").filter(|m| m.starts_with(b"8=")))
            .map(fields_of)
            .unwrap();
        let get = |tag| {
            answer
                .iter()
                .find(|(t, _)| *t == tag)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(get(35), Some("5"), "line {}", n + 1);
        let got = got.unwrap();
        assert_eq!((got.reject(), Some(got.text())), (None, get(58)));
        assert_eq!(
            got,
            Invalid::IncorrectBeginString {
                begin_string: Echo::new(b"FIX.4.1"),
                msg_type: Echo::new(b"1")
            }
        );
    }
    assert_eq!(wrong, 2, "the script sends two FIX.4.1 messages");
}
