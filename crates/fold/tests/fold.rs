//! `polyalloc fold` end to end on the C corpus (`bench-suite/c/`): through clang-19 and
//! Polly, compiled, run and compared.
//!
//! These tests need `clang-19` and `opt-19` with Polly (Debian: clang-19 llvm-19
//! libpolly-19-dev). Without them they say so and pass, unless
//! `POLYALLOC_REQUIRE_POLLY=1` (set by `.ci/run`, which installs the packages), where
//! a missing compiler fails them.

use polyalloc_fold::{fold, FoldOptions, FoldReport, Role, Toolchain, Verdict};
use std::path::PathBuf;

fn polly() -> bool {
    if Toolchain::available() {
        return true;
    }
    assert!(
        std::env::var("POLYALLOC_REQUIRE_POLLY").as_deref() != Ok("1"),
        "clang-19 and opt-19 with Polly are required (POLYALLOC_REQUIRE_POLLY=1): sudo apt-get install clang-19 llvm-19 libpolly-19-dev"
    );
    eprintln!("skipped: clang-19 / opt-19 with Polly not found");
    false
}

fn kernel(name: &str) -> PathBuf {
    polyalloc::suite_dir().join("c").join(format!("{name}.c"))
}

fn run(name: &str) -> FoldReport {
    let opts = FoldOptions { runs: 1, ..FoldOptions::default() };
    fold(&kernel(name), &opts).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Folded, outputs identical, every folded array smaller, the folded process smaller.
fn folds(name: &str, array: &str) -> FoldReport {
    let r = run(name);
    assert_eq!(r.verdict, Verdict::Folded, "{name}:\n{}", r.text());
    let cmp = r.run.as_ref().expect("both programs ran");
    assert!(cmp.identical, "{name}: outputs differ");
    let (_, a, f) = r.folded_arrays().find(|(_, a, _)| a.array == array).unwrap_or_else(|| panic!("{name}: {array} not folded:\n{}", r.text()));
    assert!(f.bytes < a.original_bytes, "{name}: {array} {} -> {} bytes", a.original_bytes, f.bytes);
    // Every folded array has at least max-live cells (no valid mapping has fewer).
    if let Some(m) = a.max_live {
        assert!(f.cells >= m as u64, "{name}: {array} folded onto {} cells, max-live {m}", f.cells);
    }
    // The arrays saved are megabytes: the folded process's peak memory is smaller.
    assert!(cmp.folded.peak_rss_kb < cmp.original.peak_rss_kb, "{name}: peak {} kB -> {} kB", cmp.original.peak_rss_kb, cmp.folded.peak_rss_kb);
    r
}

/// A two-stage blur interleaved row by row: the intermediate needs 3 rows (the
/// vertical pass reads rows y - 1, y and y + 1 of it), a new array.
#[test]
fn blur_fused_folds_its_intermediate_to_three_rows() {
    if !polly() {
        return;
    }
    let r = folds("blur-fused", "bx");
    let (_, a, f) = r.folded_arrays().next().expect("bx");
    assert_eq!(a.role, Role::Scratch);
    assert!(f.placement.starts_with("new array bx_folded"), "{}", f.placement);
    // 3 rows of the 1000-wide image (max-live, which the mapping reaches).
    assert_eq!(a.max_live, Some(3000));
    assert_eq!(f.cells, 3000);
}

/// A time-expanded 1-D Jacobi whose table is local to the kernel: two rows suffice
/// (row t reads row t - 1 only).
#[test]
fn jacobi_1d_expanded_folds_its_table() {
    if !polly() {
        return;
    }
    let r = folds("jacobi-1d-expanded", "A");
    let (_, a, f) = r.folded_arrays().next().expect("A");
    assert!(f.cells <= 2 * 1500, "{} cells", f.cells);
    assert!(a.original_bytes >= 1000 * 1500 * 8);
}

/// The longest common subsequence's table: row i reads rows i and i - 1.
#[test]
fn lcs_2d_folds_its_table() {
    if !polly() {
        return;
    }
    let r = folds("lcs-2d", "L");
    let (_, _, f) = r.folded_arrays().next().expect("L");
    assert!(f.cells <= 2 * 1101, "{} cells", f.cells);
}

/// The caller owns the time-expanded table and reads only its last row (the source's
/// `polyalloc live-out` annotation): folded in place, the last row and the inputs
/// where the caller expects them.
#[test]
fn jacobi_1d_in_place_rows_fold_in_place() {
    if !polly() {
        return;
    }
    let r = folds("jacobi-1d-inplace-rows", "A");
    let (_, a, f) = r.folded_arrays().next().expect("A");
    assert_eq!(a.role, Role::Narrowed);
    assert!(f.placement.starts_with("in place"), "{}", f.placement);
}

/// Kernels with nothing to fold say so, with the reason, and are not run.
#[test]
fn nothing_to_fold_is_said_with_the_reason() {
    if !polly() {
        return;
    }
    let r = run("matmul");
    assert_eq!(r.verdict, Verdict::NothingToFold, "{}", r.text());
    assert!(r.run.is_none());
    let c = r.scops.iter().flat_map(|s| &s.arrays).find(|a| a.array == "C" && a.role != Role::ReadOnly).expect("C");
    assert!(c.nothing_to_fold.as_deref().is_some_and(|w| w.contains("a parameter of `kernel_matmul`")), "{:?}", c.nothing_to_fold);
    // The unfused blur computes the whole intermediate before reading it: every row is
    // live at once, no mapping is smaller.
    let r = run("blur-unfused");
    assert_eq!(r.verdict, Verdict::NothingToFold, "{}", r.text());
    let bx = r.scops.iter().flat_map(|s| &s.arrays).find(|a| a.array == "bx").expect("bx");
    assert_eq!(bx.role, Role::Scratch);
    assert!(bx.nothing_to_fold.as_deref().is_some_and(|w| w.starts_with("no smaller mapping")), "{:?}", bx.nothing_to_fold);
}

/// A wrong mapping (2 rows where the blur needs 3), fed through the test-only chooser
/// instead of a verified method, is refused by the check before Polly sees it: no
/// folded JSCoP is written, nothing is compiled.
#[test]
fn a_wrong_mapping_is_refused_before_polly_sees_it() {
    if !polly() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("polyalloc-fold-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = FoldOptions {
        runs: 1,
        emit: Some(dir.clone()),
        chooser: Some(Box::new(|_, array| {
            (array == "bx").then(|| polyalloc_formulation::ModularMapping::parse("{ bx[y, x] -> bx[y mod 2, x] }").expect("parses"))
        })),
        ..FoldOptions::default()
    };
    let r = fold(&kernel("blur-fused"), &opts).expect("runs");
    assert_eq!(r.verdict, Verdict::NothingToFold, "{}", r.text());
    let bx = r.scops.iter().flat_map(|s| &s.arrays).find(|a| a.array == "bx").expect("bx");
    let why = bx.nothing_to_fold.as_deref().unwrap_or("");
    assert!(why.starts_with("refused by the check before Polly") && why.contains("differs"), "{why}");
    let written: Vec<String> = std::fs::read_dir(dir.join("scops"))
        .expect("scops")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().to_string()))
        .filter(|n| n.ends_with(".polyalloc"))
        .collect();
    assert!(written.is_empty(), "{written:?}");
    assert!(!dir.join("blur-fused.folded").exists() && !dir.join("blur-fused.folded.ll").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without the compiler, the error names the Debian packages.
#[test]
fn a_missing_compiler_names_the_packages() {
    let opts = FoldOptions { clang: Some("/nonexistent/clang-19".into()), ..FoldOptions::default() };
    let e = fold(&kernel("matmul"), &opts).unwrap_err();
    assert!(e.is_input());
    assert!(e.to_string().contains("sudo apt-get install clang-19 llvm-19 libpolly-19-dev"), "{e}");
    let e = fold(&kernel("no-such-kernel"), &FoldOptions::default()).unwrap_err();
    assert!(e.to_string().contains("no-such-kernel.c: no such file"), "{e}");
}

/// A C file clang does not compile, and a live-out comment that names no array, are
/// input errors naming the file.
#[test]
fn bad_c_input_is_an_input_error_naming_the_file() {
    if !polly() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("polyalloc-fold-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let broken = dir.join("broken.c");
    std::fs::write(&broken, "void k(double A[4]) { for (int i = 0; i < 4; i++) A[i] = ; }\n").unwrap();
    let e = fold(&broken, &FoldOptions::default()).unwrap_err();
    assert!(e.is_input(), "{e}");
    assert!(e.to_string().contains("broken.c: clang-19 does not compile it") && e.to_string().contains("expected expression"), "{e}");
    let wrong = dir.join("wrong.c");
    std::fs::write(&wrong, "// polyalloc live-out: { Z[i] : i = 3 }\nvoid k(double A[4]) { for (int i = 1; i < 4; i++) A[i] = A[i - 1] + 1.0; }\n")
        .unwrap();
    let e = fold(&wrong, &FoldOptions::default()).unwrap_err();
    assert!(e.is_input(), "{e}");
    assert!(e.to_string().contains("wrong.c:1: polyalloc live-out `{ Z[i] : i = 3 }` names no array of a SCoP"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
