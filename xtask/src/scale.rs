//! The scale lane's section of `benches/RESULTS.md` (issue 35): runs
//! `cargo run --profile bench -p fix-benches --example scale` (with `--features
//! quickfix` for QuickFIX C++), reads its tab-separated lines, renders one
//! row per engine × N × runtime × store, and draws the latency percentiles
//! of one N into `benches/scale-latency.png`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use crate::plot::{Lane, percentile_png};

/// The heading the section starts with; `--scale-only` replaces the section
/// from it to the next `## ` heading.
pub(crate) const HEADING: &str = "## Scale lane (issue 35)";
/// The plot's file name, beside `RESULTS.md`.
pub(crate) const PLOT: &str = "scale-latency.png";

/// One configuration's figures: `None` where the harness said `n/a`.
#[derive(Debug)]
struct Row {
    engine: String,
    sessions: u64,
    runtime: String,
    store: String,
    figures: HashMap<String, Option<f64>>,
}

impl Row {
    fn get(&self, key: &str) -> Option<f64> {
        self.figures.get(key).copied().flatten()
    }

    fn is_ours(&self) -> bool {
        self.engine == "ours"
    }
}

/// What the harness printed.
#[derive(Debug, Default)]
pub(crate) struct Scale {
    notes: Vec<String>,
    failed: Vec<String>,
    run: HashMap<String, String>,
    rows: Vec<Row>,
}

impl Scale {
    fn rates(&self) -> Vec<String> {
        self.run
            .get("rates")
            .map(|r| r.split(',').map(str::to_owned).collect())
            .unwrap_or_default()
    }
}

/// Runs the harness with `features` and `args` (after `--`), and returns
/// the command as shown and what it printed; a run with some
/// configurations failed still counts, its failures named in the section.
pub(crate) fn run(
    cargo: &str,
    root: &Path,
    features: Option<&str>,
    args: &[String],
) -> Result<(String, Scale), String> {
    let mut all = vec!["run", "--profile", "bench", "-q", "-p", "fix-benches"];
    if let Some(f) = features {
        all.extend(["--features", f]);
    }
    all.extend(["--example", "scale", "--"]);
    all.extend(args.iter().map(String::as_str));
    let cmd = format!("cargo {}", all.join(" "));
    eprintln!("bench-report: {cmd}");
    let output = Command::new(cargo)
        .args(&all)
        .current_dir(root)
        .output()
        .map_err(|e| format!("{cmd}: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    match parse(&stdout) {
        Ok(scale) => Ok((cmd.trim_end_matches(" --").to_owned(), scale)),
        Err(e) => Err(format!(
            "{cmd}: {} ({e})\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )),
    }
}

/// Reads the harness's `subject<TAB>key<TAB>value` lines; subjects other
/// than `run` are `engine/N/runtime/store`.
pub(crate) fn parse(text: &str) -> Result<Scale, String> {
    let mut scale = Scale::default();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let mut it = line.splitn(3, '\t');
        let (Some(subject), Some(key), Some(value)) = (it.next(), it.next(), it.next()) else {
            return Err(format!("scale: not `subject<TAB>key<TAB>value`: {line}"));
        };
        match (subject, key) {
            ("run", "note") => scale.notes.push(value.to_owned()),
            ("run", "failed") => scale.failed.push(value.to_owned()),
            ("run", _) => {
                scale.run.insert(key.to_owned(), value.to_owned());
            }
            _ => figure(&mut scale.rows, subject, key, value)?,
        }
    }
    if scale.rows.is_empty() {
        return Err("scale: no figures in the harness's output".into());
    }
    Ok(scale)
}

/// Adds `key = value` to the row of `subject`, made if new.
fn figure(rows: &mut Vec<Row>, subject: &str, key: &str, value: &str) -> Result<(), String> {
    let v = match value {
        "n/a" => None,
        _ => Some(
            value
                .parse()
                .map_err(|_| format!("scale: {subject} {key}: `{value}` is not a number"))?,
        ),
    };
    let parts: Vec<&str> = subject.split('/').collect();
    let [engine, n, runtime, store] = parts[..] else {
        return Err(format!(
            "scale: subject `{subject}` is not engine/N/runtime/store"
        ));
    };
    let sessions = n
        .parse()
        .map_err(|_| format!("scale: subject `{subject}`: N is not a number"))?;
    let at = rows.iter().position(|r| {
        (
            r.engine.as_str(),
            r.sessions,
            r.runtime.as_str(),
            r.store.as_str(),
        ) == (engine, sessions, runtime, store)
    });
    let row = match at {
        Some(i) => &mut rows[i],
        None => {
            rows.push(Row {
                engine: engine.to_owned(),
                sessions,
                runtime: runtime.to_owned(),
                store: store.to_owned(),
                figures: HashMap::new(),
            });
            rows.last_mut().expect("just pushed")
        }
    };
    row.figures.insert(key.to_owned(), v);
    Ok(())
}

/// The section: conditions, the table, the plot's link (when `plotted`), the
/// failures.
pub(crate) fn render(
    w: &mut String,
    scale: &Scale,
    cmd: &str,
    cpu: &str,
    date: &str,
    plotted: Option<&str>,
) {
    let _ = writeln!(w, "{HEADING}\n");
    let _ = writeln!(w, "From one run of `{cmd}`.\n");
    let _ = writeln!(w, "- date (UTC): {date}");
    let _ = writeln!(w, "- machine: {cpu}, shared with other work");
    for note in &scale.notes {
        let _ = writeln!(w, "- {note}");
    }
    let sync = scale.run.get("sync_us").map_or("?", String::as_str);
    let _ = writeln!(w, "- the disk's sync time in this run (sync_us): {sync} µs");
    let _ = writeln!(
        w,
        "- QuickFIX C++: {}",
        scale.run.get("quickfix").map_or("?", String::as_str)
    );
    table(w, scale);
    if let Some(caption) = plotted {
        let _ = writeln!(w, "\n{caption}\n\n![HDR latency percentiles]({PLOT})");
    }
    if !scale.failed.is_empty() {
        let _ = writeln!(w, "\nConfigurations that failed in this run:\n");
        for f in &scale.failed {
            let _ = writeln!(w, "- **{f}**");
        }
    }
    let _ = writeln!(
        w,
        "\nLatencies are from each order's due time, so a held-up send counts its \
         wait. On a shared 2-core virtual machine the tail is mostly the scheduler's: \
         compare within a run. syncs/s counts both sides' durable steps.\n"
    );
}

/// The table: one row a configuration, per rate its percentiles, syncs and
/// CPU; then the pipelined phase's; then memory.
fn table(w: &mut String, scale: &Scale) {
    let rates = scale.rates();
    let mut head = "| engine | N | runtime | store |".to_owned();
    let mut rule = "|---|---|---|---|".to_owned();
    for r in &rates {
        let _ = write!(
            head,
            " {r}/s p50 / p99 / p99.9 | {r}/s syncs/s | {r}/s CPU µs/order |"
        );
        rule.push_str("---|---|---|");
    }
    head.push_str(
        " pipelined rt/s | pipelined syncs/s | pipelined CPU µs/order | RSS KiB/session |",
    );
    rule.push_str("---|---|---|---|");
    let _ = writeln!(w, "\n{head}\n{rule}");
    for row in &scale.rows {
        let _ = write!(
            w,
            "| {} | {} | {} | {} |",
            row.engine, row.sessions, row.runtime, row.store
        );
        for r in &rates {
            let us = |q: &str| {
                row.get(&format!("rate{r}_{q}_us"))
                    .map_or("?".into(), format_us)
            };
            let _ = write!(
                w,
                " {} / {} / {} | {} | {} |",
                us("p50"),
                us("p99"),
                us("p99.9"),
                number(row.get(&format!("rate{r}_syncs_per_s")), 0),
                number(row.get(&format!("rate{r}_cpu_us_per_order")), 1),
            );
        }
        let _ = writeln!(
            w,
            " {} | {} | {} | {} |",
            number(row.get("pipelined_round_trips_per_s"), 0),
            number(row.get("pipelined_syncs_per_s"), 0),
            number(row.get("pipelined_cpu_us_per_order"), 1),
            number(row.get("rss_kib_per_session"), 0),
        );
    }
}

/// The plot's lanes: at `sessions` (the largest N when `None`), the first
/// runtime and the first rate, ours with each store and QuickFIX; with a
/// caption saying so. `None` when the run has no such percentiles.
pub(crate) fn plot(scale: &Scale, sessions: Option<u64>) -> Option<(String, Vec<u8>)> {
    let n = sessions.or_else(|| scale.rows.iter().map(|r| r.sessions).max())?;
    let rate = scale.rates().into_iter().next()?;
    let runtime = scale.rows.iter().find(|r| r.is_ours())?.runtime.clone();
    let prefix = format!("rate{rate}_q");
    let lanes: Vec<Lane> = scale
        .rows
        .iter()
        .filter(|r| r.sessions == n && (!r.is_ours() || r.runtime == runtime))
        .map(|r| Lane {
            name: format!("{} {}", r.engine, r.store),
            points: percentiles(r, &prefix),
        })
        .filter(|l| !l.points.is_empty())
        .collect();
    if lanes.is_empty() {
        return None;
    }
    let title = format!("N = {n}, {rate} orders/s, {runtime}: latency by percentile");
    let caption = format!(
        "Latency by percentile at N = {n}, {rate} orders/s in total, ours on {runtime} runtimes \
         (x: percentile on a log scale of 1/(1 − p); y: µs, log scale):"
    );
    Some((caption, percentile_png(&title, &lanes)))
}

/// (percentile, µs) of a row's `rate…_q<p>_us` figures, by percentile.
fn percentiles(row: &Row, prefix: &str) -> Vec<(f64, f64)> {
    let mut points: Vec<(f64, f64)> = row
        .figures
        .iter()
        .filter_map(|(k, v)| {
            let p = k.strip_prefix(prefix)?.strip_suffix("_us")?.parse().ok()?;
            Some((p, (*v)?))
        })
        .collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    points
}

/// The scale section of `existing`, if it has one (to keep it when the rest
/// of the file is rewritten).
pub(crate) fn section(existing: &str) -> Option<&str> {
    let start = existing.find(HEADING)?;
    let after = start + HEADING.len();
    let end = existing[after..]
        .find("\n## ")
        .map_or(existing.len(), |i| after + i + 1);
    Some(&existing[start..end])
}

fn number(v: Option<f64>, decimals: usize) -> String {
    v.map_or("–".to_owned(), |v| format!("{v:.decimals$}"))
}

fn format_us(us: f64) -> String {
    if us >= 1000.0 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{us:.0} µs")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "run\tnote\tone acceptor, one initiator\n\
run\trates\t2000\n\
run\tseconds\t1\n\
run\tsync_us\t250.5\n\
ours/10/current-thread/FileStoreSync=Y\tlogon_seconds\t0.034\n\
ours/10/current-thread/FileStoreSync=Y\trss_kib_per_session\t266.0\n\
ours/10/current-thread/FileStoreSync=Y\tpipelined_round_trips_per_s\t100131.6\n\
ours/10/current-thread/FileStoreSync=Y\tpipelined_syncs_per_s\t520.0\n\
ours/10/current-thread/FileStoreSync=Y\tpipelined_cpu_us_per_order\t14.56\n\
ours/10/current-thread/FileStoreSync=Y\trate2000_p50_us\t593.4\n\
ours/10/current-thread/FileStoreSync=Y\trate2000_p99_us\t4927.5\n\
ours/10/current-thread/FileStoreSync=Y\trate2000_p99.9_us\t12894.2\n\
ours/10/current-thread/FileStoreSync=Y\trate2000_syncs_per_s\t3982.0\n\
ours/10/current-thread/FileStoreSync=Y\trate2000_cpu_us_per_order\t292.95\n\
ours/10/current-thread/FileStoreSync=Y\trate2000_q50_us\t593.4\n\
ours/10/current-thread/FileStoreSync=Y\trate2000_q99.9_us\t12894.2\n\
ours/10/current-thread/FileStoreSync=Y\trate2000_q100_us\t13877.2\n\
QuickFIX C++/10/threads/FileStore\trate2000_p50_us\t400.0\n\
QuickFIX C++/10/threads/FileStore\tpipelined_syncs_per_s\tn/a\n\
run\tfailed\tours/1000/current-thread/FileStoreSync=Y: stuck at 5 of 10 answers\n\
run\tquickfix\tin this run\n";

    #[test]
    fn reads_rows_and_renders_the_table() {
        let scale = parse(SAMPLE).unwrap();
        assert_eq!(scale.rows.len(), 2);
        assert_eq!(scale.rows[1].engine, "QuickFIX C++");
        assert_eq!(scale.rows[1].get("pipelined_syncs_per_s"), None);
        let mut s = String::new();
        render(
            &mut s,
            &scale,
            "cargo run …",
            "cpu",
            "date",
            Some("At N = 10:"),
        );
        assert!(s.starts_with(HEADING), "{s}");
        assert!(
            s.contains("| 2000/s p50 / p99 / p99.9 | 2000/s syncs/s |"),
            "{s}"
        );
        assert!(
            s.contains("| ours | 10 | current-thread | FileStoreSync=Y | 593 µs / 4.93 ms / 12.89 ms | 3982 | 292.9 | 100132 | 520 | 14.6 | 266 |"),
            "{s}"
        );
        assert!(
            s.contains("| QuickFIX C++ | 10 | threads | FileStore | 400 µs / ? / ? | – |"),
            "{s}"
        );
        assert!(s.contains("sync_us): 250.5 µs"), "{s}");
        assert!(
            s.contains("- **ours/1000/current-thread/FileStoreSync=Y: stuck at 5"),
            "{s}"
        );
        assert!(
            s.contains("![HDR latency percentiles](scale-latency.png)"),
            "{s}"
        );
    }

    #[test]
    fn plots_the_lanes_of_one_n() {
        let scale = parse(SAMPLE).unwrap();
        let (caption, png) = plot(&scale, None).unwrap();
        assert!(caption.contains("N = 10, 2000 orders/s"), "{caption}");
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        let ours = &scale.rows[0];
        assert_eq!(
            percentiles(ours, "rate2000_q"),
            vec![(50.0, 593.4), (99.9, 12894.2), (100.0, 13877.2)]
        );
        assert!(plot(&scale, Some(7)).is_none());
    }

    #[test]
    fn bad_lines_are_refused() {
        assert!(
            parse("ours/1/a/b\tx\n")
                .unwrap_err()
                .contains("not `subject")
        );
        assert!(parse("ours/1/a\tx\t1\n").unwrap_err().contains("engine/N"));
        assert!(
            parse("ours/1/a/b\tx\tfast\n")
                .unwrap_err()
                .contains("not a number")
        );
        assert!(parse("run\tnote\tn\n").unwrap_err().contains("no figures"));
    }

    #[test]
    fn finds_its_section_to_keep_it() {
        let text = format!("# R\n\n## Engine race (issue 15)\n\nr\n\n{HEADING}\n\ns\n\n## Later\n");
        assert_eq!(section(&text), Some(format!("{HEADING}\n\ns\n\n").as_str()));
        assert_eq!(section("# R\n"), None);
    }
}
