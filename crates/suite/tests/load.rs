use polyalloc_suite::{load_dir, default_dir, Example, SuiteError};
use std::path::Path;

#[test]
fn every_bench_suite_file_loads() {
    let all = load_dir(&default_dir()).expect("bench-suite loads");
    assert!(all.len() >= 12, "only {} examples", all.len());
    for ex in &all {
        let metadata_only = ex.extra.get("status").and_then(|v| v.as_str()) == Some("metadata-only");
        assert!(metadata_only || !ex.instances.is_empty(), "{}: no instances", ex.id);
        assert!(metadata_only || !ex.arrays.is_empty() || ex.extra.contains_key("flow") || ex.extra.contains_key("pugh"),
            "{}: nothing to check", ex.id);
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
    let text = r#"{"id": "z", "title": "t", "source": {"paper": "p", "where": "w"}}"#;
    let err = Example::from_str(text, Path::new("dir/other.json")).unwrap_err();
    assert_eq!(err.to_string(), "dir/other.json: field `id`: expected `other` (the file name), found `z`");
}
