//! Bad input is refused with the field and what was expected (exit 1), and the inputs
//! the bench-suite README accepts are read as it says: each case is a small file built
//! here from one well-formed program, with one mistake.

use std::path::PathBuf;
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_polyalloc"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("polyalloc-validation-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// `A[i]`, `0 <= i < N`, written at time `i` and read once at `i + 1`: one cell holds
/// every value (max-live 1).
fn base() -> serde_json::Value {
    serde_json::json!({
        "id": "x", "title": "t", "source": {"paper": "p", "where": "w"},
        "params": ["N"], "context": "[N] -> { : N >= 2 }",
        "arrays": {"A": {"space": "[N] -> { A[i] : 0 <= i < N }"}},
        "program": {"statements": [
            {"name": "S", "domain": "[N] -> { S[i] : 0 <= i < N }", "schedule": "[N] -> { S[i] -> [i] }",
             "writes": "[N] -> { S[i] -> A[i] }", "reads": "[N] -> { S[i] -> A[i - 1] : i >= 1 }"}]},
        "instances": [{"N": 3}, {"N": 6}], "paper": []
    })
}

fn write(dir: &std::path::Path, id: &str, mut v: serde_json::Value) -> String {
    v["id"] = id.into();
    let p = dir.join(format!("{id}.json"));
    std::fs::write(&p, serde_json::to_string_pretty(&v).expect("json")).expect("write");
    p.display().to_string()
}

fn allocate(file: &str, extra: &[&str]) -> Output {
    bin().args(["allocate", file, "--method", "smo"]).args(extra).output().expect("runs")
}

#[test]
fn each_mistake_is_refused_naming_the_field() {
    let dir = tmpdir("mistakes");
    type Edit = fn(&mut serde_json::Value);
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "undeclared",
            |v| v["program"]["statements"][0]["writes"] = "[N] -> { S[i] -> C[i] }".into(),
            "field `program.statements[0] (S).writes`: array `C` is not declared",
        ),
        (
            "space-name",
            |v| v["arrays"]["A"]["space"] = "[N] -> { B[i] : 0 <= i < N }".into(),
            "field `arrays.A.space`: the tuple is named `B`, expected `A`",
        ),
        ("space-relation", |v| v["arrays"]["A"]["space"] = "[N] -> { A[i] -> A[j] : 0 <= i < N }".into(), "field `arrays.A.space`: expected a set"),
        (
            "space-unbounded",
            |v| v["arrays"]["A"]["space"] = "[N] -> { A[i] : 0 <= i }".into(),
            "field `arrays.A.space`: not a finite set of cells at instances[0]",
        ),
        ("params-twice", |v| v["params"] = serde_json::json!(["N", "N"]), "field `params[1]`: `N` is listed twice"),
        ("no-instances", |v| v["instances"] = serde_json::json!([]), "field `instances`: expected at least one instance"),
        ("instance-outside", |v| v["instances"] = serde_json::json!([{"N": 1}]), "field `instances[0]`: outside the context"),
        (
            "key-empty",
            |v| v["arrays"] = serde_json::json!({"": {"space": "[N] -> { A[i] : 0 <= i < N }"}}),
            "field `arrays.`: expected an identifier",
        ),
        ("context-set", |v| v["context"] = "[N] -> { [x] : N >= 2 }".into(), "field `context`: expected constraints on the parameters only"),
        (
            "statement-twice",
            |v| {
                let s = v["program"]["statements"][0].clone();
                v["program"]["statements"].as_array_mut().expect("list").push(s);
            },
            "field `program.statements[1] (S)`: a second statement named `S`",
        ),
        (
            "statement-tuple",
            |v| v["program"]["statements"][0]["name"] = "Q".into(),
            "field `program.statements[0] (Q).domain`: expected a set `{ Q[...] : ... }`",
        ),
        (
            "schedule-arities",
            |v| {
                v["program"]["statements"].as_array_mut().expect("list").push(serde_json::json!({
                "name": "T", "domain": "[N] -> { T[i] : 0 <= i < N }", "schedule": "[N] -> { T[i] -> [1, i] }", "reads": "[N] -> { T[i] -> A[i] }"}));
            },
            "field `program.statements[1] (T).schedule`: 2 time dimensions, statement `S` has 1",
        ),
        (
            "conflicts-arity",
            |v| {
                v["arrays"]["A"]["conflicts"] = "[N] -> { A[i, j] -> A[k, l] : 0 <= i < k < N }".into();
                v["arrays"]["A"]["conflicts_form"] = "half".into();
            },
            "field `arrays.A.conflicts`: pairs of cells of `A` have the form `A[i]`",
        ),
    ];
    for (id, edit, expected) in cases {
        let mut v = base();
        edit(&mut v);
        let file = write(&dir, id, v);
        let out = allocate(&file, &[]);
        let err = text(&out.stderr) + &text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{id}: {err}");
        assert!(err.contains(expected), "{id}: expected `{expected}` in: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn what_the_readme_accepts_is_read_as_it_says() {
    let dir = tmpdir("accepted");
    // The empty relation: no two cells conflict, one cell is enough.
    let mut v = base();
    v.as_object_mut().expect("object").remove("program");
    v["arrays"]["A"]["conflicts"] = "[N] -> { }".into();
    v["arrays"]["A"]["conflicts_form"] = "half".into();
    let out = allocate(&write(&dir, "empty-relation", v), &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("\"size\":\"1\""), "{}", text(&out.stdout));
    // `null` context: no constraint; juxtaposition is a product (isl): `1 N` is N.
    let mut v = base();
    v["context"] = serde_json::Value::Null;
    v["arrays"]["A"]["space"] = "[N] -> { A[i] : 0 <= i < 1 N }".into();
    let out = allocate(&write(&dir, "null-context", v), &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Inputs and outputs named in `ignored_arrays` are not declared arrays.
    let mut v = base();
    v["program"]["statements"][0]["reads"] = "[N] -> { S[i] -> A[i - 1] : i >= 1; S[i] -> in[i] }".into();
    v["program"]["ignored_arrays"] = serde_json::json!(["in"]);
    let out = allocate(&write(&dir, "ignored", v), &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Cells outside the array's space are not the array's (bench-suite README section 4):
/// a statement that writes `A[N]` of an `N`-cell array does not make the one-cell
/// mapping invalid, and reads of `A[i - 2]` over `0 <= i < 2N` keep two values live,
/// not three.
#[test]
fn accesses_outside_the_space_are_ignored() {
    let dir = tmpdir("outside");
    let mut v = base();
    v["program"]["statements"][0]["domain"] = "[N] -> { S[i] : 0 <= i <= N }".into();
    let file = write(&dir, "outside-write", v);
    let out = bin().args(["check", &file, "--hyperplanes", "[[1]]", "--moduli", "1", "--params", "N=2"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    let mut v = base();
    v["program"]["statements"][0]["domain"] = "[N] -> { S[i] : 0 <= i < 2N }".into();
    v["program"]["statements"][0]["reads"] = "[N] -> { S[i] -> A[i - 2] : i >= 2 }".into();
    let file = write(&dir, "outside-read", v);
    let out = allocate(&file, &["--json", "--params", "N=6"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let r: serde_json::Value = serde_json::from_str(text(&out.stdout).lines().next().expect("a record")).expect("json");
    assert_eq!(r["max_live"], 2, "{r}");
    assert_eq!(r["size_at"], 2, "{r}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A cell written twice is read as an overwrite (bench-suite README section 4): the
/// mapping stays valid for the program, checked here by brute force over the values.
#[test]
fn a_cell_written_twice_is_an_overwrite() {
    let dir = tmpdir("twice");
    let mut v = base();
    // T rewrites every cell after S; T[i] reads A[i + 2], still the value S wrote.
    v["program"]["statements"].as_array_mut().expect("list").push(serde_json::json!({
        "name": "T", "domain": "[N] -> { T[i] : 0 <= i < N }", "schedule": "[N] -> { T[i] -> [N + i] }",
        "writes": "[N] -> { T[i] -> A[i] }", "reads": "[N] -> { T[i] -> A[i + 2] : i + 2 < N }"}));
    let file = write(&dir, "twice", v);
    let out = bin().args(["allocate", &file, "--method", "all", "--json", "--params", "N=6"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let n = 6i64;
    let mut checked = 0;
    for line in text(&out.stdout).lines() {
        let r: serde_json::Value = serde_json::from_str(line).expect("json");
        if r["verified"] != true {
            continue;
        }
        // One folded row `(h x) mod e` (or none: every cell on one), e at N = 6.
        let hs = r["hyperplanes"].as_array().expect("rows");
        let h = match hs.as_slice() {
            [] => 0,
            [row] => row[0].as_i64().expect("coefficient"),
            _ => panic!("a 1-d array has at most one row: {r}"),
        };
        // An unfolded row (`A[x0]`, no size) keeps the cells where they are.
        let e = r["size_at"].as_i64();
        let at = |x: i64| -> usize { e.map_or(x, |e| (h * x).rem_euclid(e)) as usize };
        let e = e.unwrap_or(n);
        // Brute force: the 2N writes with the mapping, against the unfolded array: every
        // read sees the value it sees without folding.
        let mut plain = vec![None; n as usize];
        let mut folded = vec![None; e as usize];
        for i in 0..n {
            if i >= 1 {
                assert_eq!(plain[(i - 1) as usize], folded[at(i - 1)], "{}: S[{i}] reads another value", r["mapping"]);
            }
            plain[i as usize] = Some(("S", i));
            folded[at(i)] = Some(("S", i));
        }
        for i in 0..n {
            if i + 2 < n {
                assert_eq!(plain[(i + 2) as usize], folded[at(i + 2)], "{}: T[{i}] reads another value", r["mapping"]);
            }
            plain[i as usize] = Some(("T", i));
            folded[at(i)] = Some(("T", i));
        }
        checked += 1;
    }
    assert!(checked >= 5, "the methods answer: {}", text(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Input is bounded: a file larger than 64 MiB, or one that never ends, is refused
/// before it is read whole; bytes that are not UTF-8 are named by line and column.
#[test]
fn input_size_and_encoding() {
    let out = bin().args(["allocate", "/dev/zero"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("/dev/zero: cannot read: larger than 64 MiB"), "{}", text(&out.stderr));
    let dir = tmpdir("utf8");
    let p = dir.join("bad.json");
    std::fs::write(&p, b"{\n  \"id\": \"\xff\"}").expect("write");
    let out = bin().args(["allocate", &p.display().to_string()]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("not UTF-8 text: line 2, column 10"), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--dump-lp` is checked before any run (a file there is the user's I/O error), and
/// two arrays whose names differ only in non-ASCII letters get two directories.
#[test]
fn dump_lp_directory() {
    let dir = tmpdir("dump");
    let file_in_the_way = dir.join("file");
    std::fs::write(&file_in_the_way, "x").expect("write");
    let ex = write(&dir, "dump", base());
    let out = allocate(&ex, &["--method", "lattice", "--dump-lp", &file_in_the_way.display().to_string()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let mut v = base();
    let a = v["arrays"]["A"].clone();
    let program = serde_json::to_string(&v["program"]).expect("json").replace("A[", "Ä[");
    v["program"] = serde_json::from_str(&program).expect("json");
    let mut second =
        serde_json::from_str::<serde_json::Value>(&program.replace("Ä[", "Ö[").replace("S[", "R[").replace("\"S\"", "\"R\"")).expect("json");
    v["program"]["statements"].as_array_mut().expect("list").append(second["statements"].as_array_mut().expect("list"));
    v["arrays"] = serde_json::json!({
        "Ä": {"space": a["space"].as_str().expect("text").replace("A[", "Ä[")},
        "Ö": {"space": a["space"].as_str().expect("text").replace("A[", "Ö[")}
    });
    let ex = write(&dir, "umlauts", v);
    let lp = dir.join("lp");
    let out = bin().args(["allocate", &ex, "--method", "lattice", "--dump-lp", &lp.display().to_string()]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    let mut subdirs: Vec<String> =
        std::fs::read_dir(&lp).expect("dump dir").map(|e| e.expect("entry").file_name().to_string_lossy().to_string()).collect();
    subdirs.sort();
    assert_eq!(subdirs, ["umlauts-%C3%84-lattice-microlp", "umlauts-%C3%96-lattice-microlp"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A subscript of `2^63 - 1` (or `-2^63`) is an integer overflow of the input (exit 1),
/// not a panic on a negation.
#[test]
fn extreme_constants_are_overflow_errors() {
    let dir = tmpdir("extreme");
    for (k, access) in ["A[9223372036854775807]", "A[i + 9223372036854775807]", "A[-9223372036854775807 - i]"].iter().enumerate() {
        let mut v = base();
        v["program"]["statements"][0]["writes"] = format!("[N] -> {{ S[i] -> {access} }}").into();
        v["program"]["statements"][0]["reads"] = format!("[N] -> {{ S[i] -> {access} }}").into();
        let file = write(&dir, &format!("extreme{k}"), v);
        for args in [vec!["allocate", &file, "--method", "all"], vec!["check", &file, "--hyperplanes", "[[1]]", "--moduli", "1"]] {
            let out = bin().args(&args).output().expect("runs");
            let all = text(&out.stdout) + &text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{access}: {all}");
            assert!(all.contains("integer overflow") && !all.contains("panicked"), "{access}: {all}");
        }
    }
    // In the space (the fuzzer's case 3003 of seed 3: a panic on a negation while the
    // accesses were restricted to the space).
    let mut v = base();
    v["arrays"]["A"]["space"] = "[N] -> { A[i] : 9223372036854775807 <= i <= N }".into();
    let file = write(&dir, "extreme-space", v);
    let out = bin().args(["allocate", &file, "--method", "all"]).output().expect("runs");
    let all = text(&out.stdout) + &text(&out.stderr);
    assert!(matches!(out.status.code(), Some(0..=3)) && !all.contains("panicked"), "{all}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The executor holds a bounded number of statement instances (over all statements):
/// Song et al.'s method on flow-example1 at N = 10^6 (2 x 10^6 instances) says so in
/// its error instead of taking gigabytes.
#[test]
fn executions_past_the_instance_limit_are_refused() {
    let dir = tmpdir("executor");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(polyalloc_suite::default_dir().join("flow-example1.json")).expect("read")).expect("json");
    v["instances"] = serde_json::json!([{"N": 1000000}]);
    let file = write(&dir, "flow-huge", v);
    let out = bin().args(["allocate", &file, "--method", "flow", "--json"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("more than 250000 statement instances"), "{}", text(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Conflicts at distances beyond the bound `c ΣP + c` of SMO's decision constraints
/// (Bhaskaracharya et al. 2016, c = 10) made its ILP infeasible: the constant is raised
/// to what the differences need.
#[test]
fn smo_answers_conflicts_at_large_distances() {
    let dir = tmpdir("distances");
    let mut v = base();
    v.as_object_mut().expect("object").remove("program");
    let pieces: Vec<String> = [1, 2, 500, 999].iter().map(|k| format!("A[i] -> A[i2] : 0 <= i < N and i2 = i + {k}")).collect();
    v["arrays"]["A"]["conflicts"] = format!("[N] -> {{ {} }}", pieces.join("; ")).into();
    v["arrays"]["A"]["conflicts_form"] = "half".into();
    let file = write(&dir, "distances", v);
    let out = bin().args(["allocate", &file, "--method", "smo", "--json"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    // Cells 999 apart conflict: 1000 cells at least, and i mod 1000 separates them all.
    assert!(text(&out.stdout).contains("\"size\":\"1000\""), "{}", text(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// SMO's decision constraints bound the conflict differences by `c ΣP + c`, which a
/// context allowing negative parameters made negative (every hyperplane infeasible):
/// the bound is taken over the parameters shifted by their lower bounds.
#[test]
fn smo_answers_under_a_context_with_negative_parameters() {
    let dir = tmpdir("negative");
    let mut v = base();
    v.as_object_mut().expect("object").remove("program");
    v["context"] = "[N] -> { : N >= -10 }".into();
    v["instances"] = serde_json::json!([{"N": -10}, {"N": 0}, {"N": 5}]);
    v["arrays"]["A"]["space"] = "[N] -> { A[x] : 0 <= x < N + 12 }".into();
    v["arrays"]["A"]["conflicts"] = "[N] -> { A[i] -> A[i2] : 0 <= i < N + 11 and i2 = i + 1 }".into();
    v["arrays"]["A"]["conflicts_form"] = "half".into();
    let file = write(&dir, "negative", v);
    let out = bin().args(["allocate", &file, "--method", "smo", "--json"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    // Neighbours conflict: two cells, i mod 2.
    assert!(text(&out.stdout).contains("\"size\":\"2\""), "{}", text(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// lattice-exact enumerates the conflicting differences at an instance: at N = 10^9 it
/// stops at its limit of distinct differences (it kept 16 million, 1.35 GB).
#[test]
fn lattice_exact_bounds_its_differences() {
    let dir = tmpdir("differences");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(polyalloc_suite::default_dir().join("smo-produce-consume.json")).expect("read")).expect("json");
    v["instances"].as_array_mut().expect("list").push(serde_json::json!({"N": 1000000000}));
    let file = write(&dir, "pc-huge", v);
    let out = bin().args(["allocate", &file, "--method", "lattice-exact", "--json"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("more than 2000000 distinct conflicting differences"), "{}", text(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program of 10^9 statement instances (a Jacobi sweep at N = 31623): every method
/// answers from the parametric conflict set, and max-live, past its instance limit,
/// says why it is not computed (it took 88 s and 1.35 GB before its limit was counted
/// first).
#[test]
fn a_domain_of_a_billion_instances() {
    let dir = tmpdir("billion");
    let mut v = base();
    v["instances"] = serde_json::json!([{"N": 3}, {"N": 31623}]);
    v["arrays"]["A"]["space"] = "[N] -> { A[t, i] : 0 <= t < N and 0 <= i < N }".into();
    v["program"] = serde_json::json!({"statements": [{
        "name": "S", "domain": "[N] -> { S[t, i] : 0 <= t < N and 0 <= i < N }", "schedule": "[N] -> { S[t, i] -> [t, i] }",
        "writes": "[N] -> { S[t, i] -> A[t, i] }",
        "reads": "[N] -> { S[t, i] -> A[t - 1, i - 1] : t >= 1 and i >= 1; S[t, i] -> A[t - 1, i] : t >= 1; S[t, i] -> A[t - 1, i + 1] : t >= 1 and i < N - 1 }"}]});
    let file = write(&dir, "billion", v);
    let out = bin().args(["allocate", &file, "--method", "smo,lefe,lattice-h2", "--json"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for line in text(&out.stdout).lines() {
        let r: serde_json::Value = serde_json::from_str(line).expect("json");
        assert_eq!(r["verified"], true, "{r}");
        assert!(r["max_live_source"].as_str().is_some_and(|s| s.contains("more than 8000000 statement instances")), "{r}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
