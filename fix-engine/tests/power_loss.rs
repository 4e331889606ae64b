//! Durable before it leaves, seen from the kernel: a whole engine pair (an
//! acceptor answering each order, an initiator sending them in bursts and
//! one at a time with `send_now`) runs in a child process under `strace`,
//! which records every mapping of the store logs, every `msync` and every
//! socket write with its bytes and times. After the run the stores' logs are
//! read back: each message that reached a socket must lie, whole, in ranges
//! of its sender's log that an `msync` had finished syncing before the write
//! began. A SIGKILL leaves the page cache and so cannot tell a sync from
//! none; a power loss can, and this is what it would find.
//!
//! With the engine's shared log (`FileStoreShared=Y`, the default) the trace
//! has each `pwrite64` of a segment and each `fdatasync` of it instead: a
//! record is durable when an `fdatasync` that began after its write ended
//! has finished. With a log per session (`FileStoreShared=N`), the msyncs of
//! its mapping.
//!
//! The same run with `FileStoreSync=N` (the sync removed) must fail the
//! check for every message, so the check can fail.
//!
//! Needs `strace` (`.ci/run` installs it).

mod common;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::{Event, acceptor, expect, initiator, port_of, start};
use fix_engine::SendError;
use fix_session::SessionId;
use fix_test_support::temp_dir::TestDir;
use tokio::sync::mpsc;

const ROLE: &str = "FIX_ENGINE_POWER_LOSS_ROLE";
const DIR: &str = "FIX_ENGINE_POWER_LOSS_DIR";
const SYNC: &str = "FIX_ENGINE_POWER_LOSS_SYNC";

/// Orders sent through the queue, in bursts of [`BURST`].
const QUEUED: usize = 300;
const BURST: usize = 30;
/// Orders sent one at a time with `send_now`, each answered before the next.
const DIRECT: usize = 40;

fn acceptor_id() -> SessionId {
    SessionId::new("FIX.4.4", "EXEC", "C1")
}

fn initiator_id() -> SessionId {
    SessionId::new("FIX.4.4", "C1", "EXEC")
}

/// The child: both engines, file stores in `DIR`, synced as `SYNC` says.
#[test]
fn child() {
    let (Ok(_), Ok(dir), Ok(sync)) = (std::env::var(ROLE), std::env::var(DIR), std::env::var(SYNC))
    else {
        return;
    };
    let policy = match sync.as_str() {
        "N" => fix_session::SyncPolicy::Os,
        _ => fix_session::SyncPolicy::EveryRecord,
    };
    let shared = sync != "file";
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(exchange(Path::new(&dir), policy, shared));
}

async fn exchange(dir: &Path, policy: fix_session::SyncPolicy, shared: bool) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let exec = start(
        [acceptor("EXEC", "C1", 0)
            .file_store_path(dir)
            .file_store_sync(policy)
            .file_store_shared(shared)],
        &tx,
        true,
    )
    .await;
    let port = port_of(&exec);
    let client = start(
        [initiator("C1", "EXEC", port)
            .file_store_path(dir)
            .file_store_sync(policy)
            .file_store_shared(shared)],
        &tx,
        false,
    )
    .await;
    expect(&mut rx, &initiator_id(), &Event::Logon, 10).await;
    let handle = client.session(&initiator_id()).unwrap();
    for burst in 0..QUEUED / BURST {
        for i in 0..BURST {
            handle
                .send(b"D", &common::order(&format!("Q{burst}-{i}")))
                .unwrap();
        }
        answered(&mut rx, BURST).await;
    }
    for i in 0..DIRECT {
        loop {
            match handle.send_now(b"D", &common::order(&format!("N{i}"))) {
                Ok(()) => break,
                Err(SendError::Full) => tokio::time::sleep(Duration::from_millis(1)).await,
                Err(e) => panic!("{e}"),
            }
        }
        answered(&mut rx, 1).await;
    }
    client.shutdown(Duration::from_secs(5)).await.unwrap();
    exec.shutdown(Duration::from_secs(5)).await.unwrap();
    let _ = acceptor_id();
}

/// Waits for `n` answers to reach the initiator.
async fn answered(rx: &mut mpsc::UnboundedReceiver<(SessionId, Event)>, n: usize) {
    let mut seen = 0;
    while seen < n {
        let (id, event) = common::next(rx, 10).await;
        if id == initiator_id() && matches!(event, Event::App { .. }) {
            seen += 1;
        }
    }
}

/// One system call of the trace: its thread, entry time, name, arguments
/// and result as printed, and its end time (entry + duration).
#[derive(Debug)]
struct Call {
    /// The thread that made it.
    tid: String,
    start: f64,
    end: f64,
    name: String,
    args: String,
    result: String,
}

/// Reads strace's `-f -ttt -T` output, joining calls split into
/// `<unfinished ...>` and `<... resumed>` halves.
fn calls(trace: &str) -> Vec<Call> {
    let mut open: HashMap<String, (f64, String, String)> = HashMap::new();
    let mut out = Vec::new();
    for line in trace.lines() {
        // `PID TIME CALL...`: strace pads the PID with spaces to five places.
        let Some((pid, line)) = line.trim_start().split_once(' ') else {
            continue;
        };
        let Some((ts, rest)) = line.trim_start().split_once(' ') else {
            continue;
        };
        let Ok(ts) = ts.parse::<f64>() else { continue };
        if let Some(head) = rest.strip_suffix(" <unfinished ...>") {
            let Some((name, args)) = head.split_once('(') else {
                continue;
            };
            open.insert(pid.to_owned(), (ts, name.to_owned(), args.to_owned()));
            continue;
        }
        let (start, name, args, tail) = if let Some(resumed) = rest.strip_prefix("<... ") {
            let Some((name, tail)) = resumed.split_once(" resumed>") else {
                continue;
            };
            let Some((start, _, args)) = open.remove(pid) else {
                continue;
            };
            (start, name.to_owned(), args + tail, ts)
        } else {
            let Some((name, args)) = rest.split_once('(') else {
                continue;
            };
            (ts, name.to_owned(), args.to_owned(), f64::NAN)
        };
        // `args` ends `) = RESULT <DURATION>`.
        let Some((args, result)) = args.rsplit_once(") = ") else {
            continue;
        };
        let (result, duration) = match result.rsplit_once(" <") {
            Some((r, d)) => (r, d.trim_end_matches('>').parse::<f64>().unwrap_or(0.0)),
            None => (result, 0.0),
        };
        let end = if tail.is_nan() {
            start + duration
        } else {
            tail
        };
        out.push(Call {
            tid: pid.to_owned(),
            start,
            end,
            name,
            args: args.to_owned(),
            result: result.to_owned(),
        });
    }
    out
}

/// The bytes of a string strace printed (its escapes undone).
fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        match b[i] {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'v' => out.push(0x0b),
            b'f' => out.push(0x0c),
            b'0'..=b'7' => {
                let mut v = 0u32;
                let mut n = 0;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + u32::from(b[i] - b'0');
                    i += 1;
                    n += 1;
                }
                out.push(v as u8);
                continue;
            }
            c => out.push(c),
        }
        i += 1;
    }
    out
}

/// The quoted string argument that starts `args`'s second argument.
fn buffer_arg(args: &str) -> Option<&str> {
    let start = args.find(", \"")? + 3;
    let rest = &args[start..];
    // The closing quote is the first one not escaped.
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(&rest[..i]),
            _ => i += 1,
        }
    }
    None
}

/// `fd<path>` in an argument: the path.
fn fd_path(arg: &str) -> Option<&str> {
    let open = arg.find('<')?;
    let close = arg.rfind('>')?;
    Some(&arg[open + 1..close])
}

fn hex(s: &str) -> u64 {
    u64::from_str_radix(s.trim().trim_start_matches("0x"), 16).unwrap()
}

/// What the trace shows: each log's byte ranges synced, with when each sync
/// ended, and each socket's bytes, with when each write began.
#[derive(Default)]
struct Seen {
    synced: HashMap<PathBuf, Vec<(f64, u64, u64)>>,
    sockets: BTreeMap<String, Vec<(f64, Vec<u8>)>>,
    /// The threads that synced the shared log's segments.
    sync_threads: std::collections::HashSet<String>,
    /// Socket writes made by those threads (the bytes a sync held back,
    /// written by the thread that synced them), and all socket writes.
    writes_by_sync_threads: usize,
    writes: usize,
}

fn seen(calls: &[Call]) -> Seen {
    // Live shared mappings of log files: address -> (file, file offset, length).
    let mut maps: BTreeMap<u64, (PathBuf, u64, u64)> = BTreeMap::new();
    // Writes to the shared log's segments: file -> (write ended, from, to).
    let mut written: HashMap<PathBuf, Vec<(f64, u64, u64)>> = HashMap::new();
    let mut seen = Seen::default();
    for call in calls {
        let args: Vec<&str> = call.args.split(", ").collect();
        match call.name.as_str() {
            "pwrite64" if call.args.contains(".seg>") => {
                // `fd<path>, "bytes", count, offset`: the buffer may hold
                // ", ", so the offset is taken from the end.
                let (Some(path), Ok(n), Some(Ok(off))) = (
                    fd_path(args[0]),
                    call.result.parse::<u64>(),
                    call.args
                        .rsplit(", ")
                        .next()
                        .map(|o| o.trim().parse::<u64>()),
                ) else {
                    continue;
                };
                written
                    .entry(PathBuf::from(path))
                    .or_default()
                    .push((call.end, off, off + n));
            }
            "fdatasync" if call.result == "0" && call.args.contains(".seg>") => {
                let path = PathBuf::from(fd_path(args[0]).unwrap_or_default());
                let covered: Vec<(f64, u64, u64)> = written
                    .get(&path)
                    .map_or(&[][..], Vec::as_slice)
                    .iter()
                    .filter(|(end, _, _)| *end <= call.start)
                    .map(|&(_, from, to)| (call.end, from, to))
                    .collect();
                seen.synced.entry(path).or_default().extend(covered);
                seen.sync_threads.insert(call.tid.clone());
            }
            "mmap" if call.args.contains("MAP_SHARED") && call.args.contains(".log>") => {
                let (Some(path), Ok(len), Ok(off)) = (
                    fd_path(args[4]),
                    args[1].parse::<u64>(),
                    u64::from_str_radix(args[5].trim_start_matches("0x"), 16)
                        .or_else(|_| args[5].parse::<u64>()),
                ) else {
                    continue;
                };
                maps.insert(hex(&call.result), (PathBuf::from(path), off, len));
            }
            "mremap" => {
                if let Some((path, off, _)) = maps.remove(&hex(args[0])) {
                    let len = args[2].parse().unwrap();
                    maps.insert(hex(&call.result), (path, off, len));
                }
            }
            "munmap" => {
                maps.remove(&hex(args[0]));
            }
            "msync" if call.result == "0" => {
                let (addr, len) = (hex(args[0]), args[1].parse::<u64>().unwrap());
                if let Some((&base, (path, off, map_len))) = maps.range(..=addr).next_back()
                    && addr + len <= base + map_len
                {
                    let from = off + (addr - base);
                    seen.synced
                        .entry(path.clone())
                        .or_default()
                        .push((call.end, from, from + len));
                }
            }
            "sendto" | "write" if call.args.contains("socket:[") => {
                let Ok(written) = call.result.parse::<usize>() else {
                    continue;
                };
                let Some(buf) = buffer_arg(&call.args) else {
                    continue;
                };
                let mut bytes = unescape(buf);
                bytes.truncate(written);
                let socket = fd_path(args[0]).unwrap_or_default().to_owned();
                seen.writes += 1;
                if seen.sync_threads.contains(&call.tid) {
                    seen.writes_by_sync_threads += 1;
                }
                seen.sockets
                    .entry(socket)
                    .or_default()
                    .push((call.start, bytes));
            }
            _ => {}
        }
    }
    seen
}

/// Where a message's record is: the file, its first byte and its end.
type Located = (PathBuf, u64, u64);

/// Each Message record of a session's own log: MsgSeqNum -> where, from the
/// format ARCHITECTURE.md documents (`len kind payload crc` after the 8-byte
/// magic).
fn records(log: &Path) -> HashMap<u64, Located> {
    let bytes = std::fs::read(log).unwrap();
    assert_eq!(&bytes[..8], b"FIXSLOG1");
    let mut at = 8usize;
    let mut out = HashMap::new();
    while at + 5 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        if len == 0 {
            break;
        }
        let end = at + 4 + len + 4;
        if bytes[at + 4] == 1 {
            let seq = u64::from_le_bytes(bytes[at + 5..at + 13].try_into().unwrap());
            out.insert(seq, (log.to_path_buf(), at as u64, end as u64));
        }
        at = end;
    }
    out
}

/// Each Message record of the shared log's segments, by session name and
/// MsgSeqNum, from its format (`len kind session payload crc` after a
/// 16-byte header; a Reset's payload names its session after 16 bytes).
fn shared_records(dir: &Path) -> HashMap<String, HashMap<u64, Located>> {
    let mut segments: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "seg"))
        .collect();
    segments.sort();
    let mut names: HashMap<u32, String> = HashMap::new();
    let mut out: HashMap<String, HashMap<u64, Located>> = HashMap::new();
    for path in segments {
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[..8], b"FIXSHLG1");
        let mut at = 16usize;
        while at + 9 <= bytes.len() {
            let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            if len == 0 {
                break;
            }
            let end = at + 4 + len + 4;
            let session = u32::from_le_bytes(bytes[at + 5..at + 9].try_into().unwrap());
            let payload = &bytes[at + 9..end - 4];
            match bytes[at + 4] {
                4 => {
                    names.insert(session, String::from_utf8(payload[16..].to_vec()).unwrap());
                }
                1 => {
                    let seq = u64::from_le_bytes(payload[..8].try_into().unwrap());
                    out.entry(names[&session].clone())
                        .or_default()
                        .insert(seq, (path.clone(), at as u64, end as u64));
                }
                _ => {}
            }
            at = end;
        }
    }
    out
}

/// Whether `[from, to)` lies within ranges that syncs ending before `t` covered.
fn durable_at(syncs: &[(f64, u64, u64)], t: f64, from: u64, to: u64) -> bool {
    let mut ranges: Vec<(u64, u64)> = syncs
        .iter()
        .filter(|(end, _, _)| *end <= t)
        .map(|&(_, a, b)| (a, b))
        .collect();
    ranges.sort_unstable();
    let mut reach = from;
    for (a, b) in ranges {
        if a > reach {
            break;
        }
        reach = reach.max(b);
        if reach >= to {
            return true;
        }
    }
    reach >= to
}

fn field(msg: &[u8], tag: &str) -> Option<String> {
    let key = format!("\x01{tag}=");
    let at = msg.windows(key.len()).position(|w| w == key.as_bytes())? + key.len();
    let end = msg[at..].iter().position(|&b| b == 1)? + at;
    Some(String::from_utf8_lossy(&msg[at..end]).into_owned())
}

/// Runs the child under strace with `FileStoreSync=sync`; returns how many
/// messages reached a socket and those (sender, MsgSeqNum) that did so
/// before a finished sync covered their record.
fn traced_run(sync: &str) -> (usize, Vec<(String, u64)>) {
    let (checked, early, _) = traced_run_seen(sync);
    (checked, early)
}

/// [`traced_run`], and how many socket writes the shared log's sync
/// threads made, of how many.
fn traced_run_seen(sync: &str) -> (usize, Vec<(String, u64)>, (usize, usize)) {
    let dir = TestDir::new(&format!("power-loss-{sync}"));
    let trace = dir.join("trace");
    let status = Command::new("strace")
        .args(["-f", "-qq", "-ttt", "-T", "-y", "-s", "100000000"])
        .args([
            "-e",
            "trace=mmap,mremap,munmap,msync,pwrite64,fdatasync,sendto,write,writev",
        ])
        .arg("-o")
        .arg(&trace)
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", "child", "--nocapture", "--test-threads=1", "-q"])
        .env(ROLE, "child")
        .env(DIR, &dir)
        .env(SYNC, sync)
        .status()
        .expect("strace runs (apt-get install strace)");
    assert!(status.success(), "the traced child failed: {status}");
    let trace = std::fs::read_to_string(&trace).unwrap();
    let seen = seen(&calls(&trace));
    let senders = [("EXEC", "FIX.4.4-EXEC-C1"), ("C1", "FIX.4.4-C1-EXEC")];
    let mut shared = if sync != "Y" {
        HashMap::new()
    } else {
        shared_records(&dir.join("shared-log"))
    };
    let stored: HashMap<String, HashMap<u64, Located>> = senders
        .into_iter()
        .map(|(sender, stem)| {
            let records = match shared.remove(stem) {
                Some(records) => records,
                None => records(&dir.join(format!("{stem}.log"))),
            };
            (sender.to_owned(), records)
        })
        .collect();
    let mut checked = 0;
    let mut early = Vec::new();
    for writes in seen.sockets.values() {
        // The socket's byte stream, with when each byte's write began.
        let mut stream = Vec::new();
        let mut began = Vec::new();
        for (t, bytes) in writes {
            stream.extend_from_slice(bytes);
            began.extend(std::iter::repeat_n(*t, bytes.len()));
        }
        let starts: Vec<usize> = (0..stream.len())
            .filter(|&i| stream[i..].starts_with(b"8=FIX.4.4\x01"))
            .collect();
        for (k, &at) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(stream.len());
            let msg = &stream[at..end];
            let (Some(sender), Some(seq)) = (field(msg, "49"), field(msg, "34")) else {
                panic!("a message without SenderCompID or MsgSeqNum: {msg:?}");
            };
            let seq: u64 = seq.parse().unwrap();
            let (path, from, to) = &stored[&sender][&seq];
            let syncs = seen.synced.get(path).map_or(&[][..], Vec::as_slice);
            checked += 1;
            if !durable_at(syncs, began[at], *from, *to) {
                early.push((sender, seq));
            }
        }
    }
    (checked, early, (seen.writes_by_sync_threads, seen.writes))
}

#[test]
fn no_message_reaches_the_socket_before_an_fdatasync_of_the_shared_log_covering_its_record() {
    if std::env::var(ROLE).is_ok() {
        return;
    }
    let (checked, early, (by_sync, writes)) = traced_run_seen("Y");
    let orders = QUEUED + DIRECT;
    assert!(checked >= 2 * orders + 4, "{checked} messages seen");
    assert_eq!(early, [], "sent before a sync covered them");
    println!("power loss: {checked} messages sent, each after an fdatasync covering its record");
    // The bytes a sync held back leave from the thread that synced them
    // (no wake-up of the connection's task in between), where nothing
    // else of the connection's waits before them.
    println!("power loss: {by_sync} of {writes} socket writes made by the sync thread");
    assert!(by_sync > 0, "the sync thread wrote none of {writes} writes");
}

#[test]
fn no_message_reaches_the_socket_before_an_msync_covering_its_record() {
    if std::env::var(ROLE).is_ok() {
        return;
    }
    let (checked, early) = traced_run("file");
    // Both sides' Logons, every order and its answer, the Logouts.
    let orders = QUEUED + DIRECT;
    assert!(checked >= 2 * orders + 4, "{checked} messages seen");
    assert_eq!(early, [], "sent before a sync covered them");
    println!("power loss: {checked} messages sent, each after an msync covering its record");
}

#[test]
fn without_the_sync_every_message_fails_the_check() {
    if std::env::var(ROLE).is_ok() {
        return;
    }
    let (checked, early) = traced_run("N");
    assert!(
        checked >= 2 * (QUEUED + DIRECT) + 4,
        "{checked} messages seen"
    );
    assert_eq!(
        early.len(),
        checked,
        "FileStoreSync=N: no msync covers any message"
    );
}
