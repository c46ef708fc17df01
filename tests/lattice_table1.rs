//! Lattice Table 1 (001_fde2f8b9768b9541.txt, Sec. 5.4) and Figs. 1/3, 5, 6 on every
//! compiled-in backend: for every row, the successive-modulo baseline (`lefe`), SMO
//! (the paper's BBA column) and the lattice method (`lattice`, Heuristic 3, the paper's
//! "Lattice" column) give mappings verified by the exact checker whose size equals the
//! paper's as a polynomial, whose rows are the paper's (hyperplanes up to sign, equal
//! moduli; compared as a multiset of rows, since the order of the storage dimensions of
//! a modular mapping does not matter and the paper itself prints them in either order)
//! and whose improvement ratio over the paper's LeFe size (leading terms, the Table 1
//! "Ratio" column) equals the paper's. The expected values are the paper's, transcribed
//! in `bench-suite/lattice-*.json`.
//!
//! Rows checked differently (see `NOT_REPRODUCED` and `SIZE_ONLY`):
//! * `lattice-lbm-d3q19`, Lattice: the printed mapping is invalid (the file records
//!   `expect: invalid`); polyalloc's mapping must be verified and of the printed size.
//! * BBA rows listed in `NOT_REPRODUCED` (reconstructed conflict sets) must give a
//!   verified mapping; the rest is printed, not asserted.
//! * The reverse-L BBA rows (reverse-L, stencil-2d-5x5) are reproduced on the Fig. 7a
//!   orientation of the conflict set, which the files use; `bba_depends_on_the_decomposition`
//!   shows the instability Darte et al. 2015, Sec. 6.2 describes on another orientation.
//! * Rows the file gives without hyperplanes (informational) are skipped.

use polyalloc_formulation::{ModularMapping, Polynomial};
use polyalloc_suite::{default_dir, load_dir, Example, PaperResult};
use polyalloc_tests::{allocate, backends, method, Mapped as Allocation};

/// Rows (example id, method, variant) not reproduced by polyalloc, with the reason.
/// They must still give a verified mapping; their size and rows are printed, not
/// asserted. None of them is a Lattice row: they are BBA rows, run with polyalloc's SMO.
const NOT_REPRODUCED: &[(&str, &str, &str, &str)] = &[(
    "lattice-heat-2d-tiled",
    "smo",
    "",
    "on the reconstructed conflict set, polyalloc's SMO finds (i - 2t) mod (4B - 3), (t + j) mod (2B - 2) \
         (8B^2 - 14B + 6), smaller than the printed BBA mapping (20B^2 - 31B + 12)",
)];

/// Rows whose printed mapping is invalid: only the size is compared.
const SIZE_ONLY: &[(&str, &str)] = &[("lattice-lbm-d3q19", "lattice")];

/// Same multiset of rows, hyperplanes up to sign, moduli equal.
fn same_rows(ours: &ModularMapping, paper: &ModularMapping) -> bool {
    if ours.rows.len() != paper.rows.len() {
        return false;
    }
    let mut used = vec![false; paper.rows.len()];
    for a in &ours.rows {
        let hit = paper.rows.iter().enumerate().position(|(k, b)| {
            let neg: Vec<i64> = b.hyperplane.iter().map(|c| -c).collect();
            !used[k] && (a.hyperplane == b.hyperplane || a.hyperplane == neg) && a.modulus == b.modulus
        });
        match hit {
            Some(k) => used[k] = true,
            None => return false,
        }
    }
    true
}

/// The Table 1 ratio, computed by the library function `cargo xtask reproduce` prints.
fn ratio(baseline: &Polynomial, size: &Polynomial) -> Option<String> {
    baseline.improvement_ratio(size)
}

fn lattice_examples() -> Vec<Example> {
    load_dir(&default_dir()).expect("bench-suite loads").into_iter().filter(|e| e.id.starts_with("lattice-")).collect()
}

fn variant(entry: &PaperResult) -> &str {
    entry.extra.get("variant").and_then(|v| v.as_str()).unwrap_or("")
}

fn lefe_paper_size(ex: &Example) -> Option<Polynomial> {
    let e = ex.paper.iter().find(|e| e.method == "lefe")?;
    Polynomial::parse(e.size.as_deref()?).ok()
}

#[test]
fn table1_rows_are_reproduced_on_every_backend() {
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut table = Vec::new();
    for solver in backends() {
        for ex in lattice_examples() {
            for (k, entry) in ex.paper.iter().enumerate() {
                if !matches!(entry.method.as_str(), "lefe" | "smo" | "lattice") || entry.hyperplanes.is_none() {
                    continue;
                }
                let known = NOT_REPRODUCED.iter().find(|(id, m, v, _)| *id == ex.id && *m == entry.method && *v == variant(entry));
                let size_only = SIZE_ONLY.iter().any(|(id, m)| *id == ex.id && *m == entry.method);
                let array = entry.array.as_deref().expect("paper entry names its array");
                let problem = ex.problem(array).unwrap_or_else(|e| panic!("{}: {e}", ex.id));
                let paper_size = Polynomial::parse(entry.size.as_deref().expect("size")).expect("size parses");
                let ours: Allocation = match allocate(method(&entry.method), &problem, solver.as_ref()) {
                    Ok(a) => a,
                    Err(e) => {
                        failures.push(format!("{} {} on {}: {e}", ex.id, entry.method, solver.name()));
                        continue;
                    }
                };
                let our_ratio = match (&ours.size, lefe_paper_size(&ex)) {
                    (Some(s), Some(base)) => ratio(&base, s),
                    _ => None,
                };
                let paper_ratio = entry.extra.get("reduction").and_then(|v| v.as_str()).map(str::to_string);
                table.push(format!(
                    "{:<26} {:<8} {:<8} {:<60} {:<18} ratio {:<6} (paper {})",
                    ex.id,
                    entry.method,
                    solver.name(),
                    ours.mapping.to_string(),
                    ours.size.as_ref().map(|s| s.to_string()).unwrap_or_default(),
                    our_ratio.clone().unwrap_or_default(),
                    paper_ratio.clone().unwrap_or_default()
                ));
                if let Some((_, _, _, why)) = known {
                    eprintln!("not asserted ({why}): {} {} -> {}", ex.id, entry.method, ours.mapping);
                    continue;
                }
                let mut bad = ours.size.as_ref() != Some(&paper_size);
                if !size_only {
                    let paper = ex.paper_mapping(k, &problem.conflicts).expect("paper mapping").expect("has rows");
                    bad |= !same_rows(&ours.mapping, &paper);
                }
                if paper_ratio.is_some() && our_ratio != paper_ratio {
                    bad = true;
                }
                if bad {
                    failures.push(format!(
                        "{} {} on {}: polyalloc {} (size {:?}, ratio {:?}), paper {} (size {paper_size}, ratio {:?})",
                        ex.id,
                        entry.method,
                        solver.name(),
                        ours.mapping,
                        ours.size.map(|s| s.to_string()),
                        our_ratio,
                        entry.mapping.as_deref().unwrap_or(""),
                        paper_ratio
                    ));
                }
                checked += 1;
            }
        }
    }
    println!("{}", table.join("\n"));
    assert!(failures.is_empty(), "Table 1 not reproduced:\n{}", failures.join("\n"));
    // Eight Table 1 examples plus the reverse-L: lefe (7 with hyperplanes + reverse-L),
    // smo (8 + reverse-L) and lattice (8 + reverse-L), minus the rows not asserted.
    let expected = 8 + 9 + 9 - NOT_REPRODUCED.len();
    assert!(checked >= expected * backends().len(), "only {checked} rows checked, expected {expected} per backend");
}

/// Darte et al. 2015, Sec. 6.2 and Fig. 7: BBA's (SMO's) answer depends on how the conflict set is
/// decomposed. On the Fig. 7a orientation (the files' half relation) SMO finds
/// 3x - 2y mod (5N - 4) (checked in the table test); on the lexicographic orientation of
/// the same symmetric conflict set, no hyperplane keeps every polyhedron on one side and
/// SMO returns a different, larger, but still valid mapping. The Lattice result is the
/// same on both (it depends on the symmetric closure only).
#[test]
fn bba_depends_on_the_decomposition() {
    let ex = lattice_examples().into_iter().find(|e| e.id == "lattice-reverse-l").expect("file");
    let fig7a = ex.problem("A").expect("problem");
    let mut lex = fig7a.clone();
    lex.conflicts = polyalloc_formulation::ConflictSet::parse(
        "[N] -> { A[x, y] -> A[x2, y2] : 0 <= x < N and 0 <= y < N and 0 <= x2 < N and 0 <= y2 < N and (x >= N - 2 or y >= N - 2) \
         and (x2 >= N - 2 or y2 >= N - 2) and (x2 > x or (x2 = x and y2 > y)) }",
        polyalloc_formulation::ConflictForm::Half,
    )
    .expect("relation");
    let p = |s: &str| Polynomial::parse(s).expect("poly");
    for solver in backends() {
        let a = allocate(method("smo"), &fig7a, solver.as_ref()).expect("smo on Fig. 7a");
        let b = allocate(method("smo"), &lex, solver.as_ref()).expect("smo on the lexicographic half");
        assert_eq!(a.size, Some(p("5*N - 4")), "{}", a.mapping);
        assert_ne!(b.size, Some(p("5*N - 4")), "{} on {}: expected another mapping", b.mapping, solver.name());
        let la = allocate(method("lattice"), &fig7a, solver.as_ref()).expect("lattice");
        let lb = allocate(method("lattice"), &lex, solver.as_ref()).expect("lattice");
        assert_eq!(la.size, Some(p("4*N - 2")));
        assert_eq!(lb.size, Some(p("4*N - 2")));
    }
}

/// Darte et al. 2015, Sec. 2, Sec. 4.2.3 and Fig. 3: on the reverse-L, Heuristic 2 first finds the
/// reuse vector (2, 2) (a_1 = (1, 1), rho_1 = 2) and then no constant one; Heuristic 3
/// gives (y mod 2, x - y mod (2N - 1)). Fig. 2: Heuristic 1 alone gives N^2.
#[test]
fn fig1_reverse_l() {
    let ex = lattice_examples().into_iter().find(|e| e.id == "lattice-reverse-l").expect("file");
    let problem = ex.problem("A").expect("problem");
    let n2 = Polynomial::parse("N^2").expect("poly");
    let expected = ModularMapping::parse("[N] -> { A[x, y] -> A[y mod 2, (x - y) mod (2N - 1)] }").expect("mapping");
    for solver in backends() {
        let h2 = polyalloc_alloc_lattice::LatticeH2::default().run(&problem, solver.as_ref()).expect("h2");
        assert_eq!(h2.reuse_vectors.first(), Some(&vec![2, 2]), "{}", solver.name());
        assert_eq!(h2.rho, vec![2]);
        let lat = allocate(method("lattice"), &problem, solver.as_ref()).expect("lattice");
        assert!(same_rows(&lat.mapping, &expected), "{} on {}", lat.mapping, solver.name());
        let h1 = allocate(&polyalloc_alloc_lattice::LatticeH1::default(), &problem, solver.as_ref()).expect("h1");
        assert_eq!(h1.size, Some(n2.clone()), "{}", h1.mapping);
    }
}

/// Darte et al. 2015, Sec. 5.2 and Fig. 5: the blur filter gives (y - 2x) mod (2N + 1) (the reuse
/// vector (1, 2) in (x, y) order, needing both the infinity and Manhattan norms).
#[test]
fn fig5_blur_interleaved() {
    let ex = lattice_examples().into_iter().find(|e| e.id == "lattice-blur-interleaved").expect("file");
    let problem = ex.problem("blurx").expect("problem");
    let expected = ModularMapping::parse("[N] -> { blurx[y, x] -> blurx[(y - 2x) mod (2N + 1)] }").expect("mapping");
    for solver in backends() {
        let h2 = polyalloc_alloc_lattice::LatticeH2::default().run(&problem, solver.as_ref()).expect("h2");
        // (x, y) = (1, 2) is (y, x) = (2, 1) in the array's dimension order.
        assert_eq!(h2.reuse_vectors.first(), Some(&vec![2, 1]), "{}", solver.name());
        let lat = allocate(method("lattice"), &problem, solver.as_ref()).expect("lattice");
        assert!(same_rows(&lat.mapping, &expected), "{} on {}", lat.mapping, solver.name());
    }
}

/// Darte et al. 2015, Sec. 5.3 and Fig. 6: the diamond tile gives t mod 2, i mod (2B - 1), the first
/// lattice vector being (0, 2) in (i, t) order, i.e. (2, 0) in the array's (t, i) order.
#[test]
fn fig6_diamond_tile() {
    let ex = lattice_examples().into_iter().find(|e| e.id == "lattice-diamond-tile").expect("file");
    let problem = ex.problem("AB").expect("problem");
    let expected = ModularMapping::parse("[B] -> { AB[tt, ii] -> AB[tt mod 2, ii mod (2B - 1)] }").expect("mapping");
    for solver in backends() {
        let h2 = polyalloc_alloc_lattice::LatticeH2::default().run(&problem, solver.as_ref()).expect("h2");
        assert_eq!(h2.reuse_vectors, vec![vec![2, 0]], "{}", solver.name());
        let lat = allocate(method("lattice"), &problem, solver.as_ref()).expect("lattice");
        assert!(same_rows(&lat.mapping, &expected), "{} on {}", lat.mapping, solver.name());
    }
}

#[test]
fn ratio_is_printed_as_in_the_paper() {
    let p = |s: &str| Polynomial::parse(s).expect("poly");
    // Hand-computed from Table 1's sizes: 2N^2 / (5N - 4) ~ 2N/5, 2N^2 / (4N - 2) ~ N/2,
    // 3N / (2N + 1) ~ 3/2, B^3 / (20B^2 - ...) ~ B/20, 2N^3 / (N^3 + ...) ~ 2.
    assert_eq!(ratio(&p("2*N^2"), &p("5*N - 4")).as_deref(), Some("2N/5"));
    assert_eq!(ratio(&p("2*N^2"), &p("4*N - 2")).as_deref(), Some("N/2"));
    assert_eq!(ratio(&p("3*N"), &p("2*N + 1")).as_deref(), Some("3/2"));
    assert_eq!(ratio(&p("B^3"), &p("20*B^2 - 31*B + 12")).as_deref(), Some("B/20"));
    assert_eq!(ratio(&p("2*N^3"), &p("N^3 + 2*N^2 + N")).as_deref(), Some("2"));
    assert_eq!(ratio(&p("N^2"), &p("N^2")).as_deref(), Some("1"));
}
