//! fixdump reads its input in a bounded buffer: its peak resident memory on a
//! large log is that on a small one (Linux: the peak is read with `wait4`).
#![cfg(target_os = "linux")]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use fix_test_support::temp_dir::TestDir;

/// A few MiB of slack for the allocator; reading the large log whole would
/// add at least its size.
const SLACK_KIB: libc::c_long = 4 << 10;
/// The small log: twice fixdump's 4 MiB read buffer, so that the buffer is used
/// whole in both runs.
const SMALL: usize = 8 << 20;
/// The large log: five times the small one (about 250 k messages). A bigger log
/// would take longer in a debug build (about 6 MB/s).
const LARGE: usize = 40 << 20;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What a finished fixdump run left: its peak RSS and its output's last line.
struct Run {
    peak_kib: libc::c_long,
    tally: String,
}

/// Starts fixdump on `log`; [`finish`] waits for it.
fn start(log: &Path) -> (std::process::Child, std::thread::JoinHandle<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fixdump"))
        .arg(log)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("fixdump runs");
    // Read the output as it comes (hundreds of MB), keeping the tail.
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let (mut tail, mut chunk) = (Vec::new(), vec![0; 1 << 16]);
        loop {
            let n = stdout.read(&mut chunk).expect("fixdump's output is read");
            if n == 0 {
                break;
            }
            tail.extend_from_slice(&chunk[..n]);
            let keep = tail.len().saturating_sub(4096);
            tail.drain(..keep);
        }
        let text = String::from_utf8_lossy(&tail).into_owned();
        text.lines().last().unwrap_or_default().to_owned()
    });
    (child, reader)
}

/// Reaps `child` with `wait4` for its resource usage (std's `wait` would not
/// give it, and `RUSAGE_CHILDREN` mixes in every child of this process).
fn finish((child, reader): (std::process::Child, std::thread::JoinHandle<String>)) -> Run {
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: `rusage` is plain integers (and structs of them); all zeroes is a
    // valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: the pointers are to live locals of the right types; `pid` is our
        // child, not yet reaped (std's `Child` is never waited on).
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            break;
        }
        let e = std::io::Error::last_os_error();
        assert_eq!(e.kind(), std::io::ErrorKind::Interrupted, "wait4: {e}");
    }
    drop(child);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "fixdump failed: wait status {status:#x}"
    );
    Run {
        peak_kib: usage.ru_maxrss, // KiB on Linux
        tally: reader.join().unwrap(),
    }
}

/// This process's peak RSS (`VmHWM`: its memory's own high-water mark, which
/// the spawned children inherit).
fn own_peak_kib() -> libc::c_long {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM in /proc/self/status");
    line.trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches(" kB")
        .parse()
        .expect(line)
}

/// The messages read, from the tally: `N messages shown of M read, …`.
fn read_count(tally: &str) -> u64 {
    let (_, rest) = tally.split_once(" of ").expect(tally);
    rest.split(' ').next().unwrap().parse().expect(tally)
}

#[test]
fn peak_memory_does_not_grow_with_the_log() {
    // Every input form, a raw SOH stream, broken messages and a noise line, over
    // and over: the scratch buffer for `|`/`^A` lines and the naive split are
    // exercised as well as the read buffer and the output.
    let mut block = Vec::new();
    for sample in [
        "session.log",
        "session-pipe.log",
        "session-caret.log",
        "session.fix",
    ] {
        block.extend(std::fs::read(root().join("samples").join(sample)).unwrap());
    }
    block.extend_from_slice(b"\nnot a FIX message\n");
    let dir = TestDir::new_in(env!("CARGO_TARGET_TMPDIR"), "fixdump-memory");
    // Written a block at a time: this process stays small (see below).
    let write = |name: &str, size: usize| {
        let path = dir.join(name);
        let mut file = std::fs::File::create(&path).unwrap();
        let blocks = size / block.len();
        for _ in 0..blocks {
            file.write_all(&block).unwrap();
        }
        (path, blocks as u64)
    };
    let (small, small_blocks) = write("small.log", SMALL);
    let (large, large_blocks) = write("large.log", LARGE);
    let (a, b) = (start(&small), start(&large));
    let ours = own_peak_kib();
    let (small_run, large_run) = (finish(a), finish(b));

    // A child's maximum RSS starts from the memory of the process it was spawned
    // from (Linux keeps the high-water mark across exec): were this process
    // larger than fixdump, both runs would read this process's peak.
    assert!(
        small_run.peak_kib > ours + 1024,
        "fixdump's {} KiB does not stand clear of this process's {ours} KiB",
        small_run.peak_kib
    );

    // Both logs were decoded to the end.
    let per_block = read_count(&small_run.tally) / small_blocks;
    assert!(per_block > 30, "{}", small_run.tally);
    assert_eq!(
        read_count(&large_run.tally),
        per_block * large_blocks,
        "{}",
        large_run.tally
    );
    assert!(
        large_run.peak_kib <= small_run.peak_kib + SLACK_KIB,
        "fixdump's peak RSS grows with the log: {} KiB on {} MiB, {} KiB on {} MiB",
        small_run.peak_kib,
        SMALL >> 20,
        large_run.peak_kib,
        LARGE >> 20
    );
    eprintln!(
        "peak RSS: {} KiB on {} MiB, {} KiB on {} MiB ({} messages; this process: {ours} KiB)",
        small_run.peak_kib,
        SMALL >> 20,
        large_run.peak_kib,
        LARGE >> 20,
        per_block * large_blocks
    );
}
