//! Table 1 operations (Pugh 1991, Sec. 2, Appendix 1) checked against brute-force definitions
//! on enumerated points.

use polyalloc_backend_microlp::MicrolpSolver;
use polyalloc_formulation::{BasicSet, Map, Set};
use polyalloc_sched::rel;
use std::collections::{BTreeSet, VecDeque};

type Pairs = BTreeSet<(Vec<i64>, Vec<i64>)>;

fn pairs(m: &Map, params: &[i64]) -> Pairs {
    let ni = m.space().n_in();
    m.enumerate(params, 100_000).unwrap().into_iter().map(|p| (p[..ni].to_vec(), p[ni..].to_vec())).collect()
}

fn points(s: &Set, params: &[i64]) -> BTreeSet<Vec<i64>> {
    s.enumerate(params, 100_000).unwrap().into_iter().collect()
}

const F: &str = "[N] -> { s[i, j] -> s[i + 1, j2] : 0 <= i < N and 0 <= j <= N and j <= j2 <= j + 1 and j2 <= N }";
const G: &str = "[N] -> { s[i, j] -> s[i, j + 2] : 0 <= i <= N and 0 <= j <= N - 2 }";

#[test]
fn compose_inverse_union_intersect() {
    let f = Map::parse(F).unwrap();
    let g = Map::parse(G).unwrap();
    for n in [3, 5] {
        let (pf, pg) = (pairs(&f, &[n]), pairs(&g, &[n]));
        // F ∘ G: first G then F.
        let mut want = Pairs::new();
        for (x, y) in &pg {
            for (y2, z) in &pf {
                if y == y2 {
                    want.insert((x.clone(), z.clone()));
                }
            }
        }
        assert_eq!(pairs(&rel::compose(&f, &g).unwrap(), &[n]), want);
        let inv: Pairs = pf.iter().map(|(x, y)| (y.clone(), x.clone())).collect();
        assert_eq!(pairs(&rel::inverse(&f).unwrap(), &[n]), inv);
        let un: Pairs = pf.union(&pg).cloned().collect();
        assert_eq!(pairs(&rel::union(&f, &g).unwrap(), &[n]), un);
        let is: Pairs = pf.intersection(&pg).cloned().collect();
        assert_eq!(pairs(&rel::intersect(&f, &g).unwrap(), &[n]), is);
        let dom: BTreeSet<Vec<i64>> = pf.iter().map(|(x, _)| x.clone()).collect();
        assert_eq!(points(&rel::domain(&f).unwrap(), &[n]), dom);
        let ran: BTreeSet<Vec<i64>> = pf.iter().map(|(_, y)| y.clone()).collect();
        assert_eq!(points(&rel::range(&f).unwrap(), &[n]), ran);
    }
}

#[test]
fn restrictions_and_pointwise() {
    let f = Map::parse(F).unwrap();
    let g = Map::parse(G).unwrap();
    let s = Set::parse("[N] -> { s[i, j] : 0 <= i and 0 <= j and i + j <= N and exists e : i = 2e }").unwrap();
    for n in [4, 6] {
        let (pf, pg) = (pairs(&f, &[n]), pairs(&g, &[n]));
        let ps = points(&s, &[n]);
        let rd: Pairs = pf.iter().filter(|(x, _)| ps.contains(x)).cloned().collect();
        assert_eq!(pairs(&rel::restrict_domain(&f, &s).unwrap(), &[n]), rd);
        let rr: Pairs = pf.iter().filter(|(_, y)| ps.contains(y)).cloned().collect();
        assert_eq!(pairs(&rel::restrict_range(&f, &s).unwrap(), &[n]), rr);
        let (mut sum, mut diff) = (Pairs::new(), Pairs::new());
        for (x, y) in &pf {
            for (x2, z) in &pg {
                if x == x2 {
                    sum.insert((x.clone(), y.iter().zip(z).map(|(a, b)| a + b).collect()));
                    diff.insert((x.clone(), y.iter().zip(z).map(|(a, b)| a - b).collect()));
                }
            }
        }
        assert_eq!(pairs(&rel::pointwise_sum(&f, &g).unwrap(), &[n]), sum);
        assert_eq!(pairs(&rel::pointwise_diff(&f, &g).unwrap(), &[n]), diff);
        // dd = range(F -. D), D the identity on the domain: the distances y - x.
        let d =
            rel::restrict_domain(&rel::identity(&["N".to_string()], &f.space().input.clone().unwrap()).unwrap(), &rel::domain(&f).unwrap()).unwrap();
        let dd: BTreeSet<Vec<i64>> = pf.iter().map(|(x, y)| y.iter().zip(x).map(|(a, b)| a - b).collect()).collect();
        assert_eq!(points(&rel::range(&rel::pointwise_diff(&f, &d).unwrap()).unwrap(), &[n]), dd);
        assert_eq!(points(&rel::distances(&f).unwrap(), &[n]), dd);
    }
}

/// Sec. 3: `((B_1^R)^-1 ∘ B_2^W)[i, k+1] = [i+1]  (k < i < n)`, printed in the paper.
#[test]
fn pugh_section3_dependence_by_composition() {
    let b2w = Map::parse("[k, n] -> { s2[i, j] -> B[i, j] : k < i <= n and k < j <= n }").unwrap();
    let b1r = Map::parse("[k, n] -> { s1[i] -> B[i - 1, k + 1] : k < i <= n }").unwrap();
    let dep = rel::compose(&rel::inverse(&b1r).unwrap(), &b2w).unwrap();
    let paper = Map::parse("[k, n] -> { s2[i, j] -> s1[i + 1] : j = k + 1 and k < i < n }").unwrap();
    for (k, n) in [(0, 3), (1, 5), (2, 8)] {
        assert_eq!(pairs(&dep, &[k, n]), pairs(&paper, &[k, n]));
    }
}

#[test]
fn emptiness_and_sample() {
    let solver = MicrolpSolver;
    let f = Map::parse(F).unwrap();
    let ctx = BasicSet::parse("[N] -> { : N >= 2 }").unwrap();
    let s = rel::sample(&f, &solver, Some(&ctx)).unwrap().expect("F is not empty");
    assert!(f.contains(&s.params, &s.point).unwrap());
    // F ∩ F⁻¹ is empty: i increases by one.
    let e = rel::intersect(&f, &rel::inverse(&f).unwrap()).unwrap();
    assert!(rel::is_empty(&e, &solver, Some(&ctx)).unwrap());
    assert!(rel::sample(&e, &solver, Some(&ctx)).unwrap().is_none());
}

fn bfs_closure(p: &Pairs) -> Pairs {
    let mut out = Pairs::new();
    let starts: BTreeSet<&Vec<i64>> = p.iter().map(|(x, _)| x).collect();
    for s in starts {
        let mut q: VecDeque<Vec<i64>> = VecDeque::new();
        q.push_back(s.clone());
        let mut seen = BTreeSet::new();
        while let Some(x) = q.pop_front() {
            for (a, b) in p.iter().filter(|(a, _)| *a == x) {
                let _ = a;
                if seen.insert(b.clone()) {
                    out.insert((s.clone(), b.clone()));
                    q.push_back(b.clone());
                }
            }
        }
    }
    out
}

/// Appendix 1: the closed form of `F⁺` for a constant distance equals the closure
/// computed by graph search.
#[test]
fn exact_closure_constant_distance() {
    let solver = MicrolpSolver;
    let f = Map::parse("[N] -> { s[i, j] -> s[i + 1, j + 2] : 0 <= i < N and 0 <= j and j + i <= 2N }").unwrap();
    let cl = rel::transitive_closure(&f, &solver, None, 4).unwrap();
    assert!(cl.exact);
    for n in [2, 4, 6] {
        assert_eq!(pairs(&cl.plus, &[n]), bfs_closure(&pairs(&f, &[n])), "N = {n}");
    }
}

/// A relation without constant distance gets the bounded approximation, flagged inexact,
/// which is a subset of the true closure (false negatives only).
#[test]
fn approximate_closure_is_a_subset() {
    let solver = MicrolpSolver;
    let f = Map::parse(F).unwrap();
    let cl = rel::transitive_closure(&f, &solver, None, 2).unwrap();
    assert!(!cl.exact);
    for n in [3, 5] {
        let truth = bfs_closure(&pairs(&f, &[n]));
        let got = pairs(&cl.plus, &[n]);
        assert!(got.is_subset(&truth));
        // F ∪ F² exactly: every pair reachable in one or two steps.
        let pf = pairs(&f, &[n]);
        let mut two = pf.clone();
        for (x, y) in &pf {
            for (y2, z) in &pf {
                if y == y2 {
                    two.insert((x.clone(), z.clone()));
                }
            }
        }
        assert_eq!(got, two);
    }
}
