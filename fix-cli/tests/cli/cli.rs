//! Runs the built `fixdump` on the shipped samples in each input form and checks
//! its text, JSON, filters, summary, `--dict`, errors and colour.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use fix_test_support::temp_dir::TestDir;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs fixdump in the repository root with `args`, feeding `stdin`.
fn run_with(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fixdump"))
        .args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fixdump runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin)
        .expect("stdin written");
    child.wait_with_output().expect("fixdump finishes")
}

/// Runs fixdump and returns its stdout, asserting success.
fn run(args: &[&str]) -> String {
    let out = run_with(args, b"");
    assert!(
        out.status.success(),
        "fixdump {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[track_caller]
fn assert_contains(haystack: &str, needle: &str) {
    assert!(
        haystack.contains(needle),
        "expected to find\n{needle}\nin\n{haystack}"
    );
}

/// The same eleven messages, written three ways.
const FORMS: [&str; 3] = [
    "samples/session.log",
    "samples/session-pipe.log",
    "samples/session-caret.log",
];

/// The decoded lines of a text output: everything but headers and the tally.
fn field_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with(' ')).collect()
}

#[test]
fn text_output_in_every_form() {
    let mut decoded = Vec::new();
    for form in FORMS {
        let out = run(&[form]);
        // Names, tags, values, enum meanings.
        assert_contains(
            &out,
            "   35 MsgType                  D (NEW_ORDER_SINGLE)\n",
        );
        assert_contains(&out, "   54 Side                     1 (BUY)\n");
        assert_contains(&out, "   44 Price                    151.25\n");
        assert_contains(&out, "   58 Text                     Partial fill\n");
        // Groups, nested, each entry bulleted at its delimiter.
        assert_contains(
            &out,
            "  453 NoPartyIDs               2\n\
             \x20 -   448 PartyID                  TRADER1\n\
             \x20     447 PartyIDSource            D (PROPRIETARY_CUSTOM_CODE)\n\
             \x20     452 PartyRole                11 (ORDER_ORIGINATION_TRADER)\n\
             \x20     802 NoPartySubIDs            1\n\
             \x20     -   523 PartySubID               desk-7\n\
             \x20         803 PartySubIDType           4 (APPLICATION)\n\
             \x20 -   448 PartyID                  BRK\n\
             \x20     447 PartyIDSource            D (PROPRIETARY_CUSTOM_CODE)\n\
             \x20     452 PartyRole                1 (EXECUTING_FIRM)\n\
             \x20   1 Account                  ACCT-9\n",
        );
        // Problems flagged on their messages.
        assert_contains(&out, "Heartbeat (35=0)  VENUE -> DESK  seq 7");
        assert_contains(&out, "  !! CheckSum (10) is 110 but the bytes sum to 109\n");
        assert_contains(
            &out,
            "  !! Value is incorrect (out of range) for this tag: 54 Side (SessionRejectReason 5)\n",
        );
        assert_contains(&out, "   54 Side                     Z  <-- !!\n");
        decoded.push(field_lines(&out).join("\n"));
    }
    assert_eq!(decoded[0], decoded[1], "| decodes like SOH");
    assert_eq!(decoded[0], decoded[2], "^A decodes like SOH");
}

#[test]
fn prefixes_and_skipped_lines_per_form() {
    let quickfix = run(&["samples/session.log"]);
    assert_contains(
        &quickfix,
        "#3 NewOrderSingle (35=D)  DESK -> VENUE  seq 2  20261130-09:00:01.250\n",
    );
    assert_contains(
        &quickfix,
        "11 messages shown of 11 read, 2 with problems, 1 line without a FIX message skipped\n",
    );
    let pipe = run(&["samples/session-pipe.log"]);
    assert_contains(
        &pipe,
        "#4 ExecutionReport (35=8)  VENUE -> DESK  seq 2  2026-11-30 09:00:01.262 INFO  [IN ]\n",
    );
    assert_contains(&pipe, "1 line without a FIX message skipped\n");
    let caret = run(&["samples/session-caret.log"]);
    assert_contains(
        &caret,
        "#11 Logout (35=5)  DESK -> VENUE  seq 6  20261130-09:02:00.000\n",
    );
    assert_contains(&caret, "0 lines without a FIX message skipped\n");
}

#[test]
fn raw_soh_stream_with_data_field_and_noise() {
    let out = run(&["samples/session.fix"]);
    assert_contains(&out, "#7 News (35=B)  VENUE -> DESK  seq 4\n");
    assert_contains(
        &out,
        "   33 NoLinesOfText            1\n\
         \x20 -    58 Text                     Trading resumes at 09:30\n\
         \x20     354 EncodedTextLen           9\n\
         \x20     355 EncodedText              x^Ay^Az^Aend\n",
    );
    assert_contains(
        &out,
        "8 messages shown of 8 read, 0 with problems, 1 line without a FIX message skipped\n",
    );
}

#[test]
fn stdin_is_read_without_arguments_and_for_dash() {
    let bytes = std::fs::read(root().join("samples/session.fix")).unwrap();
    for args in [&[][..], &["-"][..]] {
        let out = run_with(args, &bytes);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert_contains(&text, "8 messages shown of 8 read");
    }
}

#[test]
fn json_one_object_per_message() {
    for form in FORMS {
        let out = run(&["--json", form]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 11, "{form}");
        assert!(
            lines
                .iter()
                .all(|l| l.starts_with("{\"n\":") && l.ends_with("]}"))
        );
        // A whole message, exactly (the prefix differs per form).
        let hb = lines[5];
        let body = &hb[hb.find(",\"msg_type\"").unwrap()..];
        assert_eq!(
            body,
            r#","msg_type":"0","msg_name":"Heartbeat","fields":[{"tag":8,"name":"BeginString","value":"FIX.4.4"},{"tag":9,"name":"BodyLength","value":"52"},{"tag":35,"name":"MsgType","value":"0","enum":"HEARTBEAT"},{"tag":34,"name":"MsgSeqNum","value":"3"},{"tag":49,"name":"SenderCompID","value":"DESK"},{"tag":52,"name":"SendingTime","value":"20261130-09:00:31.000"},{"tag":56,"name":"TargetCompID","value":"VENUE"},{"tag":10,"name":"CheckSum","value":"107"}]}"#,
            "{form}"
        );
        // Nested groups as arrays of entries.
        assert_contains(
            lines[2],
            r#"{"tag":453,"name":"NoPartyIDs","value":"2","entries":[[{"tag":448,"name":"PartyID","value":"TRADER1"},{"tag":447,"name":"PartyIDSource","value":"D","enum":"PROPRIETARY_CUSTOM_CODE"},{"tag":452,"name":"PartyRole","value":"11","enum":"ORDER_ORIGINATION_TRADER"},{"tag":802,"name":"NoPartySubIDs","value":"1","entries":[[{"tag":523,"name":"PartySubID","value":"desk-7"},{"tag":803,"name":"PartySubIDType","value":"4","enum":"APPLICATION"}]]}],[{"tag":448,"name":"PartyID","value":"BRK"},{"tag":447,"name":"PartyIDSource","value":"D","enum":"PROPRIETARY_CUSTOM_CODE"},{"tag":452,"name":"PartyRole","value":"1","enum":"EXECUTING_FIRM"}]]},{"tag":1,"name":"Account","value":"ACCT-9"}"#,
        );
        // Problems.
        assert_contains(
            lines[8],
            r#""problems":[{"kind":"reject","reason":5,"text":"Value is incorrect (out of range) for this tag","tag":54}]"#,
        );
        assert_contains(
            lines[9],
            r#""problems":[{"kind":"parse","text":"CheckSum (10) is 110 but the bytes sum to 109","tag":10}]"#,
        );
    }
    let quickfix = run(&["--json", "samples/session.log"]);
    assert!(quickfix.starts_with(
        r#"{"n":1,"prefix":"20261130-09:00:00.000","msg_type":"A","msg_name":"Logon","#
    ));
    // Values that need escaping stay valid JSON.
    let raw = run(&["--json", "samples/session.fix"]);
    assert_contains(
        &raw,
        r#"{"tag":355,"name":"EncodedText","value":"x\u0001y\u0001z\u0001end"}"#,
    );
}

#[test]
fn filters_by_type_and_tag() {
    let headers = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with('#'))
            .map(|l| l.split("  ").next().unwrap().to_owned())
            .collect()
    };
    let ers = run(&["--type", "8", "samples/session.log"]);
    assert_eq!(
        headers(&ers),
        [
            "#4 ExecutionReport (35=8)",
            "#5 ExecutionReport (35=8)",
            "#8 ExecutionReport (35=8)"
        ]
    );
    assert_contains(&ers, "3 messages shown of 11 read");
    let cl1 = run(&["--tag", "11=CL-1", "samples/session-pipe.log"]);
    assert_eq!(
        headers(&cl1),
        [
            "#3 NewOrderSingle (35=D)",
            "#4 ExecutionReport (35=8)",
            "#5 ExecutionReport (35=8)"
        ]
    );
    // By name, combined (all must match), and inside a group.
    let by_name = run(&[
        "--type=ExecutionReport,F",
        "--tag",
        "ClOrdID=CL-2",
        "samples/session-caret.log",
    ]);
    assert_eq!(
        headers(&by_name),
        ["#7 OrderCancelRequest (35=F)", "#8 ExecutionReport (35=8)"]
    );
    let in_group = run(&["--tag", "448=BRK", "--tag", "54", "samples/session.log"]);
    assert_eq!(headers(&in_group), ["#3 NewOrderSingle (35=D)"]);
    let json = run(&["--json", "--type", "5", "samples/session.log"]);
    assert_eq!(json.lines().count(), 1);
    assert_contains(&json, r#""msg_name":"Logout""#);
}

#[test]
fn summary_counts_sessions_and_gaps() {
    let out = run(&["--summary", "samples/session.log"]);
    assert_eq!(
        out,
        "11 messages, 2 with problems, 1 line without a FIX message skipped\n\
         \n\
         Messages by MsgType:\n\
         \x20        3  8    ExecutionReport\n\
         \x20        2  0    Heartbeat\n\
         \x20        2  A    Logon\n\
         \x20        2  D    NewOrderSingle\n\
         \x20        1  5    Logout\n\
         \x20        1  F    OrderCancelRequest\n\
         \n\
         Sessions (SenderCompID -> TargetCompID):\n\
         \x20 DESK -> VENUE: 6 messages, MsgSeqNum 1..6, no gaps\n\
         \x20 VENUE -> DESK: 5 messages, MsgSeqNum 1..7, 1 gap (2 missing): 4-5\n"
    );
    let json = run(&["--summary", "--json", "samples/session-pipe.log"]);
    assert_eq!(
        json,
        concat!(
            r#"{"messages":11,"problems":2,"skipped_lines":1,"msg_types":["#,
            r#"{"msg_type":"8","name":"ExecutionReport","count":3},"#,
            r#"{"msg_type":"0","name":"Heartbeat","count":2},"#,
            r#"{"msg_type":"A","name":"Logon","count":2},"#,
            r#"{"msg_type":"D","name":"NewOrderSingle","count":2},"#,
            r#"{"msg_type":"5","name":"Logout","count":1},"#,
            r#"{"msg_type":"F","name":"OrderCancelRequest","count":1}],"sessions":["#,
            r#"{"sender":"DESK","target":"VENUE","messages":6,"first_seq":1,"last_seq":6,"gaps":0,"missing":0,"gap_list":[],"lower_than_expected":0},"#,
            r#"{"sender":"VENUE","target":"DESK","messages":5,"first_seq":1,"last_seq":7,"gaps":1,"missing":2,"gap_list":[[4,5]],"lower_than_expected":0}]}"#,
            "\n"
        )
    );
    // Filters select what is counted; gaps are still found on the whole stream.
    let ers = run(&["--summary", "--type", "8", "samples/session.log"]);
    assert_contains(&ers, "3 messages, 0 with problems");
    assert_contains(
        &ers,
        "VENUE -> DESK: 3 messages, MsgSeqNum 1..7, 1 gap (2 missing): 4-5\n",
    );
}

/// A venue's dictionary: a custom message with an enumerated field and a group.
const VENUE_XML: &str = r#"<fix type="FIX" major="4" minor="4" servicepack="0">
  <header>
    <field name="BeginString" required="Y"/>
    <field name="BodyLength" required="Y"/>
    <field name="MsgType" required="Y"/>
    <field name="SenderCompID" required="Y"/>
    <field name="TargetCompID" required="Y"/>
    <field name="MsgSeqNum" required="Y"/>
    <field name="SendingTime" required="Y"/>
  </header>
  <trailer><field name="CheckSum" required="Y"/></trailer>
  <messages>
    <message name="VenueAuctionNotice" msgtype="U7" msgcat="app">
      <field name="Symbol" required="Y"/>
      <field name="AuctionPhase" required="Y"/>
      <group name="NoImbalances" required="N">
        <field name="ImbalanceSide" required="Y"/>
        <field name="ImbalanceQty" required="N"/>
      </group>
    </message>
  </messages>
  <components/>
  <fields>
    <field number="8" name="BeginString" type="STRING"/>
    <field number="9" name="BodyLength" type="LENGTH"/>
    <field number="10" name="CheckSum" type="STRING"/>
    <field number="34" name="MsgSeqNum" type="SEQNUM"/>
    <field number="35" name="MsgType" type="STRING">
      <value enum="U7" description="VENUE_AUCTION_NOTICE"/>
    </field>
    <field number="49" name="SenderCompID" type="STRING"/>
    <field number="52" name="SendingTime" type="UTCTIMESTAMP"/>
    <field number="55" name="Symbol" type="STRING"/>
    <field number="56" name="TargetCompID" type="STRING"/>
    <field number="7001" name="AuctionPhase" type="CHAR">
      <value enum="O" description="OPENING"/>
      <value enum="C" description="CLOSING"/>
    </field>
    <field number="7002" name="NoImbalances" type="NUMINGROUP"/>
    <field number="7003" name="ImbalanceSide" type="CHAR">
      <value enum="1" description="BUY"/>
      <value enum="2" description="SELL"/>
    </field>
    <field number="7004" name="ImbalanceQty" type="QTY"/>
  </fields>
</fix>
"#;

/// A `|`-delimited message with a correct BodyLength and CheckSum.
fn pipe_message(body: &str) -> String {
    pipe_message_with("FIX.4.4", body)
}

/// [`pipe_message`] with BeginString `begin`.
fn pipe_message_with(begin: &str, body: &str) -> String {
    let head = format!("8={begin}|9={}|", body.len());
    let sum: u32 = format!("{head}{body}")
        .bytes()
        .map(|b| u32::from(if b == b'|' { 1 } else { b }))
        .sum();
    format!("{head}{body}10={:03}|", sum % 256)
}

#[test]
fn venue_dictionary_names_venue_fields() {
    let dir = TestDir::new("fixdump");
    let dict = dir.join("MYVENUE.xml");
    std::fs::write(&dict, VENUE_XML).unwrap();
    let msg = pipe_message(
        "35=U7|34=9|49=VENUE|52=20261130-16:30:00.000|56=DESK|55=IBM|7001=C|7002=2|\
         7003=1|7004=500|7003=2|",
    );
    let input = format!("16:30:00 venue {msg}\n");
    let out = run_with(&["--dict", dict.to_str().unwrap()], input.as_bytes());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert_contains(
        &text,
        "#1 VenueAuctionNotice (35=U7)  VENUE -> DESK  seq 9  16:30:00 venue\n",
    );
    assert_contains(
        &text,
        " 7001 AuctionPhase             C (CLOSING)\n\
         \x207002 NoImbalances             2\n\
         \x20 -  7003 ImbalanceSide            1 (BUY)\n\
         \x20    7004 ImbalanceQty             500\n\
         \x20 -  7003 ImbalanceSide            2 (SELL)\n",
    );
    assert_contains(&text, "1 message shown of 1 read, 0 with problems");
    // Without the venue's dictionary the same message is flagged.
    let plain = run_with(&[], input.as_bytes());
    let text = String::from_utf8(plain.stdout).unwrap();
    assert_contains(&text, "  !! Invalid MsgType (SessionRejectReason 11)\n");
    // A broken dictionary is a clear error.
    std::fs::write(&dict, "<fix type='FIX' major='4' minor='4'><header><field name='Nope' required='Y'/></header></fix>").unwrap();
    let bad = run_with(&["--dict", dict.to_str().unwrap()], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert_contains(&String::from_utf8_lossy(&bad.stderr), "Nope");
}

#[test]
fn unreadable_input_is_a_clear_error() {
    let out = run_with(&["samples/session.fix", "no/such.log"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "fixdump: no/such.log: No such file or directory\n"
    );
    // The readable input is still decoded, under its name.
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("==> samples/session.fix <==\n\n#1 Logon (35=A)"),
        "{text}"
    );
    assert!(!text.contains("no/such.log"), "{text}");
    assert_contains(&text, "\n8 messages shown of 8 read");
    let dir = run_with(&["samples"], b"");
    assert_eq!(dir.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&dir.stderr),
        "fixdump: samples: Is a directory\n"
    );
    let usage = run_with(&["--bogus"], b"");
    assert_eq!(usage.status.code(), Some(2));
    assert_contains(
        &String::from_utf8_lossy(&usage.stderr),
        "unknown option `--bogus`",
    );
}

#[test]
fn colour_only_on_request_when_piped() {
    for form in FORMS {
        assert!(
            !run(&[form]).contains('\x1b'),
            "{form}: auto colour when piped"
        );
        assert!(!run(&["--color=never", form]).contains('\x1b'));
        assert!(!run(&["--json", "--color=always", form]).contains('\x1b'));
    }
    let coloured = run(&["--color", "always", "samples/session.log"]);
    assert_contains(
        &coloured,
        "\x1b[36mSide                    \x1b[0m 1 \x1b[32m(BUY)\x1b[0m",
    );
}

#[test]
fn broken_messages_are_shown_with_their_problem() {
    let body = "35=0|34=2|49=A|52=20261130-09:00:00.000|56=B|";
    let good = pipe_message(body);
    let bad_length = good.replacen(
        &format!("9={}|", body.len()),
        &format!("9={}|", body.len() + 1),
        1,
    );
    let truncated = &good[..30];
    let input = format!("{bad_length}\nnoise\n{good}\n{truncated}\n");
    let out = run_with(&[], input.as_bytes());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_contains(
        &text,
        "#1 Heartbeat (35=0)  A -> B  seq 2\n  !! BodyLength (9) does not match",
    );
    assert_contains(
        &text,
        "#2 Heartbeat (35=0)  A -> B  seq 2\n    8 BeginString",
    );
    assert_contains(
        &text,
        "#3 Heartbeat (35=0)  seq 2\n  !! truncated: the input ends inside this message\n",
    );
    assert_contains(
        &text,
        "3 messages shown of 3 read, 2 with problems, 1 line without a FIX message skipped",
    );
}

/// Runs `fixdump` with its stdout (and stderr) on a terminal: util-linux's `script`
/// gives it a pseudo-terminal; `shell` is the command line after the binary.
fn run_on_terminal(shell: &str, no_color: Option<&str>) -> String {
    let cmd = format!("{} {shell}", env!("CARGO_BIN_EXE_fixdump"));
    let mut command = Command::new("script");
    command
        .args(["-qec", &cmd, "/dev/null"])
        .current_dir(root())
        .env_remove("NO_COLOR")
        .stdin(Stdio::null());
    if let Some(v) = no_color {
        command.env("NO_COLOR", v);
    }
    let out = command
        .output()
        .expect("util-linux `script` runs fixdump on a pseudo-terminal");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn colour_on_a_terminal_unless_no_color() {
    let coloured = run_on_terminal("samples/session.log", None);
    assert_contains(&coloured, "\x1b[36mSide");
    let plain = run_on_terminal("samples/session.log", Some("1"));
    assert!(!plain.contains("\x1b["), "NO_COLOR=1 on a terminal");
    assert_contains(&plain, "Side");
    // An empty NO_COLOR is no request (no-color.org).
    assert!(run_on_terminal("samples/session.log", Some("")).contains("\x1b[36m"));
    assert!(!run_on_terminal("--color=never samples/session.log", None).contains("\x1b["));
}

#[test]
fn no_validate_shows_framing_problems_only() {
    let validated = run(&["samples/session.log"]);
    assert_contains(
        &validated,
        "!! Value is incorrect (out of range) for this tag: 54 Side",
    );
    let unvalidated = run(&["--no-validate", "samples/session.log"]);
    assert!(!unvalidated.contains("Value is incorrect"));
    assert_contains(
        &unvalidated,
        "!! CheckSum (10) is 110 but the bytes sum to 109",
    );
}

#[test]
fn a_large_file_shows_progress_on_a_terminal_only_when_stdout_is_not_one() {
    // 16 MiB or more of the sample log, the size from which progress is shown.
    let sample = std::fs::read(root().join("samples/session.log")).unwrap();
    let dir = TestDir::new("fixdump-progress");
    let big = dir.join("big.log");
    let copies = (16 << 20) / sample.len() + 1;
    std::fs::write(&big, sample.repeat(copies)).unwrap();
    let path = big.display().to_string();
    // stdout to /dev/null, stderr on the terminal: the progress line appears.
    let shown = run_on_terminal(&format!("--no-validate {path} > /dev/null"), None);
    let shown_too = shown.contains("% (") && shown.contains(" MB)");
    // --no-progress silences it.
    let silent = run_on_terminal(
        &format!("--no-progress --no-validate {path} > /dev/null"),
        None,
    );
    assert!(
        shown_too,
        "no progress line: {:?}",
        &shown[..shown.len().min(200)]
    );
    assert!(!silent.contains("% ("), "{silent:?}");
}

#[test]
fn another_version_s_message_and_a_group_out_of_order_are_flagged() {
    let heartbeat = pipe_message_with("FIX.4.2", "35=0|34=2|49=A|52=20261130-09:00:00.000|56=B|");
    let order = pipe_message(
        "35=D|34=3|49=A|52=20261130-09:00:00.000|56=B|11=X|21=1|55=IBM|54=1|\
         60=20261130-09:00:00|40=1|453=1|448=P|452=1|447=D|",
    );
    let input = format!("{heartbeat}\n{order}\n");
    let out = run_with(&[], input.as_bytes());
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_contains(
        &text,
        "#1 Heartbeat (35=0)  A -> B  seq 2\n\
         \x20 !! Incorrect BeginString: FIX.4.2, the dictionary's is FIX.4.4 (a session logs out)\n\
         \x20   8 BeginString              FIX.4.2  <-- !!\n",
    );
    assert_contains(
        &text,
        "#2 NewOrderSingle (35=D)  A -> B  seq 3\n\
         \x20 !! Out of order repeating group members: 447 PartyIDSource (SessionRejectReason 15)\n",
    );
    assert_contains(
        &text,
        "      447 PartyIDSource            D (PROPRIETARY_CUSTOM_CODE)  <-- !!\n",
    );
    assert_contains(&text, "2 messages shown of 2 read, 2 with problems");
    let json = String::from_utf8(run_with(&["--json"], input.as_bytes()).stdout).unwrap();
    assert_contains(
        &json,
        r#""problems":[{"kind":"begin_string","text":"Incorrect BeginString","tag":8,"value":"FIX.4.2","expected":"FIX.4.4"}]"#,
    );
    assert_contains(
        &json,
        r#""problems":[{"kind":"reject","reason":15,"text":"Out of order repeating group members","tag":447}]"#,
    );
}

/// A raw SOH message with a correct BodyLength and CheckSum.
fn soh_message(body: &[u8]) -> Vec<u8> {
    let mut msg = format!("8=FIX.4.4\x019={}\x01", body.len()).into_bytes();
    msg.extend_from_slice(body);
    let sum = msg.iter().map(|&b| u32::from(b)).sum::<u32>() % 256;
    msg.extend_from_slice(format!("10={sum:03}\x01").as_bytes());
    msg
}

#[test]
fn an_unknown_message_name_in_type_is_an_error() {
    let out = run_with(&["--type", "ExecutionReprt", "samples/session.log"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "fixdump: --type: no message named `ExecutionReprt` in the dictionary \
         (did you mean `ExecutionReport`?)\n"
    );
    assert!(out.stdout.is_empty());
    let tag = run_with(&["--tag", "Sde=1", "samples/session.log"], b"");
    assert_eq!(tag.status.code(), Some(2));
    assert_contains(
        &String::from_utf8_lossy(&tag.stderr),
        "no field named `Sde` in the dictionary (did you mean `Side`?)",
    );
    // A MsgType the dictionary lacks is still a filter: a log may hold a venue's.
    assert_contains(
        &run(&["--type", "U1,8", "samples/session.log"]),
        "3 messages shown of 11 read",
    );
}

#[test]
fn strict_makes_a_problem_the_exit_status() {
    // The sample's NewOrderSingle and Heartbeat have a problem each.
    let code = |args: &[&str]| run_with(args, b"").status.code();
    assert_eq!(code(&["samples/session.log"]), Some(0));
    assert_eq!(code(&["--strict", "samples/session.log"]), Some(3));
    assert_eq!(
        code(&["--strict", "--summary", "samples/session.log"]),
        Some(3)
    );
    // Only the messages shown count; an unreadable input says so first.
    assert_eq!(
        code(&["--strict", "--type", "8", "samples/session.log"]),
        Some(0)
    );
    assert_eq!(
        code(&["--strict", "samples/session.log", "no/such.log"]),
        Some(1)
    );
}

#[test]
fn max_size_sets_the_message_cap() {
    let long = soh_message(
        format!(
            "35=0\x0134=3\x0149=A\x0152=20261130-09:00:00.000\x0156=B\x01112={}\x01",
            "x".repeat(2000)
        )
        .as_bytes(),
    );
    let out = run_with(&[], &long);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_contains(&text, "1 message shown of 1 read, 0 with problems");
    let capped = run_with(&["--max-size", "1K"], &long);
    let text = String::from_utf8(capped.stdout).unwrap();
    assert_contains(&text, "bytes exceeds the maximum of 1024\n");
    // Memory grows with the cap: the limits keep it within reason.
    let too_big = run_with(&["--max-size", "1G"], b"");
    assert_eq!(too_big.status.code(), Some(2));
    assert_contains(&String::from_utf8_lossy(&too_big.stderr), "--max-size");
}

#[test]
fn clear_texts_for_an_embedded_soh_and_an_absurd_body_length() {
    let mut input =
        soh_message(b"35=0\x0134=2\x0149=A\x0152=20261130-09:00:00.000\x0156=B\x0158=a\x01b c\x01");
    input.extend_from_slice(b"\n8=FIX.4.4\x019=99999999999999999999\x0135=0\x0110=000\x01\n");
    let text = String::from_utf8(run_with(&[], &input).stdout).unwrap();
    assert_contains(
        &text,
        "  !! the value of tag 58 holds SOH, at byte 64\n  !! Embedded SOH: 58 Text (SessionRejectReason 17)\n",
    );
    assert_contains(
        &text,
        "  !! BodyLength (9) is 99999999999999999999, more than any message can hold\n",
    );
}

#[test]
fn help_lists_every_exit_status() {
    let help = run(&["--help"]);
    let statuses = help
        .split("Exit status:\n")
        .nth(1)
        .expect("an exit status section");
    let codes: Vec<&str> = statuses
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.parse::<u8>().is_ok())
        .collect();
    assert_eq!(codes, ["0", "1", "2", "3"]);
    for option in ["--strict", "--max-size BYTES"] {
        assert_contains(&help, option);
    }
}
