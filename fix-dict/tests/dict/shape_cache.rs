//! `Validator::validate_cached` must give exactly `Validator::validate`'s answer.
//! The corpus messages (`../shared/corpus`) warm a cache; then their values, tags
//! and group counts are mutated at random, and every mutant gets the same verdict
//! both ways, against our `spec/FIX44.xml`.

use fix_core::validate::{Echo, Invalid, Reject, SessionRejectReason, ShapeCache, Validator};
use fix_core::{Fields, Parser, Status};
use fix_dict::Dictionary;
use proptest::prelude::*;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn dict() -> &'static Dictionary {
    static DICT: OnceLock<Dictionary> = OnceLock::new();
    DICT.get_or_init(|| Dictionary::from_path(root().join("spec/FIX44.xml")).unwrap())
}

/// A message as `(tag, value)` pairs, header and trailer included.
type Fieldset = Vec<(u32, Vec<u8>)>;

/// The corpus messages.
fn corpus() -> &'static [Fieldset] {
    static CORPUS: OnceLock<Vec<Fieldset>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        [
            "execution_report",
            "new_order_single",
            "md_incremental_refresh",
            "heartbeat",
            "logon_rawdata",
        ]
        .iter()
        .map(|stem| {
            let bytes = fix_test_support::files::corpus_message(stem);
            let mut fields = Fields::<256>::new();
            let msg = Parser::new()
                .parse(&bytes, &mut fields)
                .unwrap()
                .complete()
                .unwrap();
            msg.iter().map(|(t, v)| (t, v.to_vec())).collect()
        })
        .collect()
    })
}

/// A well-framed message from fields (BodyLength and CheckSum recomputed).
fn wire(fields: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let mut body = Vec::new();
    for (tag, value) in fields.iter().filter(|(t, _)| ![8, 9, 10].contains(t)) {
        body.extend_from_slice(format!("{tag}=").as_bytes());
        body.extend_from_slice(value);
        body.push(1);
    }
    let mut out = format!("8=FIX.4.4\x019={}\x01", body.len()).into_bytes();
    out.extend_from_slice(&body);
    let sum = out.iter().fold(0u8, |s, &b| s.wrapping_add(b));
    out.extend_from_slice(format!("10={sum:03}\x01").as_bytes());
    out
}

/// Both verdicts on `bytes`, through one warm cache.
/// Mutants validated, and those that did not parse (so never reached validation).
static TRIED: AtomicUsize = AtomicUsize::new(0);
static UNPARSED: AtomicUsize = AtomicUsize::new(0);

/// Validates `bytes` plainly and through `cache`, asserts the verdicts agree and
/// returns it (`None` when the message does not parse: framing and parse errors
/// never reach validation).
fn both(bytes: &[u8], cache: &mut ShapeCache<8, 128>, v: Validator) -> Option<Option<Invalid>> {
    let mut fields = Fields::<256>::new();
    let parser = Parser::new().with_empty_values(true);
    TRIED.fetch_add(1, Ordering::Relaxed);
    let Ok(Status::Complete(msg)) = parser.parse(bytes, &mut fields) else {
        UNPARSED.fetch_add(1, Ordering::Relaxed);
        return None;
    };
    let plain = v.validate(dict(), &msg);
    let cached = v.validate_cached(dict(), &msg, cache);
    assert_eq!(plain, cached, "{}", bytes.escape_ascii());
    // And again, now that a passing shape is remembered.
    assert_eq!(plain, v.validate_cached(dict(), &msg, cache));
    Some(plain.err())
}

fn warm(v: Validator) -> ShapeCache<8, 128> {
    let mut cache = ShapeCache::new();
    for fields in corpus() {
        assert!(
            both(&wire(fields), &mut cache, v).is_some(),
            "the corpus parses"
        );
    }
    cache
}

#[test]
fn the_corpus_passes_and_is_remembered() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let cache = warm(Validator::new());
    assert_eq!(cache.len(), corpus().len());
}

/// Values a mutation writes: empty, numbers, dates, enumeration-like letters.
fn value() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(Vec::new()),
        prop::collection::vec(prop::sample::select(b"0123456789.-".to_vec()), 1..20),
        prop::collection::vec(prop::sample::select(b"0129ABZaz -:".to_vec()), 1..4),
        Just(b"20261130-14:03:27.123".to_vec()),
        Just(b"20260231-14:03:27".to_vec()),
    ]
}

#[derive(Clone, Debug)]
enum Mutation {
    /// Replace the value of the field at this index (modulo the message's length).
    Value(usize, Vec<u8>),
    /// Replace the tag of the field at this index.
    Tag(usize, u32),
    /// Swap the field with the next one.
    Swap(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), value()).prop_map(|(i, v)| Mutation::Value(i, v)),
        1 => (any::<usize>(), prop::sample::select(vec![1u32, 11, 34, 44, 54, 55, 268, 269, 453, 5001, 9999]))
            .prop_map(|(i, t)| Mutation::Tag(i, t)),
        1 => any::<usize>().prop_map(Mutation::Swap),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn cached_and_plain_verdicts_agree(
        which in 0usize..5,
        mutations in prop::collection::vec(mutation(), 1..4),
        switches in any::<[bool; 4]>(),
    ) {
        fix_test_support::require_fixture!(fix_test_support::files::corpus_dir(), Ok(()));
        let v = Validator::new()
            .validate_fields_out_of_order(switches[0])
            .validate_fields_have_values(switches[1])
            .validate_user_defined_fields(switches[2])
            .allow_unknown_msg_fields(switches[3]);
        let mut cache = warm(v);
        let mut fields = corpus()[which].clone();
        // Leave 8, 9, 35 and 10 alone: the mutants stay well-framed messages.
        let body = 3..fields.len() - 1;
        let pick = |i: usize| body.start + i % body.len();
        for m in mutations {
            match m {
                Mutation::Value(i, value) => fields[pick(i)].1 = value,
                Mutation::Tag(i, tag) => fields[pick(i)].0 = tag,
                Mutation::Swap(i) => {
                    let i = pick(i);
                    if i + 1 < body.end {
                        fields.swap(i, i + 1);
                    }
                }
            }
            let _ = both(&wire(&fields), &mut cache, v);
        }
        // Mutants that do not parse test nothing here: they must stay few.
        let (tried, unparsed) = (TRIED.load(Ordering::Relaxed), UNPARSED.load(Ordering::Relaxed));
        prop_assert!(tried < 200 || unparsed * 4 < tried, "{unparsed} of {tried} mutants did not parse");
    }
}

#[test]
fn a_group_count_that_no_longer_matches_is_caught() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let v = Validator::new();
    let mut cache = warm(v);
    let mut fields = corpus()[2].clone();
    let counter = fields.iter().position(|(t, _)| *t == 268).unwrap();
    fields[counter].1 = b"9".to_vec();
    assert_eq!(
        both(&wire(&fields), &mut cache, v),
        Some(Some(Invalid::Reject(Reject {
            reason: SessionRejectReason::IncorrectNumInGroupCount,
            ref_tag: Some(268),
            ref_msg_type: Echo::new(b"X"),
        })))
    );
}

/// A cache smaller than the set of shapes evicts the oldest, keeps giving the plain
/// walk's verdicts, and remembers an evicted shape again when it comes back.
#[test]
fn a_full_cache_evicts_and_still_agrees() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let v = Validator::new();
    let mut cache = ShapeCache::<2, 128>::new();
    let mut fields = Fields::<256>::new();
    let mut verdicts = |cache: &mut ShapeCache<2, 128>, which: usize, side: &[u8]| {
        let mut set = corpus()[which].clone();
        if let Some(f) = set.iter_mut().find(|(t, _)| *t == 54) {
            f.1 = side.to_vec();
        }
        let bytes = wire(&set);
        let msg = Parser::new()
            .parse(&bytes, &mut fields)
            .unwrap()
            .complete()
            .unwrap();
        let plain = v
            .validate(dict(), &msg)
            .err()
            .map(|e| *e.reject().expect("a Reject"))
            .map(|r| (r.reason, r.ref_tag));
        let cached = v
            .validate_cached(dict(), &msg, cache)
            .err()
            .map(|e| *e.reject().expect("a Reject"))
            .map(|r| (r.reason, r.ref_tag));
        assert_eq!(plain, cached);
        plain
    };
    // ExecutionReport, NewOrderSingle, then MarketDataIncrementalRefresh: the
    // third shape evicts the first.
    for which in [0, 1, 2] {
        assert_eq!(verdicts(&mut cache, which, b"1"), None);
    }
    assert_eq!(cache.len(), 2);
    // The evicted ExecutionReport is walked in full again: a bad Side is caught,
    // then a good one is remembered again.
    let bad = Some((SessionRejectReason::ValueIncorrect, Some(54)));
    assert_eq!(verdicts(&mut cache, 0, b"Z"), bad);
    assert_eq!(verdicts(&mut cache, 0, b"2"), None);
    assert_eq!(cache.len(), 2);
    // And through the remembered shape, the bad value is still caught.
    assert_eq!(verdicts(&mut cache, 0, b"Z"), bad);
}

/// A message of more fields than a shape holds is validated by the full walk and
/// not remembered; more fields than the parser's storage is a typed error.
#[test]
fn messages_past_the_limits() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let v = Validator::new();
    let er = wire(&corpus()[0]);
    let mut fields = Fields::<256>::new();
    let msg = Parser::new()
        .parse(&er, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let mut small = ShapeCache::<4, 8>::new();
    assert!(msg.fields().len() > 8);
    assert_eq!(v.validate_cached(dict(), &msg, &mut small), Ok(()));
    assert_eq!(small.len(), 0, "a shape past F fields is not kept");

    let mut few = Fields::<8>::new();
    assert_eq!(
        Parser::new().parse(&er, &mut few).err(),
        Some(fix_core::Error::TooManyFields { capacity: 8 })
    );
}
