//! `cargo xtask bench-report [--quickfix] [-- <criterion args>]`: times ours beside the
//! peers (`cargo bench -p fix-benches --features peers --bench peers`), counts
//! allocations per operation (`cargo run --profile bench -p fix-benches --features peers
//! --example allocs`), and writes `benches/RESULTS.md` with criterion's medians,
//! peer/ours ratios, allocations, the CPU model and the date.
//!
//! `--quickfix` builds every step with the features `peers,quickfix` instead, which adds
//! QuickFIX C++ to the decode + validate groups. It is a flag, not detected, because
//! building QuickFIX needs cmake and a C++ compiler and takes minutes: the default
//! report must not depend on them.
//!
//! If `valgrind` is on the PATH it also counts instructions per operation of every
//! case (`probe case all` under callgrind, one dump per case): unlike times, these
//! repeat exactly on a busy machine, so their ratios are the steadier comparison.
//!
//! It also runs the engine race (`cargo run --profile bench -p fix-benches --example
//! race`, with QuickFIX C++ under `--quickfix`; see [`crate::race`]) into its own
//! section. `--race-only` runs the race alone and replaces that section of the
//! existing `benches/RESULTS.md`, leaving the rest as it was.
//!
//! `--scale-only` runs the scale lane (`cargo run --profile bench -p fix-benches
//! --example scale`, its arguments after `--`; see [`crate::scale`]) and
//! replaces its section the same way, writing its percentile plot to
//! `benches/scale-latency.png`. It takes minutes at full size, so the full
//! report does not run it: it keeps the section the file had.
//!
//! Every step builds with the `bench` profile (`cargo bench`'s own, and
//! `--profile bench` for the rest): fat LTO and one codegen unit, set in the
//! root Cargo.toml apart from `release`, which is kept quick to build for
//! users. So the figures of every step come from the same code generation,
//! comparable from run to run, and one build of the workspace serves them all.
//!
//! Criterion's results are read from `target/criterion/**/new/{benchmark,estimates}.json`
//! with a small field extraction (the files are flat, machine-written JSON), keeping
//! only those written by this run.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use crate::{race, scale};

/// Short enough for a shared machine; the report quotes ratios, not absolute times.
const DEFAULT_CRITERION_ARGS: [&str; 4] = ["--warm-up-time", "1", "--measurement-time", "3"];
const ALLOC_ITERATIONS: &str = "1000";
/// `probe`'s timed loop runs 200 batches of this many operations.
const PROBE_N: u32 = 5;
const PROBE_BATCHES: u32 = 200;

/// The callgrind command shown in the report, and instructions per operation keyed
/// `group/lib`.
type Instructions = (String, HashMap<String, f64>);

/// One row of the allocation counter's output, in case order.
struct Case {
    group: String,
    lib: String,
    allocs: String,
    bytes: String,
    note: String,
}

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("xtask has no parent directory")?
        .to_path_buf();
    let (ours, criterion) = match args.iter().position(|a| a == "--") {
        Some(i) => (&args[..i], Some(&args[i + 1..])),
        None => (args, None),
    };
    let mut quickfix = false;
    let mut race_only = false;
    let mut scale_only = false;
    for arg in ours {
        match arg.as_str() {
            "--quickfix" => quickfix = true,
            "--race-only" => race_only = true,
            "--scale-only" => scale_only = true,
            _ => {
                return Err(format!(
                    "unexpected argument `{arg}`; criterion's go after `--`"
                ));
            }
        }
    }
    let criterion_args: Vec<String> = criterion.map_or_else(
        || DEFAULT_CRITERION_ARGS.map(String::from).to_vec(),
        <[String]>::to_vec,
    );
    let features = if quickfix { "peers,quickfix" } else { "peers" };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = root.join("benches/RESULTS.md");
    if scale_only {
        let args = criterion.unwrap_or_default();
        return scale_report(&cargo, &root, quickfix, args);
    }
    if race_only {
        let (race_cmd, race) = race::run(&cargo, &root, quickfix.then_some("quickfix"))?;
        let mut section = String::new();
        race::render(&mut section, &race, &race_cmd, &cpu_model(), &utc_now());
        let existing = match std::fs::read_to_string(&out) {
            Ok(s) => s,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("{}: {e}", out.display())),
        };
        std::fs::write(&out, race::splice(&existing, &section))
            .map_err(|e| format!("{}: {e}", out.display()))?;
        eprintln!("bench-report: wrote the race into {}", out.display());
        return Ok(());
    }
    let started = SystemTime::now();

    // The peers' own checks first: a peer that reads or writes differently from
    // ours fails here, before anything is timed (CI does not build the peers).
    let test = [
        "test",
        "--profile",
        "bench",
        "-p",
        "fix-benches",
        "--features",
        features,
        "--test",
        "peers",
    ];
    let test_cmd = format!("cargo {}", test.join(" "));
    eprintln!("bench-report: {test_cmd}");
    let status = Command::new(&cargo)
        .args(test)
        .current_dir(&root)
        .status()
        .map_err(|e| format!("{test_cmd}: {e}"))?;
    if !status.success() {
        return Err(format!("{test_cmd}: {status}"));
    }

    let mut bench = vec![
        "bench",
        "-p",
        "fix-benches",
        "--features",
        features,
        "--bench",
        "peers",
        "--",
    ];
    bench.extend(criterion_args.iter().map(String::as_str));
    let bench_cmd = format!("cargo {}", bench.join(" "));
    eprintln!("bench-report: {bench_cmd}");
    let status = Command::new(&cargo)
        .args(&bench)
        .current_dir(&root)
        .status()
        .map_err(|e| format!("{bench_cmd}: {e}"))?;
    if !status.success() {
        return Err(format!("{bench_cmd}: {status}"));
    }

    let allocs = [
        "run",
        "--profile",
        "bench",
        "-q",
        "-p",
        "fix-benches",
        "--features",
        features,
        "--example",
        "allocs",
        "--",
        ALLOC_ITERATIONS,
    ];
    let (allocs_cmd, stdout) = cargo_stdout(&cargo, &root, &allocs)?;
    let cases = parse_allocs(&stdout)?;

    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let mut medians = HashMap::new();
    collect_medians(&target.join("criterion"), started, &mut medians)?;
    let instructions = count_instructions(&cargo, &root, &target, features)?;
    // After the criterion runs, not beside them: the race wants both cores.
    let (race_cmd, race) = race::run(&cargo, &root, Some(features))?;

    let mut report = render(
        &cases,
        &medians,
        instructions.as_ref(),
        &bench_cmd,
        &allocs_cmd,
        quickfix,
    )?;
    report.push('\n');
    race::render(&mut report, &race, &race_cmd, &cpu_model(), &utc_now());
    // The scale lane is not rerun here (it takes minutes): its last section stays.
    if let Some(kept) = std::fs::read_to_string(&out)
        .ok()
        .as_deref()
        .and_then(scale::section)
    {
        report.push('\n');
        report.push_str(kept);
    }
    std::fs::write(&out, report).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("bench-report: wrote {}", out.display());
    Ok(())
}

/// Runs the scale lane with `args` and replaces its section of
/// `benches/RESULTS.md` (appended if it has none), and its plot.
fn scale_report(cargo: &str, root: &Path, quickfix: bool, args: &[String]) -> Result<(), String> {
    let out = root.join("benches/RESULTS.md");
    let (cmd, lane) = scale::run(cargo, root, quickfix.then_some("quickfix"), args)?;
    let plotted = match scale::plot(&lane, None) {
        Some((caption, png)) => {
            let path = root.join("benches").join(scale::PLOT);
            std::fs::write(&path, png).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!("bench-report: wrote {}", path.display());
            Some(caption)
        }
        None => None,
    };
    let mut section = String::new();
    scale::render(
        &mut section,
        &lane,
        &cmd,
        &cpu_model(),
        &utc_now(),
        plotted.as_deref(),
    );
    let existing = match std::fs::read_to_string(&out) {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("{}: {e}", out.display())),
    };
    std::fs::write(&out, race::splice_at(&existing, scale::HEADING, &section))
        .map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("bench-report: wrote the scale lane into {}", out.display());
    Ok(())
}

/// Instructions per operation of every case, keyed `group/lib`, or `None` without
/// valgrind.
fn count_instructions(
    cargo: &str,
    root: &Path,
    target: &Path,
    features: &str,
) -> Result<Option<Instructions>, String> {
    let has_valgrind = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_valgrind {
        eprintln!("bench-report: no valgrind, so no instruction counts");
        return Ok(None);
    }
    let build = [
        "build",
        "--profile",
        "bench",
        "-q",
        "-p",
        "fix-benches",
        "--features",
        features,
        "--example",
        "probe",
    ];
    eprintln!("bench-report: cargo {}", build.join(" "));
    let status = Command::new(cargo)
        .args(build)
        .current_dir(root)
        .status()
        .map_err(|e| format!("cargo build probe: {e}"))?;
    if !status.success() {
        return Err(format!("cargo {}: {status}", build.join(" ")));
    }
    let dir = target.join("callgrind-peers");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let out = dir.join("out");
    let n = PROBE_N.to_string();
    let args = [
        "--tool=callgrind".to_owned(),
        "--toggle-collect=probe::timed_loop".to_owned(),
        "--dump-before=probe::timed_loop".to_owned(),
        format!("--callgrind-out-file={}", out.display()),
        target.join("release/examples/probe").display().to_string(),
        "case".to_owned(),
        "all".to_owned(),
        n,
    ];
    let cmd = format!("valgrind {}", args.join(" "));
    eprintln!("bench-report: {cmd}");
    let output = Command::new("valgrind")
        .args(&args)
        .current_dir(root)
        .output()
        .map_err(|e| format!("{cmd}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{cmd}: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    // Dump k+1 holds case k (dump 1 is everything before the first timed loop);
    // the last case is in the final dump, `out` itself.
    let ids: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|l| l.split('\t').next().map(str::to_owned))
        .collect();
    let ops = f64::from(PROBE_N * PROBE_BATCHES);
    let mut counts = HashMap::new();
    for (i, id) in ids.iter().enumerate() {
        let file = if i + 1 == ids.len() {
            out.clone()
        } else {
            dir.join(format!("out.{}", i + 2))
        };
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let total: f64 = text
            .lines()
            .find_map(|l| {
                l.strip_prefix("summary:")
                    .or_else(|| l.strip_prefix("totals:"))
            })
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| format!("{}: no summary line", file.display()))?;
        counts.insert(id.clone(), total / ops);
    }
    let shown = format!(
        "valgrind --tool=callgrind --toggle-collect=probe::timed_loop --dump-before=probe::timed_loop target/release/examples/probe case all {PROBE_N}"
    );
    Ok(Some((shown, counts)))
}

fn parse_allocs(text: &str) -> Result<Vec<Case>, String> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let mut it = l.splitn(5, '\t').map(str::to_owned);
            let mut next = || it.next().ok_or_else(|| format!("bad allocs line: {l}"));
            Ok(Case {
                group: next()?,
                lib: next()?,
                allocs: next()?,
                bytes: next()?,
                note: next()?,
            })
        })
        .collect()
}

/// Finds every `new/` directory under `dir` written since `since` and records its
/// median (ns) under `(group_id, function_id)`.
fn collect_medians(
    dir: &Path,
    since: SystemTime,
    out: &mut HashMap<(String, String), f64>,
) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "new") {
            let estimates = path.join("estimates.json");
            let fresh = std::fs::metadata(&estimates)
                .and_then(|m| m.modified())
                .is_ok_and(|t| t >= since);
            if !fresh {
                continue;
            }
            let read =
                |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
            let benchmark = read(&path.join("benchmark.json"))?;
            let estimates = read(&estimates)?;
            let group = json_string(&benchmark, "group_id")
                .ok_or_else(|| format!("{}: no group_id", path.display()))?;
            let function = json_string(&benchmark, "function_id").unwrap_or_default();
            let median =
                json_median(&estimates).ok_or_else(|| format!("{}: no median", path.display()))?;
            out.insert((group, function), median);
        } else {
            collect_medians(&path, since, out)?;
        }
    }
    Ok(())
}

/// The string value of `"key":"…"` in flat JSON, with `\"` and `\\` unescaped.
fn json_string(json: &str, key: &str) -> Option<String> {
    let start = json.find(&format!("\"{key}\":\""))? + key.len() + 4;
    let mut out = String::new();
    let mut chars = json[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => out.push(chars.next()?),
            c => out.push(c),
        }
    }
    None
}

/// `median.point_estimate` of criterion's `estimates.json`.
fn json_median(json: &str) -> Option<f64> {
    let rest = &json[json.find("\"median\":")?..];
    let rest = &rest[rest.find("\"point_estimate\":")? + "\"point_estimate\":".len()..];
    let end = rest.find([',', '}'])?;
    rest[..end].trim().parse().ok()
}

fn render(
    cases: &[Case],
    medians: &HashMap<(String, String), f64>,
    instructions: Option<&Instructions>,
    bench_cmd: &str,
    allocs_cmd: &str,
    quickfix: bool,
) -> Result<String, String> {
    let median = |group: &str, lib: &str| {
        medians
            .get(&(group.to_owned(), lib.to_owned()))
            .copied()
            .ok_or_else(|| format!("no criterion result from this run for {group}/{lib}"))
    };
    let instr = |group: &str, lib: &str| {
        instructions.and_then(|(_, m)| m.get(&format!("{group}/{lib}")).copied())
    };
    let instr_ratio = |group: &str, lib: &str| match (instr(group, lib), instr(group, crate_ours()))
    {
        (Some(p), Some(o)) => format!("{:.2}×", p / o),
        _ => "–".to_owned(),
    };
    let allocs = |group: &str, lib: &str| {
        cases
            .iter()
            .find(|c| c.group == group && c.lib == lib)
            .map_or("?", |c| c.allocs.as_str())
    };

    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(w, "# Ours beside the peers: results\n");
    let _ = writeln!(
        w,
        "Generated by `cargo xtask bench-report`; do not edit by hand. Same corpus messages \
         (`../shared/corpus/`), same run, every case checked against ours before timing \
         (`benches/src/peers.rs`).\n"
    );
    let _ = writeln!(w, "- date (UTC): {}", utc_now());
    let _ = writeln!(w, "- CPU: {}", cpu_model());
    let _ = writeln!(w, "- rustc: {}", rustc_version());
    let _ = writeln!(w, "- timing: `{bench_cmd}` (criterion medians)");
    let _ = writeln!(
        w,
        "- allocations: `{allocs_cmd}` (counting global allocator, steady state)"
    );
    match instructions {
        Some((cmd, _)) => {
            let _ = writeln!(
                w,
                "- instructions: `{cmd}` (per operation, timed loop only)"
            );
        }
        None => {
            let _ = writeln!(
                w,
                "- instructions: not counted (no valgrind on this machine)"
            );
        }
    }
    let _ = writeln!(
        w,
        "- QuickFIX C++: {}",
        if quickfix {
            "included (`--quickfix`); it parses with the dictionary but does not validate, so \
             compare it with \"ours, parse only\" too (see its rows' notes)"
        } else {
            "not in this run (`cargo xtask bench-report --quickfix` adds it; needs cmake and a \
             C++ compiler)"
        }
    );
    let _ = writeln!(
        w,
        "\nThe machine is shared and noisy: compare within this run, and quote the ratios \
         (peer / ours; above 1 means ours is faster), not the absolute times. The \
         instruction-count ratios repeat exactly from run to run; the time ratios do not \
         (and a peer's instructions can be cheaper or dearer than ours, so the two differ).\n"
    );

    // Targets from issue 6, the first as issue 17 re-based it: fefix validates
    // nothing, so the headline compares equal work (our parse, which frames,
    // checks BodyLength and CheckSum and indexes every field, against fefix's
    // decoder), judged in instructions, which repeat from run to run.
    let _ = writeln!(w, "## Targets (issues 6 and 17)\n");
    let _ = writeln!(
        w,
        "| target | time ratio in this run | instruction ratio | met |"
    );
    let _ = writeln!(w, "|---|---|---|---|");
    enum By {
        Time,
        Instructions,
    }
    let targets = [
        (
            "ExecutionReport: our parse vs fefix's decoder (like for like), in instructions",
            "decode+validate/ExecutionReport",
            PARSE_ONLY,
            "fefix",
            8.0,
            By::Instructions,
        ),
        (
            "MarketDataIncrementalRefresh decode + validate vs fefix (fresh decoder)",
            "decode+validate/MarketDataIncrementalRefresh",
            crate_ours(),
            "fefix, fresh decoder",
            20.0,
            By::Time,
        ),
        (
            "encode NewOrderSingle vs fefix",
            "encode/NewOrderSingle",
            crate_ours(),
            "fefix",
            5.0,
            By::Time,
        ),
    ];
    for (what, group, ours, peer, want, by) in targets {
        let time = median(group, peer)? / median(group, ours)?;
        let instructions = match (instr(group, peer), instr(group, ours)) {
            (Some(p), Some(o)) => Some(p / o),
            _ => None,
        };
        let judged = match by {
            By::Time => Some(time),
            By::Instructions => instructions,
        };
        let _ = writeln!(
            w,
            "| {what} ≥ {want}× | {time:.1}× | {} | {} |",
            instructions.map_or("–".to_owned(), |r| format!("{r:.2}×")),
            match judged {
                Some(r) if r >= want => "yes",
                Some(_) => "**no**",
                None => "? (no instruction counts in this run)",
            }
        );
    }
    let (ours_a, fefix_a) = (
        allocs("encode/NewOrderSingle", crate_ours()),
        allocs("encode/NewOrderSingle", "fefix"),
    );
    let _ = writeln!(
        w,
        "| encode NewOrderSingle: 0 allocations (issue 6 quotes fefix at 18) | ours {ours_a}, fefix {fefix_a} | | {} |",
        if ours_a == "0" { "yes" } else { "**no**" }
    );

    if quickfix {
        quickfix_table(w, cases, &median, &instr)?;
    }

    let _ = writeln!(w, "\n## All cases\n");
    let mut groups: Vec<&str> = cases.iter().map(|c| c.group.as_str()).collect();
    groups.dedup();
    for group in groups {
        let ours = median(group, crate_ours())?;
        let _ = writeln!(w, "### {group}\n");
        let _ = writeln!(
            w,
            "| library | median | peer / ours | instructions per op | instruction ratio | allocations per op | bytes per op | what is timed |"
        );
        let _ = writeln!(w, "|---|---|---|---|---|---|---|---|");
        for c in cases.iter().filter(|c| c.group == group) {
            let m = median(group, &c.lib)?;
            let _ = writeln!(
                w,
                "| {} | {} | {:.2}× | {} | {} | {} | {} | {} |",
                c.lib,
                format_ns(m),
                m / ours,
                instr(group, &c.lib).map_or("–".to_owned(), |i| format!("{i:.0}")),
                instr_ratio(group, &c.lib),
                c.allocs,
                c.bytes,
                c.note.replace('|', "\\|")
            );
        }
        let _ = writeln!(w);
    }
    Ok(s)
}

/// QuickFIX beside ours in each group it joins: against `"ours"` (parse + validate)
/// and against `"ours, parse only"`, the closer match to what QuickFIX's case does
/// (it parses with the dictionary; the `quickfix` crate exposes no validation).
fn quickfix_table(
    w: &mut String,
    cases: &[Case],
    median: &dyn Fn(&str, &str) -> Result<f64, String>,
    instr: &dyn Fn(&str, &str) -> Option<f64>,
) -> Result<(), String> {
    let _ = writeln!(w, "\n## QuickFIX C++ (issue 6)\n");
    let _ = writeln!(
        w,
        "| group | QuickFIX C++ | time / ours | time / ours, parse only | instructions / ours | instructions / ours, parse only | allocations per op | bytes per op |"
    );
    let _ = writeln!(w, "|---|---|---|---|---|---|---|---|");
    for c in cases.iter().filter(|c| c.lib == QUICKFIX) {
        let g = c.group.as_str();
        let qf = median(g, QUICKFIX)?;
        let ratio = |other: &str| match (instr(g, QUICKFIX), instr(g, other)) {
            (Some(q), Some(o)) => format!("{:.2}×", q / o),
            _ => "–".to_owned(),
        };
        let _ = writeln!(
            w,
            "| {g} | {} | {:.2}× | {:.2}× | {} | {} | {} | {} |",
            format_ns(qf),
            qf / median(g, crate_ours())?,
            qf / median(g, PARSE_ONLY)?,
            ratio(crate_ours()),
            ratio(PARSE_ONLY),
            c.allocs,
            c.bytes
        );
    }
    Ok(())
}

/// QuickFIX's lib name (`fix_benches::peers`'s `quickfix_cpp::LIB`).
const QUICKFIX: &str = "QuickFIX C++";

/// The reference lib name of every group (`fix_benches::peers::OURS`).
/// The case of ours that parses alone, without validating.
const PARSE_ONLY: &str = "ours, parse only";

fn crate_ours() -> &'static str {
    "ours"
}

fn format_ns(ns: f64) -> String {
    if ns >= 1000.0 {
        format!("{:.2} µs", ns / 1000.0)
    } else {
        format!("{ns:.1} ns")
    }
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            let cores = s.lines().filter(|l| l.starts_with("processor")).count();
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| format!("{} ({cores} logical CPUs)", m.trim()))
        })
        .unwrap_or_else(|| "unknown (no /proc/cpuinfo)".into())
}

fn rustc_version() -> String {
    Command::new("rustc")
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".into())
}

/// The current UTC time as `YYYY-MM-DD HH:MM`, from the civil-from-days algorithm.
fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}

/// Howard Hinnant's `civil_from_days`: days since 1970-01-01 to (year, month, day).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Runs `cargo <args>` in `root`, shown as it runs: the command as shown, and
/// what it printed on stdout; a failure carries its stderr.
pub(crate) fn cargo_stdout(
    cargo: &str,
    root: &Path,
    args: &[&str],
) -> Result<(String, String), String> {
    let cmd = format!("cargo {}", args.join(" "));
    eprintln!("bench-report: {cmd}");
    let output = Command::new(cargo)
        .args(args)
        .current_dir(root)
        .output()
        .map_err(|e| format!("{cmd}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{cmd}: {}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok((cmd, String::from_utf8_lossy(&output.stdout).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_criterion_files() {
        let benchmark = r#"{"group_id":"decode+validate/Logon (RawData with SOH)","function_id":"fefix, \"fresh\"","value_str":null,"throughput":null}"#;
        assert_eq!(
            json_string(benchmark, "group_id").as_deref(),
            Some("decode+validate/Logon (RawData with SOH)")
        );
        assert_eq!(
            json_string(benchmark, "function_id").as_deref(),
            Some("fefix, \"fresh\"")
        );
        assert_eq!(json_string(benchmark, "value_str"), None);
        let estimates = r#"{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0},"point_estimate":1.5,"standard_error":0.1},"median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":93.1,"upper_bound":95.2},"point_estimate":94.25,"standard_error":0.3}}"#;
        assert_eq!(json_median(estimates), Some(94.25));
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_787), (2026, 11, 30));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn parses_alloc_lines() {
        let cases = parse_allocs("# header\ng\tours\t0\t0\tnote | with bar\n").unwrap();
        assert_eq!(
            (cases[0].lib.as_str(), cases[0].note.as_str()),
            ("ours", "note | with bar")
        );
    }
}
