use polyalloc_suite::{default_dir, load_dir, Example, SuiteError};
use std::path::Path;

#[test]
fn every_bench_suite_file_loads() {
    let all = load_dir(&default_dir()).expect("bench-suite loads");
    assert!(all.len() >= 12, "only {} examples", all.len());
    for ex in &all {
        let metadata_only = ex.is_metadata_only();
        assert!(metadata_only || !ex.instances.is_empty(), "{}: no instances", ex.id);
        assert!(
            metadata_only || !ex.arrays.is_empty() || ex.extra.contains_key("flow") || ex.extra.contains_key("pugh"),
            "{}: nothing to check",
            ex.id
        );
    }
}

#[test]
fn json_syntax_errors_name_file_line_and_column() {
    let text = "{\n  \"id\": \"x\",\n  \"title\": 3\n}";
    let err = Example::from_str(text, Path::new("bench-suite/x.json")).unwrap_err();
    match &err {
        SuiteError::Json { line, column, .. } => assert_eq!((*line, *column), (3, 12)),
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().starts_with("bench-suite/x.json:3:12: invalid type"), "{err}");
}

#[test]
fn semantic_errors_name_the_field() {
    let text = r#"{"id": "y", "title": "t", "source": {"paper": "p", "where": "w"},
        "params": ["N"], "instances": [{"M": 3}]}"#;
    let err = Example::from_str(text, Path::new("y.json")).unwrap_err();
    assert_eq!(err.to_string(), "y.json: field `instances[0]`: missing a value for parameter `N`");
}

/// A user's own file needs its arrays with a conflict set or a program, and the
/// instances its checks enumerate at, nothing else: `id` defaults to the file name,
/// `title` and `source` to empty, and a file may be copied under any name.
#[test]
fn a_users_file_needs_no_envelope() {
    let text = r#"{"params": ["N"], "arrays": {"A": {"space": "[N] -> { A[i] : 0 <= i < N }",
        "conflicts": "[N] -> { A[i] -> A[j] : 0 <= i < j < N and j <= i + 2 }"}}, "instances": [{"N": 8}]}"#;
    let ex = Example::from_str(text, Path::new("dir/mine.json")).expect("a minimal file loads");
    assert_eq!(ex.id, "mine");
    assert!(ex.title.is_empty() && ex.source.citation().is_none());
    assert_eq!(ex.allocatable_arrays(), vec!["A".to_string()]);
    let renamed = Example::from_str(r#"{"id": "z", "instances": [{}]}"#, Path::new("dir/other.json")).expect("any file name");
    assert_eq!(renamed.id, "z");
}

/// Every bench-suite file's `id` is its file name (the ids name examples in results and
/// on the command line).
#[test]
fn bench_suite_ids_are_file_names() {
    for ex in polyalloc_suite::load_dir(&polyalloc_suite::default_dir()).expect("bench-suite loads") {
        assert_eq!(Some(ex.id.as_str()), ex.file.file_stem().and_then(|s| s.to_str()), "{}", ex.file.display());
    }
}

/// bench-suite README section 4: a statement's `writes` and `reads` may name several
/// arrays, in one union or as a list of relations, and `live_out` may hold cells of
/// several arrays. The conflict sets are those counted by hand from section 4's rules.
#[test]
fn accesses_and_live_out_over_several_arrays() {
    let program = |writes: &str, reads: &str, live_out: &str| {
        format!(
            r#"{{"id": "two", "title": "t", "source": {{"paper": "p", "where": "w"}}, "params": ["N"],
            "context": "[N] -> {{ : N >= 3 }}", "instances": [{{"N": 6}}],
            "arrays": {{"A": {{"space": "[N] -> {{ A[i] : 0 <= i <= N }}"}}, "B": {{"space": "[N] -> {{ B[i] : 0 <= i <= N }}"}}}},
            "program": {{"statements": [
              {{"name": "P", "domain": "[N] -> {{ P[i] : 0 <= i <= N }}", "schedule": "[N] -> {{ P[i] -> [i, 0] }}",
                "writes": {writes}}},
              {{"name": "C", "domain": "[N] -> {{ C[i] : 2 <= i <= N }}", "schedule": "[N] -> {{ C[i] -> [i, 1] }}",
                "reads": {reads}}}],
             "live_out": "{live_out}"}}}}"#
        )
    };
    let live_out = "[N] -> { A[i] : i = N; B[i] : i >= N - 1 }";
    let union = program(r#""[N] -> { P[i] -> A[i]; P[i] -> B[i] }""#, r#""[N] -> { C[i] -> A[i - 2]; C[i] -> B[i - 1] }""#, live_out);
    let list = program(
        r#"["[N] -> { P[i] -> A[i] }", "[N] -> { P[i] -> B[i] }"]"#,
        r#"["[N] -> { C[i] -> A[i - 2] }", "[N] -> { C[i] -> B[i - 1] }"]"#,
        live_out,
    );
    // At N = 6: A[j] is written at (j, 0) and read at (j + 2, 1), so it conflicts with
    // A[j + 1] and A[j + 2] for j <= 4; A[5] is never read (a dead value); A[6] is
    // live-out. B[j] is read at (j + 1, 1) (j >= 1) and conflicts with B[j + 1]; B[0] is
    // dead; B[5] and B[6] are live-out.
    let expect_a: Vec<(i64, i64)> = (0..=4).flat_map(|j| [(j, j + 1), (j, j + 2)]).collect();
    let expect_b: Vec<(i64, i64)> = (1..=5).map(|j| (j, j + 1)).collect();
    for text in [&union, &list] {
        let ex = Example::from_str(text, Path::new("two.json")).expect("accesses over two arrays read");
        let prog = ex.program_model().expect("program").expect("has one");
        assert_eq!(prog.statements[0].writes.iter().map(|a| a.array.as_str()).collect::<Vec<_>>(), ["A", "B"]);
        assert_eq!(prog.statements[1].reads.iter().map(|a| a.array.as_str()).collect::<Vec<_>>(), ["A", "B"]);
        assert_eq!(prog.live_out.len(), 2);
        for (array, expect) in [("A", &expect_a), ("B", &expect_b)] {
            let cs = ex.conflicts(array).expect("conflicts");
            let mut pairs: Vec<(i64, i64)> =
                cs.relation.enumerate(&[6], 10_000).expect("enumerates").iter().map(|p| (p[0].min(p[1]), p[0].max(p[1]))).collect();
            pairs.sort();
            pairs.dedup();
            assert_eq!(&pairs, expect, "{array}");
        }
    }
}
