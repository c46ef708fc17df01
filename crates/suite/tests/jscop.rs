//! The JSCoP reader on files written by Polly (`tests/data/jscop/`, see its README):
//! what the C code says must be what the program model holds.

use polyalloc_suite::jscop::{self, JscopOptions};
use polyalloc_suite::{Example, SuiteError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jscop");
    std::fs::read_dir(&dir)
        .expect("test data")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(&format!("{name}___")) && n.ends_with(".jscop")))
        .unwrap_or_else(|| panic!("no test file for {name}"))
}

fn read(name: &str, options: &JscopOptions) -> Result<Example, SuiteError> {
    let path = data(name);
    jscop::read(&std::fs::read_to_string(&path).expect("readable"), &path, options)
}

/// Every conflicting pair of cells of `array` at the parameter values `params`.
fn conflicts(ex: &Example, array: &str, params: &[i64]) -> Vec<Vec<i64>> {
    ex.conflicts(array).expect("conflict set").relation.enumerate(params, 10_000_000).expect("enumerable")
}

#[test]
fn every_polly_file_loads_by_its_extension() {
    for name in ["jacobi", "jacobi_vla", "init", "borders", "pipe2"] {
        let ex = Example::load(&data(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(ex.program_model().expect("program").is_some(), "{name}");
        assert!(ex.arrays.keys().all(|a| !a.starts_with("MemRef_")), "{name}: {:?}", ex.arrays.keys());
    }
}

/// `A[t-1][i-1]`, `A[t-1][i]`, `A[t-1][i+1]` with `i0 = t - 1`, `i1 = i - 1`: Polly's
/// floor divisions are the C subscripts on the domain.
#[test]
fn floor_divisions_are_read_as_the_c_subscripts() {
    let ex = read("jacobi", &JscopOptions::default()).expect("reads");
    let p = ex.program_model().expect("program").expect("one");
    let s = &p.statements[0];
    assert_eq!(s.reads.len(), 3);
    for it in [[0, 0], [8, 17], [3, 9]] {
        for (k, r) in s.reads.iter().enumerate() {
            assert!(r.happens_at(&[], &it).unwrap(), "read {k} at {it:?}");
            assert_eq!(r.cell_at(&[], &it).unwrap(), vec![it[0], it[1] + k as i64], "read {k} at {it:?}");
        }
        assert_eq!(s.writes[0].cell_at(&[], &it).unwrap(), vec![it[0] + 1, it[1] + 1]);
    }
    // The array's space: rows up to the last one written (T - 1 = 9), 20 columns.
    let space = polyalloc_formulation::Set::parse(&ex.arrays["A"].space).unwrap();
    assert!(space.contains(&[], &[9, 19]).unwrap());
    assert!(!space.contains(&[], &[10, 0]).unwrap() && !space.contains(&[], &[0, 20]).unwrap());
}

/// Without the function's code, every array is live after the SCoP as a whole; as
/// scratch, only the values the program reads later are live.
#[test]
fn liveness_from_the_polyalloc_field_and_the_options() {
    // The interleaved pipeline: stage 2 at row y reads tmp rows y - 1 and y.
    let whole = read("pipe2", &JscopOptions::default()).expect("reads");
    let pairs = conflicts(&whole, "tmp", &[]);
    // Every written cell of tmp (9 rows of 10) conflicts with every other one.
    assert_eq!(pairs.len(), 90 * 89 / 2, "{} pairs", pairs.len());
    let scratch = read("pipe2", &JscopOptions { scratch: vec!["tmp".into()], ..Default::default() }).expect("reads");
    let pairs = conflicts(&scratch, "tmp", &[]);
    // Two rows suffice: `tmp[y mod 2, x]` separates every conflicting pair, one row does not.
    assert!(pairs.iter().all(|p| (p[0] % 2, p[1]) != (p[2] % 2, p[3])));
    assert!(pairs.iter().any(|p| p[1] == p[3] && p[0] != p[2]));
    // The same through the field `polyalloc fold` writes.
    let path = data("pipe2");
    let mut j = jscop::Jscop::parse(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
    let mut life = jscop::Liveness { function: "pipe2".into(), ..Default::default() };
    life.arrays
        .insert("MemRef_tmp".into(), jscop::ArrayLife { name: "tmp".into(), storage: jscop::Storage::Stack, scratch: true, why: String::new() });
    j.polyalloc = Some(life);
    let ex = jscop::to_example(&j, &path, &JscopOptions::default()).unwrap();
    assert_eq!(conflicts(&ex, "tmp", &[]), pairs);
}

/// A narrowed live-out set: only the last row of the time-expanded table is read after.
#[test]
fn narrowed_live_out_sets() {
    let ex = read("jacobi", &JscopOptions { live_out: Some("{ A[t, i] : t = 9 }".into()), ..Default::default() }).expect("reads");
    let pairs = conflicts(&ex, "A", &[]);
    // Rows t and t + 1 conflict (row t is read while row t + 1 is written); rows two
    // apart do not, except the live-out row 9, which stays.
    assert!(pairs.iter().all(|p| (p[0] - p[2]).abs() <= 1 || p[0] == 9 || p[2] == 9), "{:?}", pairs.iter().find(|p| (p[0] - p[2]).abs() > 1));
    assert!(pairs.iter().any(|p| (p[0], p[2]) == (9, 9)));
    let e = read("jacobi", &JscopOptions { live_out: Some("{ B[t] }".into()), ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("field `--live-out`: no array `B` in the SCoP (arrays: A)"), "{e}");
    let e = read("jacobi", &JscopOptions { live_out: Some("{ A[t] }".into()), ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("`A` has 2 dimensions, the live-out set 1"), "{e}");
    let e = read("jacobi", &JscopOptions { scratch: vec!["Z".into()], ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("--scratch: no array `Z`"), "{e}");
}

#[test]
fn scalars_are_left_out() {
    let ex = read("init", &JscopOptions::default()).expect("reads");
    assert_eq!(ex.arrays.keys().collect::<Vec<_>>(), ["A"]);
    let p = ex.program_model().unwrap().unwrap();
    let names: Vec<&str> = p.statements.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Stmt_for_body4_last", "Stmt_cond_true", "Stmt_cond_end"]);
    assert!(p.statements[..2].iter().all(|s| s.writes.is_empty() && s.reads.is_empty()));
    assert_eq!(p.statements[2].writes[0].array, "A");
    // `Stmt_cond_true[0, i1]`: only the row t = 0.
    assert!(p.statements[1].domain.contains(&[], &[0, 5]).unwrap() && !p.statements[1].domain.contains(&[], &[1, 5]).unwrap());
}

#[test]
fn piecewise_schedules_become_one_statement_per_piece() {
    let ex = read("borders", &JscopOptions::default()).expect("reads");
    let p = ex.program_model().unwrap().unwrap();
    let then: Vec<_> = p.statements.iter().filter(|s| s.name.starts_with("Stmt_if_then")).collect();
    assert_eq!(then.len(), 2);
    // i = 15 at time (0, 15, 0) and i = 0 at (0, 0, 0), each on its own part.
    for s in then {
        let points = s.domain.enumerate(&[], 100).unwrap();
        assert_eq!(points.len(), 1, "{}", s.name);
        let t: Vec<i64> = s.schedule.iter().map(|a| a.eval(&[], &points[0]).unwrap()).collect();
        assert_eq!(t, vec![0, points[0][0], 0]);
        assert_eq!(s.writes[0].cell_at(&[], &points[0]).unwrap(), points[0]);
    }
}

#[test]
fn one_statement_may_read_several_arrays() {
    let ex = read("pipe2", &JscopOptions::default()).expect("reads");
    let p = ex.program_model().unwrap().unwrap();
    let arrays: Vec<&str> = p.statements[1].reads.iter().map(|a| a.array.as_str()).collect();
    assert_eq!(arrays, ["tmp", "tmp", "in"]);
}

#[test]
fn parameters_and_their_sizes() {
    let at = BTreeMap::from([("T".to_string(), 5), ("N".to_string(), 8)]);
    let ex = read("jacobi_vla", &JscopOptions { params: at.clone(), ..Default::default() }).expect("reads");
    assert_eq!(ex.params, ["T", "N"]);
    assert_eq!(ex.instances, vec![at]);
    let space = polyalloc_formulation::Set::parse(&ex.arrays["A"].space).unwrap();
    // Columns below N (the size `(zext i32 %N to i64)`).
    assert!(space.contains(&[5, 8], &[3, 7]).unwrap() && !space.contains(&[5, 8], &[3, 8]).unwrap());
    let e = read("jacobi_vla", &JscopOptions { params: BTreeMap::from([("M".to_string(), 3)]), ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("`M` is not a parameter of the SCoP (parameters: T, N)"), "{e}");
}

/// Malformed files name the file and the statement and access, or the line and column.
#[test]
fn errors_name_the_statement_and_the_access() {
    let path = data("pipe2");
    let text = std::fs::read_to_string(&path).unwrap();
    let mangle = |from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        jscop::read(&text.replacen(from, to, 1), &path, &JscopOptions::default()).unwrap_err().to_string()
    };
    let e = mangle("MemRef_tmp[-1 + i0, i1]", "MemRef_tmp[-1 + i0 i1]");
    assert!(e.contains("field `statements[1].accesses[0] (Stmt_for_body16).relation`"), "{e}");
    let e = mangle("MemRef_tmp[-1 + i0, i1]", "MemRef_nope[-1 + i0, i1]");
    assert!(e.contains("statements[1].accesses[0]") && e.contains("`MemRef_nope` is not an array of the SCoP"), "{e}");
    let e = mangle("MemRef_tmp[-1 + i0, i1]", "MemRef_tmp[-1 + i0]");
    assert!(e.contains("`MemRef_tmp` has 2 dimensions (field `arrays`), the access 1"), "{e}");
    let e = mangle("\"kind\": \"read\"", "\"kind\": \"readwrite\"");
    assert!(e.contains("statements[0].accesses[0] (Stmt_for_body4).kind") && e.contains("expected `read` or `write`"), "{e}");
    let e = mangle("\"statements\"", "\"statement\"");
    assert!(e.contains("missing field `statements`"), "{e}");
    let e = jscop::read("{\n \"name\": 3", &path, &JscopOptions::default()).unwrap_err();
    assert!(matches!(e, SuiteError::Json { line: 2, .. }), "{e}");
}
