//! `cargo xtask bench --corpus smo-tool`, the whole-process part, without timing anything
//! (speed is measured by the bench, never asserted): the tool's `answers.json` parses and
//! is checked; the child's printed records and the tool's answers merge into the results
//! file's `whole_process` records; the tables show them; an older results file without
//! the section still loads; a missing corpus is a note, not an error.

use polyalloc::record::{SeparateRecord, SharedRecord};
use polyalloc::{Record, Status};
use std::process::Command;
use xtask::bench::bench_process::{self, record_of, target};
use xtask::process::Sample;
use xtask::results::{ResultsFile, ToolAnswer, WholeProcess};
use xtask::smo_tool::{answers_markdown, Answers};

const ANSWERS: &str = r#"{
  "about": "Measured elsewhere, on a loaded machine.",
  "N0": 7,
  "inputs": [
    {"file": "intra-array/tile.smo.input", "kind": "intra",
     "tool_printed": "Storage mapping(s) found:\n---------------------------\nS0: A0[i0,i1] --> A0[i0-i1 mod 2N0-1]",
     "tool_size_expr": "2*N0 - 1", "tool_size_at": 13, "tool_wall_ms": 18.0, "tool_cpu_ms": 14.0,
     "polyalloc_mapping": "ignored", "polyalloc_cpu_ms": 7.0},
    {"file": "inter-array/blur-interleaved.smo.input", "kind": "inter",
     "tool_printed": "Storage mapping(s) found:\n---------------------------\nS0: A0[i0] --> A0[i0 mod 2]\nS1: A1[i0] --> A1[i0 mod 3]",
     "tool_size_shared_expr": "4*N0^2 + 2*N0", "tool_size_shared_at": 210,
     "tool_size_apart_expr": "N0^2 + 1", "tool_size_apart_at": 50,
     "tool_wall_ms": 819.0, "tool_cpu_ms": 718.0}
  ]
}"#;

fn answers() -> Answers {
    Answers::parse(ANSWERS, "answers.json").expect("parses")
}

/// A run of the child that printed `records` (one JSON object per line).
fn sample(code: i32, records: &[Record], cpu: f64) -> Sample {
    let stdout: String = records.iter().map(|r| serde_json::to_string(r).expect("serialises") + "\n").collect();
    Sample { code: Some(code), stdout: stdout.into_bytes(), cpu_ms: Some(cpu), wall_ms: cpu + 1.0, max_rss_kb: Some(6000), ..Sample::default() }
}

fn intra(verified: bool) -> Record {
    let mut r = Record::empty("tile", "A", "smo", "microlp");
    r.status = if verified { Status::Ok } else { Status::Invalid };
    r.verified = verified;
    r.mapping = Some("A[(x1 - x0) mod (2N0 - 1)]".into());
    r.size = Some("2*N0 - 1".into());
    r.size_at = Some(13);
    r.size_params = Some([("N0".to_string(), 7)].into());
    r.verification = Some(polyalloc::Claim::Proven);
    r
}

fn inter() -> Record {
    let mut r = Record::empty("blur-interleaved", "A0+A1", "smo-inter", "microlp");
    r.status = Status::Ok;
    r.verified = true;
    r.mapping = Some("A0[x0] -> S[x0 mod 2]; A1[x0] -> S[x0 mod 2]".into());
    r.size = Some("3*N0^2 - N0".into());
    r.size_at = Some(140);
    let sep =
        |a: &str, m: &str| SeparateRecord { array: a.into(), mapping: m.into(), size: None, size_at: None, verification: polyalloc::Claim::Proven };
    r.shared = Some(SharedRecord {
        storage: "S".into(),
        parts: Vec::new(),
        separate: vec![sep("A0", "A0[x0 mod 2]"), sep("A1", "A1[x0 mod N0]")],
        separate_size: Some("N0^2 + 2*N0 + 1".into()),
        separate_size_at: Some(64),
    });
    r
}

#[test]
fn answers_parse_and_are_checked() {
    let a = answers();
    assert_eq!((a.n0, a.inputs.len()), (7, 2));
    let tile = a.get("intra-array/tile.smo.input").expect("entry");
    assert_eq!((tile.tool_cpu_ms, tile.tool_size_at, tile.tool_size_shared_at), (Some(14.0), Some(13), None));
    assert_eq!(a.get("inter-array/blur-interleaved.smo.input").and_then(|t| t.tool_size_apart_at), Some(50));
    let bad = ANSWERS.replace("intra-array/tile.smo.input", "elsewhere/tile.smo.input");
    assert!(Answers::parse(&bad, "answers.json").is_err());
    let twice = ANSWERS.replace("inter-array/blur-interleaved.smo.input", "intra-array/tile.smo.input");
    assert!(Answers::parse(&twice, "answers.json").is_err());
    assert!(Answers::parse("{", "answers.json").is_err());
}

#[test]
fn runs_merge_with_the_tools_answer() {
    let a = answers();
    let file = "intra-array/tile.smo.input";
    // Two verified runs, one that exits 2, one whose record is not verified; the other
    // methods' records on the same output are ignored.
    let mut other = intra(true);
    other.method = "lefe".into();
    let failed = Sample { code: Some(2), stderr: b"error: time budget\n".to_vec(), ..Sample::default() };
    let samples = vec![sample(0, &[other, intra(true)], 3.0), failed, sample(0, &[intra(false)], 9.0), sample(0, &[intra(true)], 5.0)];
    let r = record_of(file, "smo", a.get(file).cloned(), &samples);
    assert_eq!((r.repeat, r.ok_runs), (4, 2));
    assert_eq!(r.cpu_ms.as_ref().map(|c| (c.median, c.min, c.max)), Some((4.0, 3.0, 5.0)));
    assert_eq!(r.max_rss_kb.as_ref().map(|c| c.median), Some(6000.0));
    assert_eq!(r.error.as_deref(), Some("exit code 2: error: time budget"));
    assert_eq!((r.mapping.as_deref(), r.size_at, r.backend.as_deref()), (Some("A[(x1 - x0) mod (2N0 - 1)]"), Some(13), Some("microlp")));
    assert_eq!(r.tool.as_ref().and_then(|t| t.tool_cpu_ms), Some(14.0));
    assert!(r.command.starts_with("polyalloc allocate intra-array/tile.smo.input --method smo --params N0=7 --json"), "{}", r.command);

    let ifile = "inter-array/blur-interleaved.smo.input";
    assert_eq!(bench_process::method_of(ifile), "smo-inter");
    let r = record_of(ifile, "smo-inter", a.get(ifile).cloned(), &[sample(0, &[inter()], 60.0)]);
    assert_eq!((r.size_at, r.apart_size_at), (Some(140), Some(64)));
    assert_eq!(r.apart_mapping.as_deref(), Some("A0[x0 mod 2]; A1[x0 mod N0]"));

    // Output that is not a record: no answer, and why.
    let garbage = Sample { code: Some(0), stdout: b"not json\n".to_vec(), ..Sample::default() };
    let r = record_of(file, "smo", None, &[garbage]);
    assert_eq!(r.ok_runs, 0);
    assert!(r.cpu_ms.is_none() && r.mapping.is_none());
    assert!(r.error.as_deref().is_some_and(|e| e.contains("not a JSON record")), "{:?}", r.error);
}

fn results() -> ResultsFile {
    let a = answers();
    let mut f = ResultsFile::new("cargo xtask bench --corpus smo-tool", &xtask::workspace_root());
    let tile = "intra-array/tile.smo.input";
    let blur = "inter-array/blur-interleaved.smo.input";
    f.whole_process = Some(WholeProcess {
        tool_about: a.about.clone(),
        params: "N0=7".into(),
        binary: "target/release/polyalloc".into(),
        measure: "CPU: user + sys".into(),
        floor_cpu_ms: Some(0.5),
        floor_wall_ms: Some(0.7),
        records: vec![
            record_of(tile, "smo", a.get(tile).cloned(), &[sample(0, &[intra(true)], 2.0)]),
            record_of(blur, "smo-inter", a.get(blur).cloned(), &[sample(0, &[inter()], 100.0)]),
        ],
    });
    f
}

#[test]
fn tables_show_both_sides() {
    let f = results();
    let md = xtask::bench::whole_process_markdown(&f);
    assert!(md.contains("measured on another machine: \"Measured elsewhere, on a loaded machine.\""), "{md}");
    assert!(
        md.contains("| `intra-array/tile.smo.input` | smo | 14.0 | 2.0 (2.0 - 2.0) | 7.0x | < 5 ms: yes | 18.0 | 3.0 (3.0 - 3.0) | 5.9 MiB | 1/1 |"),
        "{md}"
    );
    assert!(md.contains("| 718 | 100 (100 - 100) | 7.2x | >= 10x: **no** |"), "{md}");
    // The answers side by side: the tool's rows, both readings of the inter-array input.
    let wp = f.whole_process.as_ref().expect("section");
    let answers = answers_markdown(&wp.records, &wp.params);
    assert!(answers.contains("| `intra-array/tile.smo.input` | `S0: A0[i0,i1] --> A0[i0-i1 mod 2N0-1]` | `2*N0 - 1` = 13 | `A[(x1 - x0) mod (2N0 - 1)]` | `2*N0 - 1` = 13 | same |"), "{answers}");
    assert!(answers.contains("`S0: A0[i0] --> A0[i0 mod 2]`<br>`S1: A1[i0] --> A1[i0 mod 3]`"), "{answers}");
    assert!(answers.contains("shared `4*N0^2 + 2*N0` = 210<br>apart `N0^2 + 1` = 50"), "{answers}");
    assert!(answers.contains("apart `A0[x0 mod 2]` `A1[x0 mod N0]`"), "{answers}");
    assert!(answers.contains("shared: smaller (140 < 210)<br>apart: larger (64 > 50)"), "{answers}");
    assert!(!md.contains("Storage mapping(s) found"), "{md}");
}

#[test]
fn targets() {
    assert_eq!(target(Some(30.0), Some(3.0)), ">= 10x: yes");
    assert_eq!(target(Some(30.0), Some(3.5)), ">= 10x: **no**");
    assert_eq!(target(Some(20.0), Some(4.9)), "< 5 ms: yes");
    assert_eq!(target(Some(5.0), Some(5.0)), "< 5 ms: **no**");
    assert_eq!(target(None, Some(1.0)), "-");
}

#[test]
fn the_section_round_trips_and_older_files_load() {
    let dir = std::env::temp_dir().join(format!("xtask-whole-process-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = results();
    let p = dir.join("with.json");
    f.save(&p).expect("saves");
    assert_eq!(ResultsFile::load(&p).expect("loads").whole_process, f.whole_process);
    // A file written before the section existed.
    let old = ResultsFile::new("old", &xtask::workspace_root());
    let text = serde_json::to_string(&old).expect("serialises");
    assert!(!text.contains("whole_process"));
    let p = dir.join("old.json");
    std::fs::write(&p, text).expect("writes");
    assert!(ResultsFile::load(&p).expect("loads").whole_process.is_none());
    // A record with only its file and method (every other field defaults).
    let r: xtask::results::ProcessRecord = serde_json::from_str(r#"{"file": "intra-array/x.smo.input", "method": "smo"}"#).expect("parses");
    assert!(r.tool.is_none() && r.cpu_ms.is_none());
    let t: ToolAnswer = serde_json::from_str(r#"{"file": "intra-array/x.smo.input"}"#).expect("parses");
    assert!(t.tool_cpu_ms.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without the corpus, `cargo xtask bench --corpus smo-tool` says so and writes a
/// results file holding the note; the report shows it.
#[test]
fn a_missing_corpus_is_a_note() {
    let dir = std::env::temp_dir().join(format!("xtask-whole-process-missing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("bench.json");
    let o = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["bench", "--corpus", "smo-tool", "--repeat", "1", "--out"])
        .arg(&out)
        .env("POLYALLOC_SMO_CORPUS", dir.join("no-such-corpus"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("smo-tool whole process: skipped: the SMO tool's corpus is not at"), "{text}");
    let f = ResultsFile::load(&out).expect("results");
    assert!(f.whole_process.is_none() && f.bench.is_empty());
    let md = xtask::bench::whole_process_markdown(&f);
    assert!(md.contains("skipped: the SMO tool's corpus is not at"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}
