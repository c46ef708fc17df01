//! The reader of the SMO tool's input format (`*.smo.input`), on inline files (these
//! tests do not need the tool's corpus): what it builds, and that every malformed file
//! is an error naming the file, the line and the column, never a partial example.

use polyalloc_suite::smo_input::{is_smo_input, read};
use polyalloc_suite::{default_dir, Example, SuiteError};
use std::collections::BTreeSet;
use std::path::Path;

/// A chain: each cell conflicts with the one before (one statement, one polyhedron),
/// with comment lines and blank lines between the sections.
const CHAIN: &str = "# cells 0 .. N0 - 1
[N0] -> { [x0] : x0 >= 0 and x0 <= N0 - 1}
[N0] -> { [y0] : y0 >= 0 and y0 <= N0 - 1}

# output names
y0

# statements
1

#########################################################
# polyhedra
1

# x conflicts with x - 1
0 0
[N0] -> { [x0] -> [y0] : x0 - y0 = 1}
";

/// Our double-buffered 1-D stencil (`bench-suite/smo-tool/double-buffer-1d.smo.input`):
/// two statements, comments after the counts.
fn double_buffer() -> String {
    std::fs::read_to_string(default_dir().join("smo-tool/double-buffer-1d.smo.input")).expect("the bench-suite's input")
}

fn load(text: &str) -> Result<Example, SuiteError> {
    read(text, Path::new("dir/case.smo.input"))
}

fn pairs(ex: &Example, array: &str, n: i64) -> BTreeSet<Vec<i64>> {
    let cs = ex.conflicts(array).expect("conflict set");
    cs.relation.enumerate(&[n], 100_000).expect("enumerate").into_iter().collect()
}

#[test]
fn an_intra_array_file_is_one_array_with_its_conflict_set() {
    let ex = load(CHAIN).expect("reads");
    assert_eq!(ex.id, "case");
    assert_eq!(ex.params, vec!["N0".to_string()]);
    assert_eq!(ex.arrays.keys().collect::<Vec<_>>(), vec!["A"]);
    assert!(ex.inter_section().expect("section").is_none());
    // The polyhedron, intersected with the array space on both sides.
    let expect: BTreeSet<Vec<i64>> = (1..5).map(|x| vec![x, x - 1]).collect();
    assert_eq!(pairs(&ex, "A", 5), expect);
    let problem = ex.problem("A").expect("problem");
    assert_eq!(problem.conflicts.relation.n_pieces(), 1);
    assert_eq!(problem.array_tuple().dims, vec!["x0".to_string()]);
    // One dimension: the largest instance is the largest value tried (32 cells), and 4.
    let ks: Vec<i64> = ex.instances.iter().map(|i| i["N0"]).collect();
    assert_eq!(ks, vec![4, 32]);
    assert!(is_smo_input(Path::new("x/fib.smo.input")) && !is_smo_input(Path::new("fib.json")) && !is_smo_input(Path::new(".smo.input")));
}

#[test]
fn an_inter_array_file_gives_one_array_per_statement_and_the_conflicts_between_them() {
    let ex = load(&double_buffer()).expect("reads");
    assert_eq!(ex.arrays.keys().collect::<Vec<_>>(), vec!["A0", "A1"]);
    // Within A0: cells of one time step, in increasing i.
    let a0 = pairs(&ex, "A0", 3);
    assert!(a0.contains(&vec![1, 0, 0, 1, 0, 2]) && a0.iter().all(|p| p[0] == p[3] && p[1] == 0 && p[4] == 0 && p[2] < p[5]), "{a0:?}");
    let section = ex.inter_section().expect("section").expect("inter-array");
    assert_eq!(section.arrays, vec!["A0", "A1"]);
    let between: Vec<(&str, &str)> = section.conflicts.iter().map(|r| (r.from.as_str(), r.to.as_str())).collect();
    assert_eq!(between, vec![("A0", "A1"), ("A1", "A0")]);
    let problem = ex.inter_problem().expect("problem").expect("inter-array");
    assert_eq!(problem.arrays(), vec!["A0", "A1"]);
    let kinds: Vec<(usize, usize)> = problem.conflicts.relations.iter().map(|r| (r.from, r.to)).collect();
    assert_eq!(kinds, vec![(0, 0), (1, 1), (0, 1), (1, 0)]);
    // 3-d cells, 2 N0^2 of them: the largest instance has at most 1100 cells.
    let ks: Vec<i64> = ex.instances.iter().map(|i| i["N0"]).collect();
    assert_eq!(ks, vec![4, 23]);
    assert_eq!(problem.instances, vec![vec![4], vec![23]]);
}

#[test]
fn implicit_products_unions_of_statements_and_empty_conflict_sets() {
    // `2N0` as isl writes it; a statement without conflicts of its own.
    let text = "[N0] -> { [x0] : 0 <= x0 <= 2N0 - 1 }\n[N0] -> { [y0] : 0 <= y0 <= 2N0 - 1 }\ny0\n2\n1\n0 1\n[N0] -> { [x0] -> [y0] : y0 = x0 }\n";
    let ex = load(text).expect("reads");
    assert!(pairs(&ex, "A0", 2).is_empty() && pairs(&ex, "A1", 2).is_empty());
    let p = ex.inter_problem().expect("problem").expect("section");
    let n: usize = p.conflicts.relations.iter().map(|r| r.relation.enumerate(&[2], 100).expect("points").len()).sum();
    assert_eq!(n, 4);
}

/// The error of a malformed file: its position and message.
fn error(text: &str) -> (usize, usize, String) {
    match load(text) {
        Err(SuiteError::Text { file, line, column, message }) => {
            assert_eq!(file, Path::new("dir/case.smo.input"));
            (line, column, message)
        }
        Err(other) => panic!("not a positioned error: {other}"),
        Ok(ex) => panic!("accepted a malformed file: {}", ex.title),
    }
}

#[test]
fn wrong_counts_are_errors() {
    // Two polyhedra declared, one given: the end of the file is where the second is.
    let text = CHAIN.replace("\n1\n\n# x conflicts", "\n2\n\n# x conflicts");
    let (line, col, msg) = error(&text);
    assert_eq!((line, col), (18, 1), "{msg}");
    assert!(msg.contains("statement indices of conflict polyhedron 2 of 2") && msg.contains("end of the file"), "{msg}");
    // More content than declared.
    let text = format!("{CHAIN}0 0\n[N0] -> {{ [x0] -> [y0] : x0 - y0 = 2 }}\n");
    let (line, col, msg) = error(&text);
    assert_eq!((line, col), (18, 1), "{msg}");
    assert!(msg.contains("expected the end of the file after the 1 conflict polyhedra"), "{msg}");
    // A count that is not a number, or no statement at all.
    let (line, col, msg) = error(&CHAIN.replace("# statements\n1", "# statements\n one"));
    assert_eq!((line, col), (9, 2), "{msg}");
    assert!(msg.contains("expected the number of statements (a positive integer), found `one`"), "{msg}");
    let (_, _, msg) = error(&CHAIN.replace("# statements\n1", "# statements\n0"));
    assert!(msg.contains("found 0"), "{msg}");
    // As many output names as dimensions.
    let (line, _, msg) = error(&CHAIN.replace("\ny0\n", "\ny0 y1\n"));
    assert_eq!(line, 6);
    assert!(msg.contains("names of the 1 output variables, found 2"), "{msg}");
}

#[test]
fn bad_isl_is_an_error_at_its_line_and_column() {
    // A syntax error inside the polyhedron: the column of the offending token.
    let text = CHAIN.replace("x0 - y0 = 1}", "x0 - y0 = = 1}");
    let (line, col, msg) = error(&text);
    assert_eq!((line, col), (17, 36), "{msg}");
    assert!(msg.starts_with("conflict polyhedron 1 of 1"), "{msg}");
    // A disjunction: the tool reads basic relations only.
    let (line, _, msg) = error(&CHAIN.replace("x0 - y0 = 1}", "x0 - y0 = 1 or y0 - x0 = 1}"));
    assert_eq!(line, 17);
    assert!(msg.contains("found a union of 2 pieces"), "{msg}");
    // A set where a relation is expected, and a relation of the wrong arity.
    let (_, _, msg) = error(&CHAIN.replace("[N0] -> { [x0] -> [y0] : x0 - y0 = 1}", "[N0] -> { [x0] : x0 = 1 }"));
    assert!(msg.contains("expected conflict polyhedron 1 of 1"), "{msg}");
    let (_, _, msg) = error(&CHAIN.replace("[N0] -> { [x0] -> [y0] : x0 - y0 = 1}", "[N0] -> { [x0, x1] -> [y0, y1] : x0 = y0 }"));
    assert!(msg.contains("between 1-dimensional cells"), "{msg}");
    // A parameter the array space does not have: named, at its column.
    let (line, col, msg) = error(&CHAIN.replace("[N0] -> { [x0] -> [y0] : x0 - y0 = 1}", "[N0, M] -> { [x0] -> [y0] : x0 - y0 = M }"));
    assert_eq!((line, col), (17, 6), "{msg}");
    assert!(msg.contains("parameter `M` is not a parameter of the array space (N0)"), "{msg}");
    // An array space that is a relation.
    let (line, _, msg) = error(&CHAIN.replacen("[N0] -> { [x0] : x0 >= 0 and x0 <= N0 - 1}", "[N0] -> { [x0] -> [y0] }", 1));
    assert_eq!(line, 2);
    assert!(msg.contains("expected the array space") && msg.contains("found a relation"), "{msg}");
}

#[test]
fn missing_sections_are_errors() {
    for (cut_after, what) in [
        ("[N0] -> { [x0] : x0 >= 0 and x0 <= N0 - 1}\n", "the array space over the output variables"),
        ("# output names\ny0\n", "the number of statements"),
        ("# statements\n1\n", "the number of conflict polyhedra"),
        ("0 0\n", "conflict polyhedron 1 of 1, an isl relation"),
    ] {
        let end = CHAIN.find(cut_after).expect("marker") + cut_after.len();
        let (line, col, msg) = error(&CHAIN[..end]);
        assert!(msg.starts_with(&format!("expected {what}")) && msg.ends_with("found the end of the file"), "{msg}");
        assert_eq!((line, col), (CHAIN[..end].lines().count() + 1, 1), "{msg}");
    }
    let (line, col, msg) = error("# nothing but comments\n\n");
    assert_eq!((line, col), (3, 1));
    assert!(msg.starts_with("expected the array space"), "{msg}");
}

#[test]
fn out_of_range_statement_indices_are_errors() {
    let (line, col, msg) = error(&CHAIN.replace("\n0 0\n", "\n0 1\n"));
    assert_eq!((line, col), (16, 3), "{msg}");
    assert_eq!(msg, "statement index 1 of conflict polyhedron 1 of 1 is out of range: the file declares 1 statement(s), indices 0 to 0");
    let (line, col, msg) = error(&double_buffer().replace("\n1 0\n", "\n1 -1\n"));
    assert_eq!((line, col), (25, 3), "{msg}");
    assert!(msg.contains("expected a statement index of conflict polyhedron 4 of 4 (a non-negative integer), found `-1`"), "{msg}");
    let (_, _, msg) = error(&double_buffer().replace("\n0 1\n", "\n0 1 2\n"));
    assert!(msg.contains("(two integers such as `0 1`), found `0 1 2`"), "{msg}");
}

#[test]
fn errors_print_as_file_line_column() {
    let err = load(&CHAIN.replace("\n0 0\n", "\n0 1\n")).unwrap_err();
    assert!(err.to_string().starts_with("dir/case.smo.input:16:3: statement index 1"), "{err}");
}

/// The statement count agrees with the file and is bounded before anything is built:
/// counts past the limit (a 64-bit overflow, 2^32 + 1, 10^8: these aborted or took
/// gigabytes) and counts the polyhedra do not reach (99 arrays of nothing) are errors
/// at the count's line.
#[test]
fn statement_counts_are_bounded_and_agree_with_the_content() {
    for count in ["9223372036854775808", "4294967297", "100000000", "10001"] {
        let (line, col, msg) = error(&CHAIN.replace("# statements\n1", &format!("# statements\n{count}")));
        assert_eq!((line, col), (9, 1), "{count}: {msg}");
        assert!(msg.contains("at most 10000") || msg.contains("expected the number of statements"), "{count}: {msg}");
    }
    let (line, col, msg) = error(&CHAIN.replace("# statements\n1", "# statements\n99"));
    assert_eq!((line, col), (9, 1), "{msg}");
    assert!(msg.contains("declares 99 statements, but its conflict polyhedra name only statements 0 to 0"), "{msg}");
}

/// `Example::load` does not validate what it reads from this format (its sets were
/// checked while reading): every reading must pass `validate` all the same. Over the
/// bench-suite's input, the inline files, and the SMO tool's corpus when it is present
/// (`POLYALLOC_SMO_CORPUS`, else `../shared/corpus/smo-tool` beside the workspace).
#[test]
fn every_reading_is_a_valid_example() {
    let mut texts: Vec<(String, String)> =
        vec![("chain.smo.input".into(), CHAIN.to_string()), ("double-buffer-1d.smo.input".into(), double_buffer())];
    let corpus = match std::env::var_os("POLYALLOC_SMO_CORPUS") {
        Some(p) if !p.is_empty() => std::path::PathBuf::from(p),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/smo-tool"),
    };
    for kind in ["intra-array", "inter-array"] {
        let Ok(dir) = std::fs::read_dir(corpus.join("examples").join(kind)) else { continue };
        for e in dir.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if is_smo_input(&e.path()) {
                texts.push((format!("{kind}/{name}"), std::fs::read_to_string(e.path()).expect("readable")));
            }
        }
    }
    for (name, text) in &texts {
        let ex = read(text, Path::new(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        ex.validate().unwrap_or_else(|e| panic!("{name}: read, but not valid: {e}"));
        assert!(!ex.instances.is_empty(), "{name}: no instance");
    }
}
