//! Integration tests of the `polyalloc` binary: output, JSON schema, exit codes.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_polyalloc"))
}

fn suite_file(id: &str) -> String {
    polyalloc_suite::default_dir().join(format!("{id}.json")).display().to_string()
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the polyalloc binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("polyalloc-cli-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    text(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect()
}

#[test]
fn allocate_json_produce_consume_smo() {
    let out = run(&["allocate", &suite_file("smo-produce-consume"), "--method", "smo", "--json", "--params", "N=9"]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    let recs = json_lines(&out);
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    // 004 Fig. 2 / Sec. 3.1 / Table I: A[(i - t) mod (2N - 1)].
    assert_eq!(r["hyperplanes"], serde_json::json!([[-1, 1]]));
    assert_eq!(r["moduli"], serde_json::json!(["2*N - 1"]));
    assert_eq!(r["verified"], serde_json::json!(true));
    assert_eq!(r["mapping"], serde_json::json!("A[(i - t) mod (2N - 1)]"));
    assert_eq!(r["size"], serde_json::json!("2*N - 1"));
    assert_eq!(r["size_at"], serde_json::json!(17));
    for key in ["example", "array", "method", "backend", "ilps", "solve_ms", "status", "verification"] {
        assert!(r.get(key).is_some(), "missing key {key}");
    }
    assert_eq!(r["example"], "smo-produce-consume");
    assert_eq!(r["backend"], polyalloc_solvers::DEFAULT_BACKEND);
    // SMO settles this example's one hyperplane without an ILP (presolve): the list is
    // there, empty.
    assert!(r["ilps"].as_array().is_some());
    // The record reads back into the library type.
    let back: polyalloc::Record = serde_json::from_value(r.clone()).unwrap();
    assert_eq!(back.hyperplanes, vec![vec![-1, 1]]);
    // Where the time went, phase by phase: the file was read, its conflict set built
    // (by this first run), max-live computed and the record rendered, each taking time.
    for phase in ["read_ms", "conflicts_ms", "method_ms", "verify_ms", "max_live_ms", "output_ms"] {
        let ms = r[phase].as_f64().unwrap_or(-1.0);
        assert!(ms > 0.0, "{phase} = {ms}: every phase of this run did some work");
    }
}

#[test]
fn allocate_human_output_all_methods() {
    let out = run(&["allocate", "smo-produce-consume", "--params", "N=9"]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("A[(i - t) mod (2N - 1)]"), "{s}");
    assert!(s.contains("A[t mod N, i mod N]"), "{s}");
    assert!(s.contains("(= 17 at N=9)"), "{s}");
    assert!(s.contains("(= 81 at N=9)"), "{s}");
    assert!(s.contains("ILPs"), "{s}");
}

#[test]
fn allocate_from_stdin_and_dump_lp() {
    let text_in = std::fs::read_to_string(suite_file("smo-produce-consume")).unwrap();
    let dir = tmpdir("dump");
    let mut child = bin()
        .args(["allocate", "-", "--method", "lattice", "--json", "--dump-lp"])
        .arg(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(text_in.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    let recs = json_lines(&out);
    let n_ilps = recs[0]["ilps"].as_array().unwrap().len();
    let sub = dir.join("smo-produce-consume-A-lattice-microlp");
    let mut lps: Vec<PathBuf> = std::fs::read_dir(&sub).unwrap().map(|e| e.unwrap().path()).collect();
    lps.sort();
    // Every ILP of the method, plus any the exact checker solved.
    assert!(lps.len() >= n_ilps && n_ilps > 0, "{} LP files for {n_ilps} method ILPs", lps.len());
    assert!(lps.iter().all(|p| p.extension().is_some_and(|e| e == "lp")));
    let lp = std::fs::read_to_string(lps.last().unwrap()).unwrap();
    assert!(lp.contains("Subject To") && lp.trim_end().ends_with("End"), "{lp}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_accepts_and_rejects() {
    let f = suite_file("smo-produce-consume");
    let ok = run(&["check", &f, "--array", "A", "--hyperplanes", "[[-1,1]]", "--moduli", "2*N - 1", "--params", "N=9"]);
    assert_eq!(ok.status.code(), Some(0), "stdout: {} stderr: {}", text(&ok.stdout), text(&ok.stderr));
    let s = text(&ok.stdout);
    assert!(s.contains("valid"), "{s}");
    assert!(s.contains("A[(i - t) mod (2N - 1)]"), "{s}");
    assert!(s.contains("17"), "{s}");

    let bad = run(&["check", &f, "--array", "A", "--hyperplanes", "[[-1,1]]", "--moduli", "2*N - 2"]);
    assert_eq!(bad.status.code(), Some(3), "stdout: {} stderr: {}", text(&bad.stdout), text(&bad.stderr));
    let s = text(&bad.stdout);
    assert!(s.contains("INVALID"), "{s}");
    assert!(s.contains("conflicting cells"), "a counterexample: {s}");

    let bad_json = run(&["check", &f, "--hyperplanes", "[[-1,1]]", "--moduli", "2*N - 2", "--json"]);
    assert_eq!(bad_json.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_str(text(&bad_json.stdout).trim()).unwrap();
    assert_eq!(v["verdict"], "invalid");
    assert_eq!(v["verified"], false);
}

#[test]
fn check_bad_mapping_input_is_exit_1() {
    let f = suite_file("smo-produce-consume");
    for (h, m) in [("[[-1,1,0]]", "2*N - 1"), ("[[-1,1]]", "2*M - 1"), ("[-1, x]", "N"), ("[[1,0],[0,1]]", "N")] {
        let out = run(&["check", &f, "--hyperplanes", h, "--moduli", m]);
        assert_eq!(out.status.code(), Some(1), "{h} / {m}: {}", text(&out.stderr));
        assert!(text(&out.stderr).starts_with("polyalloc: error: "), "{}", text(&out.stderr));
    }
}

#[test]
fn malformed_file_names_file_line_column() {
    let dir = tmpdir("malformed");
    let p = dir.join("bad.json");
    std::fs::write(&p, "{\n  \"id\": \"bad\",\n  \"title\": ,\n}\n").unwrap();
    let out = run(&["allocate", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("bad.json:3:"), "file:line:column in {err}");
    assert_eq!(err.lines().count(), 1, "one message: {err}");
    // A field error names the field.
    std::fs::write(&p, r#"{"params": ["N"], "instances": [{"M": 3}]}"#).unwrap();
    let out = run(&["allocate", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("field `instances[0]`"), "{}", text(&out.stderr));
    // A missing file.
    let out = run(&["allocate", dir.join("none.json").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("none.json"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn list_names_every_registered_method() {
    let out = run(&["list", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let names: Vec<&str> = v["methods"].as_array().expect("methods").iter().filter_map(|m| m["name"].as_str()).collect();
    let registered = polyalloc::registry().names();
    assert_eq!(names, registered);
    for m in ["lefe", "smo", "lattice-h1", "lattice-h2", "lattice", "best"] {
        assert!(names.contains(&m), "{m} missing from {names:?}");
    }
}

#[test]
fn best_names_the_method_that_found_the_smallest_mapping() {
    // 004 Table I, produce-consume: SMO's (i - t) mod (2N - 1) is the smallest.
    let out = run(&["allocate", "smo-produce-consume", "--method", "best", "--json", "--params", "N=9"]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    let recs = json_lines(&out);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["size"], "2*N - 1");
    assert_eq!(recs[0]["size_at"], 17);
    assert!(recs[0]["details"]["winner"].is_string());
    assert!(recs[0]["details"]["candidates"].as_array().is_some_and(|c| c.len() >= 5));
}

#[test]
fn unknown_backend_method_array_params() {
    let f = suite_file("smo-produce-consume");
    let out = run(&["allocate", &f, "--backend", "gurobi"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("gurobi") && err.contains("microlp"), "{err}");

    let out = run(&["allocate", &f, "--method", "magic"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("magic") && err.contains("lefe") && err.contains("smo"), "{err}");

    let out = run(&["allocate", &f, "--array", "Z"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no array `Z`"));

    for p in ["N=x", "M=3", "N"] {
        let out = run(&["allocate", &f, "--params", p]);
        assert_eq!(out.status.code(), Some(1), "--params {p}");
    }
    // Out-of-range and non-numbers are input errors, never a panic (exit 101).
    for t in ["1e20", "NaN", "inf", "x"] {
        let out = run(&["allocate", &f, "--time-limit", t]);
        assert_eq!(out.status.code(), Some(1), "--time-limit {t}: {}", text(&out.stderr));
    }
    // clap usage errors are invalid input too (not clap's default 2).
    let out = run(&["allocate"]);
    assert_eq!(out.status.code(), Some(1));
    let out = run(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(1));
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn metadata_only_and_no_array_files_are_input_errors() {
    // A file without arrays whose method section applies runs that method (002: `schedule`).
    let out = run(&["allocate", &suite_file("pugh-example1"), "--method", "lefe"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("pugh-example1"), "{}", text(&out.stderr));
}

/// Pugh 1991, Sec. 4 Example 1 from the command line: the schedule `T1 = i + k + 1/2`,
/// `T2 = i + j`, confirmed by running the program under it and under the generated loops.
#[test]
fn schedule_runs_from_the_cli() {
    let out = run(&["allocate", "pugh-example1", "--method", "schedule", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let r: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(r["status"], "ok");
    assert_eq!(r["array"], "-");
    assert_eq!(r["details"]["schedules"]["s1"], "i + k + 1/2");
    assert_eq!(r["details"]["schedules"]["s2"], "i + j");
    assert!(r["execution"].as_str().unwrap().contains("generated loops"), "{r}");
    let out = run(&["allocate", "pugh-example1", "--method", "schedule"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("pugh-example1 / - / schedule"), "{}", text(&out.stdout));
}

/// The network-flow method (Song et al. 2005) runs from the CLI: Fig. 1's A contracted to two
/// scalars, verified; LL14 (indirect subscripts, nothing can verify its contraction)
/// gives only not-applicable records, exit 1.
#[test]
fn allocate_runs_the_flow_method() {
    let out = run(&["allocate", &suite_file("flow-example1"), "--method", "flow", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let r: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!((r["array"].as_str(), r["status"].as_str(), r["mapping"].as_str()), (Some("A"), Some("ok"), Some("A[I mod 2]")));
    assert_eq!(r["details"]["shifts"]["L2"], serde_json::json!([1]));
    let out = run(&["allocate", &suite_file("flow-ll14")]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn list_shows_examples_methods_backends() {
    let out = run(&["list"]);
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    for w in ["smo-produce-consume", "lefe", "smo", "microlp", "(default)"] {
        assert!(s.contains(w), "{w} in {s}");
    }
    let out = run(&["list", "--json"]);
    let v: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    let backends: Vec<&str> = v["backends"].as_array().unwrap().iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert_eq!(backends, polyalloc_solvers::compiled_in());
    assert!(v["examples"].as_array().unwrap().len() >= 30);
}

#[test]
fn all_backends_run() {
    let out = run(&["allocate", "smo-produce-consume", "--method", "smo", "--backend", "all", "--json"]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    let recs = json_lines(&out);
    let names: Vec<&str> = recs.iter().map(|r| r["backend"].as_str().unwrap()).collect();
    assert_eq!(names, polyalloc_solvers::compiled_in());
    for r in &recs {
        assert_eq!(r["size"], "2*N - 1", "{}", r["backend"]);
        assert_eq!(r["verified"], true);
    }
}

/// An input in the SMO tool's format (`*.smo.input`): our double-buffered 1-D stencil
/// (`bench-suite/smo-tool/double-buffer-1d.smo.input`). Every array with SMO, and the
/// shared storage.
fn double_buffer() -> String {
    std::fs::read_to_string(polyalloc_suite::default_dir().join("smo-tool/double-buffer-1d.smo.input")).expect("the bench-suite's input")
}

#[test]
fn allocate_reads_smo_tool_inputs() {
    let dir = tmpdir("smo-input");
    let p = dir.join("heat1d.smo.input");
    std::fs::write(&p, double_buffer()).unwrap();
    let out = run(&["allocate", p.to_str().unwrap(), "--method", "smo,smo-inter", "--json", "--params", "N0=10"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let recs = json_lines(&out);
    let targets: Vec<(&str, &str)> = recs.iter().map(|r| (r["array"].as_str().unwrap(), r["method"].as_str().unwrap())).collect();
    assert_eq!(targets, vec![("A0", "smo"), ("A1", "smo"), ("A0+A1", "smo-inter")]);
    assert!(recs.iter().all(|r| r["status"] == "ok" && r["example"] == "heat1d"), "{recs:?}");
    let shared = &recs[2];
    assert_eq!(shared["size_at"], 11);
    assert_eq!(shared["shared"]["separate_size_at"], 20);
    // The human output shows each array's part of the storage.
    let out = run(&["allocate", p.to_str().unwrap(), "--method", "smo-inter"]);
    assert_eq!(out.status.code(), Some(0));
    let t = text(&out.stdout);
    assert!(t.contains("A0[x0, x1, x2] -> S[") && t.contains("A1[x0, x1, x2] -> S[") && t.contains("sum alone"), "{t}");
    // A malformed input: file, line and column, exit code 1.
    std::fs::write(&p, double_buffer().replace("\n1 0\n", "\n1 2\n")).unwrap();
    let out = run(&["allocate", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("heat1d.smo.input:25:3: statement index 2"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn jscop_dir() -> PathBuf {
    polyalloc_suite::default_dir().join("../crates/suite/tests/data/jscop")
}

/// A SCoP exported by Polly (`tests/data/jscop` of the suite crate): the interleaved
/// pipeline whose intermediate `tmp` needs 2 rows when it is scratch; a bare JSCoP
/// keeps every array live after the SCoP, so nothing folds.
#[test]
fn allocate_reads_polly_jscop_files_directories_and_stdin() {
    let dir = jscop_dir();
    let file = run_jscop_path(&dir, "pipe2");
    let out = run(&["allocate", &file, "--array", "tmp", "--method", "lefe", "--json", "--scratch", "tmp"]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    let r = &json_lines(&out)[0];
    assert_eq!(r["size"], serde_json::json!("20"), "{r}");
    let out = run(&["allocate", &file, "--array", "tmp", "--method", "lefe", "--json"]);
    assert_eq!(json_lines(&out)[0]["size"], serde_json::json!("90"));
    // A directory: every JSCoP file in it. The SCoP with parameters and no context
    // (its array live after it as a whole, sizes unbounded) has no mapping of lefe's
    // form: a solver error (exit 2) for that one, the others verified.
    let out = run(&["allocate", &dir.display().to_string(), "--method", "lefe", "--json"]);
    assert_eq!(out.status.code(), Some(2), "stderr: {}", text(&out.stderr));
    let recs = json_lines(&out);
    let examples: std::collections::BTreeSet<String> = recs.iter().map(|r| r["example"].as_str().unwrap_or("").to_string()).collect();
    assert_eq!(examples.len(), 5, "{examples:?}");
    for r in &recs {
        let vla = r["example"].as_str().unwrap_or("").starts_with("jacobi_vla");
        assert_eq!(r["status"] == "ok", !vla, "{r}");
    }
    // Standard input with --jscop.
    let mut child = bin()
        .args(["allocate", "-", "--jscop", "--scratch", "tmp", "--array", "tmp", "--method", "lefe", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(std::fs::read_to_string(&file).unwrap().as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    assert_eq!(json_lines(&out)[0]["size"], serde_json::json!("20"));
    // --scratch on a JSON file is an input error.
    let out = run(&["allocate", "smo-produce-consume", "--scratch", "A"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("apply to Polly JSCoP files"), "{}", text(&out.stderr));
}

fn run_jscop_path(dir: &std::path::Path, function: &str) -> String {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(&format!("{function}___")) && n.ends_with(".jscop")))
        .expect("test file")
        .display()
        .to_string()
}

/// A full device on standard output is an I/O error (exit 1) for every command, never a
/// panic nor a silent exit 0; a full standard error does not change the exit code.
#[test]
fn write_errors_on_standard_output_are_errors() {
    let full = || Stdio::from(std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full"));
    for args in [
        vec!["allocate", "smo-produce-consume", "--method", "smo"],
        vec!["allocate", "smo-produce-consume", "--method", "smo", "--json"],
        vec!["list"],
        vec!["list", "--json"],
        vec!["check", "smo-produce-consume", "--hyperplanes", "[[-1,1]]", "--moduli", "2*N - 1"],
    ] {
        let out = bin().args(&args).stdout(full()).output().expect("runs");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("<stdout>: No space left on device"), "{args:?}: {}", text(&out.stderr));
    }
    let out = bin().args(["allocate", "no-such-file.json"]).stderr(full()).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
}

/// An array read with fewer subscripts than it has dimensions is refused, naming the
/// statements (it was accepted, and its conflicts computed from a 1-d read of a 2-d
/// array).
#[test]
fn an_access_with_the_wrong_number_of_subscripts_is_refused() {
    let dir = tmpdir("subscripts");
    let file = dir.join("sub.json");
    std::fs::write(
        &file,
        r#"{"id": "sub", "title": "t", "source": {"paper": "p", "where": "w"}, "params": ["N"],
 "context": "[N] -> { : N >= 2 }", "instances": [{"N": 4}],
 "arrays": {"A": {"space": "[N] -> { A[t, i] : 0 <= t <= N and 0 <= i <= N }"}},
 "program": {"statements": [{"name": "S", "domain": "[N] -> { S[t, i] : 1 <= t <= N and 1 <= i <= N }",
   "schedule": "[N] -> { S[t, i] -> [t, i] }", "writes": "[N] -> { S[t, i] -> A[t, i] }", "reads": "[N] -> { S[t, i] -> A[t - 1] }"}]}}"#,
    )
    .unwrap();
    let out = run(&["allocate", &file.display().to_string(), "--method", "lefe"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("statement `S` accesses `A` with 2 subscripts, statement `S` with 1"), "{}", text(&out.stdout));
    // A space of another number of dimensions than the program's accesses.
    std::fs::write(
        &file,
        std::fs::read_to_string(&file)
            .unwrap()
            .replace("A[t - 1]", "A[t - 1, i]")
            .replace("A[t, i] : 0 <= t <= N and 0 <= i <= N", "A[t] : 0 <= t <= N"),
    )
    .unwrap();
    let out = run(&["allocate", &file.display().to_string(), "--method", "lefe"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("field `arrays.A.space`: `A` has 1 dimension here, the program accesses it with 2 subscripts"),
        "{}",
        text(&out.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_ilp_list_is_printed_with_verbose_only() {
    let short = text(&run(&["allocate", "smo-produce-consume", "--method", "lefe", "--params", "N=9"]).stdout);
    let long = text(&run(&["allocate", "smo-produce-consume", "--method", "lefe", "--params", "N=9", "--verbose"]).stdout);
    assert!(short.contains("ILPs") && long.contains("ILPs"), "{short}\n{long}");
    // lefe solves one ILP per axis, named `lefe-axis-<k>`: listed with --verbose only.
    assert!(!short.contains("lefe-axis-0"), "{short}");
    assert!(long.contains("lefe-axis-0"), "{long}");
}

#[test]
fn a_mistyped_method_gets_a_suggestion() {
    let out = run(&["allocate", "smo-produce-consume", "--method", "smp"]);
    assert_eq!(out.status.code(), Some(1));
    let e = text(&out.stderr);
    assert!(e.contains("unknown method `smp` (did you mean `smo`?)"), "{e}");
}
