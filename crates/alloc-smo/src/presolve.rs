//! An exact upper bound on `η` (the number of conflict polyhedra one hyperplane can
//! satisfy) by branch and bound over the box of hyperplane coefficients.
//!
//! Why: the first objective of (7) is hard for every ILP backend although the model is
//! small. Its linear relaxation satisfies every polyhedron "half" in both directions
//! (`x1 = x2 = 1/2` with `Γ` near 0), so the relaxation bound stays at `l` until `Γ`
//! is almost fixed, and a backend enumerates the box of `Γ` through its tree (on
//! `ov-example3`, 115 polyhedra, HiGHS needed 37 s and microlp and CBC more than 60 s).
//! Here the same enumeration runs with a bound that sees it: a polyhedron can only be
//! satisfied in a sub-box of `Γ` if every row of its side can still hold there, which
//! interval arithmetic tells at once. The maximum is then added to the model as the
//! valid inequality `η <= η_max`, and the hyperplane attaining it is offered to the
//! backend as a start point: the first stage is proven at the root, and every later
//! stage is still the backend's own search. Nothing is assumed: the bound is a
//! maximum over a relaxation of the model (every constraint on `Γ` alone, the
//! independence from the previous hyperplanes and the decision rows; the bounding
//! rows are left out), and the start point is checked exactly against the model
//! before it is used.
//!
//! [`lex_best`] goes further and settles the whole lexicographic objective
//! `(−η, u, w, Σ|γ_j|, Σ j |γ_j|)` in the same branch and bound: for a fixed `Γ` the
//! least `(u, w)` has a closed form when the bounding rows have non-negative
//! coefficients ([`key_of`]), and it is monotone in `|Γ . d|`, so a box has a key lower
//! bound too. When that optimum is unique up to sign and its modulus is positive on the
//! array's cells, it is the answer every backend's ILP returns (the plain ILP is
//! compared with it on every example in `tests/smo_table1.rs`), and SMO takes it
//! without building the model (the ILP solves were most of SMO's time on the
//! paper examples, 2-10 ms of microlp per hyperplane against well under 1 ms here).

use crate::decision::{BoundRow, GammaRow, Side};

/// One (merged) polyhedron for the bound: its two sides and its weight in `η`.
pub(crate) struct Piece<'a> {
    pub plus: &'a Side,
    pub minus: &'a Side,
    pub weight: i64,
}

/// The problem: maximise `Σ weight [plus holds or minus holds] + always` over integer
/// `Γ` with `|γ_j| <= bound`, every `free` row, and `r . Γ != 0` for some row `r` of
/// `complement`.
pub(crate) struct EtaProblem<'a> {
    pub n: usize,
    pub bound: i64,
    pub pieces: Vec<Piece<'a>>,
    /// Weight of polyhedra whose decision rows are not split: counted as satisfiable.
    pub always: i64,
    pub free: Vec<&'a GammaRow>,
    pub complement: &'a [Vec<i64>],
}

/// Most boxes visited before giving up (the model is then solved without the bound).
pub(crate) const NODE_LIMIT: usize = 200_000;

/// Most hyperplanes attaining the maximum that are collected.
pub(crate) const MAX_OPTIMA: usize = 4096;

/// The maximum of `η` and every hyperplane attaining it whose first non-zero
/// coefficient is positive (with their negations, every hyperplane attaining it), or
/// `None`: no feasible `Γ`, the node limit was reached (or the run's time budget), or
/// more than [`MAX_OPTIMA`] hyperplanes attain the maximum.
pub(crate) fn max_eta(p: &EtaProblem<'_>) -> Option<(i64, Vec<Vec<i64>>)> {
    // [`lex_best`] without bounding rows and tie-breaks: every key is the same, so the
    // optima are all the hyperplanes of largest η.
    lex_best(p, &[], 0, 0, 0, false).map(|b| (b.eta, b.optima))
}

/// The rest of objective (7) and the tie-breaks for a fixed hyperplane `Γ`:
/// `(u_1, ..., u_p, w, Σ|γ_j|, Σ j |γ_j|)`, the lexicographic minimum of the bounding
/// constraints `u . P + w g0 >= |Γ . d|` over `0 <= u <= u_max`, `|w| <= w_max`, or
/// `None` when no `(u, w)` of the box satisfies them, or when a coefficient `P` or `g0`
/// is negative (the closed form below needs an up-closed feasible set).
///
/// With non-negative coefficients the feasible set of `(u, w)` is closed upwards, so the
/// lexicographic minimum takes each variable in turn at the least value that still
/// leaves the later ones room at their upper bounds: exact, no solver needed.
pub(crate) fn key_of(gamma: &[i64], rows: &[&BoundRow], np: usize, u_max: i64, w_max: i64) -> Option<Vec<i128>> {
    let rhs: Vec<i128> = rows.iter().map(|r| r.d.iter().zip(gamma).map(|(&d, &g)| d as i128 * g as i128).sum::<i128>().abs()).collect();
    let mut x = least_uw(&rhs, rows, np, u_max, w_max)?;
    x.push(gamma.iter().map(|&g| (g as i128).abs()).sum());
    x.push(gamma.iter().enumerate().map(|(j, &g)| j as i128 * (g as i128).abs()).sum());
    Some(x)
}

/// The lexicographic minimum `(u_1, ..., u_p, w)` of `u . P + w g0 >= rhs_r` for every
/// row `r` over the box of `(u, w)` (see [`key_of`]). It is monotone in `rhs`: smaller
/// right-hand sides only enlarge the feasible set, so the minimum can only decrease;
/// [`lex_best`] uses that for its lower bounds.
fn least_uw(rhs: &[i128], rows: &[&BoundRow], np: usize, u_max: i64, w_max: i64) -> Option<Vec<i128>> {
    let sys = UwSystem::new(rows, np, u_max, w_max)?;
    let mut x = Vec::new();
    sys.least(rhs, &mut x, &mut Vec::new()).then_some(x)
}

/// The system `u . P + w g0 >= rhs` of [`least_uw`], its coefficients laid out once
/// (the branch and bound of [`lex_best`] solves it at every box).
pub(crate) struct UwSystem {
    vars: usize,
    /// Row-major, `vars` coefficients per row.
    coefs: Vec<i128>,
    lo: Vec<i128>,
    hi: Vec<i128>,
}

impl UwSystem {
    /// `None` when a row is not up-closed.
    pub(crate) fn new(rows: &[&BoundRow], np: usize, u_max: i64, w_max: i64) -> Option<UwSystem> {
        let vars = np + 1;
        let mut coefs = Vec::with_capacity(rows.len() * vars);
        for r in rows {
            if !up_closed(r, np) {
                return None;
            }
            coefs.extend(r.p.iter().map(|&x| x as i128));
            coefs.push(r.g0 as i128);
        }
        let lo = (0..vars).map(|k| if k < np { 0 } else { -(w_max as i128) }).collect();
        let hi = (0..vars).map(|k| if k < np { u_max as i128 } else { w_max as i128 }).collect();
        Some(UwSystem { vars, coefs, lo, hi })
    }

    /// The least `(u, w)` into `x` (false when infeasible). Each variable in turn takes
    /// the least value that leaves the later ones room at their upper bounds; `total`
    /// keeps every row's value at the current `x`.
    pub(crate) fn least(&self, rhs: &[i128], x: &mut Vec<i128>, total: &mut Vec<i128>) -> bool {
        let vars = self.vars;
        x.clear();
        x.extend_from_slice(&self.hi);
        total.clear();
        total.extend(self.coefs.chunks_exact(vars).map(|c| c.iter().zip(x.iter()).map(|(a, v)| a * v).sum::<i128>()));
        for k in 0..vars {
            let mut least = self.lo[k];
            for (c, (&b, &t)) in self.coefs.chunks_exact(vars).zip(rhs.iter().zip(total.iter())) {
                if c[k] > 0 {
                    least = least.max(ceil_div(b - (t - c[k] * x[k]), c[k]));
                }
            }
            if least > self.hi[k] {
                return false;
            }
            let delta = least - x[k];
            if delta != 0 {
                for (c, t) in self.coefs.chunks_exact(vars).zip(total.iter_mut()) {
                    *t += c[k] * delta;
                }
                x[k] = least;
            }
        }
        total.iter().zip(rhs).all(|(t, b)| t >= b)
    }
}

/// The whole lexicographic optimum of a hyperplane's ILP over `Γ`, `(−η, u, w,
/// Σ|γ_j|, Σ j |γ_j|)`, for the relaxation of the model that leaves out only the
/// positivity of the modulus on the array's cells (the caller checks that at the
/// optimum, which then is the model's optimum too: a minimum over a larger set attained
/// in the smaller one).
///
/// One branch and bound over the box of `Γ` (which [`max_eta`] runs without keys),
/// whose boxes carry a lower bound of the key besides the bound of `η`: [`least_uw`] at the least `|Γ . d|` over the box (0 when
/// the box straddles `Γ . d = 0`) and the least `Σ|γ_j|` of the box. A box is cut when
/// its `η` bound is below the incumbent's `η`, or equal to it with a key bound
/// lexicographically above the incumbent's key. Every hyperplane attaining the optimum
/// (up to sign) is collected; `None` as for [`max_eta`], or when a bounding row is not
/// up-closed, or when no hyperplane of the box has a feasible `(u, w)`.
pub(crate) fn lex_best(p: &EtaProblem<'_>, rows: &[&BoundRow], np: usize, u_max: i64, w_max: i64, tie_break: bool) -> Option<LexBest> {
    let sys = UwSystem::new(rows, np, u_max, w_max)?;
    let (mut rhs, mut total) = (Vec::with_capacity(rows.len()), Vec::with_capacity(rows.len()));
    let mut key_bound = |lo: &[i64], hi: &[i64]| -> Option<Vec<i128>> {
        rhs.clear();
        rhs.extend(rows.iter().map(|r| least_abs_dot(&r.d, lo, hi)));
        let mut k = Vec::with_capacity(np + 3);
        if !sys.least(&rhs, &mut k, &mut total) {
            return None;
        }
        let least_abs = |j: usize| -> i128 {
            if lo[j] > 0 {
                lo[j] as i128
            } else if hi[j] < 0 {
                -(hi[j] as i128)
            } else {
                0
            }
        };
        k.push((0..lo.len()).map(least_abs).sum());
        k.push((0..lo.len()).map(|j| j as i128 * least_abs(j)).sum());
        // The tie-breaks are objectives only when asked for.
        if !tie_break {
            k.truncate(np + 1);
        }
        Some(k)
    };
    // Branch first on the coefficients the bounds depend on: a coefficient that no
    // bounding, decision or free row involves changes neither η nor (u, w), only the
    // tie-breaks, and splitting it early multiplies the boxes for nothing (on the LBM
    // examples' later hyperplanes only one coefficient of four matters).
    let mut weight = vec![0i128; p.n];
    let rows_a = p.pieces.iter().flat_map(|q| q.plus.rows.iter().chain(&q.minus.rows)).chain(p.free.iter().copied()).map(|r| &r.a);
    for a in rows_a.chain(rows.iter().map(|r| &r.d)) {
        for (w, &x) in weight.iter_mut().zip(a) {
            *w += (x as i128).abs();
        }
    }
    let mut best: Option<LexBest> = None;
    let mut nodes = 0usize;
    let all: Vec<u32> = (0..p.pieces.len() as u32).collect();
    let mut stack: Vec<KeyedNode> = Vec::new();
    // Γ and -Γ satisfy the same polyhedra (x1 and x2 swap), the same free rows (they
    // come in pairs of signs) and the same independence, and have the same key: search
    // the Γ whose first non-zero coefficient is positive.
    // Every box carries its bounds and the pieces still satisfiable in it (`alive`):
    // a sub-box only lowers `max_on`, so a piece impossible in a box is impossible in
    // every sub-box and its children test only the survivors (the same bound as testing
    // every piece). The bounds of a child are computed once, when it is pushed.
    for k in (0..p.n).rev() {
        let mut lo = vec![-p.bound; p.n];
        let mut hi = vec![p.bound; p.n];
        for j in 0..k {
            lo[j] = 0;
            hi[j] = 0;
        }
        lo[k] = 1;
        if lo[k] <= hi[k] {
            let (ub, alive) = upper(p, &all, &lo, &hi);
            if let Some(key) = key_bound(&lo, &hi) {
                stack.push(KeyedNode { node: Node { lo, hi, ub, alive }, key });
            }
        }
    }
    while let Some(KeyedNode { node: Node { lo, hi, ub: bound, alive }, key }) = stack.pop() {
        nodes += 1;
        // Past the node limit, or past the run's deadline (`polyalloc_ilp::budget`,
        // checked every 1024 boxes): no answer; the solver that follows sees the budget.
        if nodes > NODE_LIMIT || (nodes % 1024 == 0 && polyalloc_ilp::budget::check().is_err()) {
            return None;
        }
        if p.free.iter().any(|r| r.max_on(&lo, &hi) < r.beta as i128) {
            continue;
        }
        if let Some(b) = &best {
            if bound < b.eta || (bound == b.eta && key > b.key) {
                continue;
            }
        }
        let split = (0..p.n).filter(|&j| lo[j] < hi[j]).max_by_key(|&j| (weight[j] * (hi[j] - lo[j]) as i128, hi[j] - lo[j], std::cmp::Reverse(j)));
        let Some(split) = split else {
            let gamma = lo;
            if !p.free.iter().all(|r| r.holds(&gamma)) {
                continue;
            }
            if !p.complement.iter().any(|r| r.iter().zip(&gamma).map(|(&a, &g)| a as i128 * g as i128).sum::<i128>() != 0) {
                continue;
            }
            // A single hyperplane: everything is decided exactly (the key bound is its
            // key, and a piece that holds at Γ is possible on the box {Γ}: it is alive).
            let eta = p.always
                + alive
                    .iter()
                    .map(|&i| &p.pieces[i as usize])
                    .filter(|q| q.plus.holds(&gamma) || q.minus.holds(&gamma))
                    .map(|q| q.weight)
                    .sum::<i64>();
            match &mut best {
                Some(b) if eta == b.eta && key == b.key => {
                    b.optima.push(gamma);
                    if b.optima.len() > MAX_OPTIMA {
                        return None;
                    }
                }
                Some(b) if eta < b.eta || (eta == b.eta && key > b.key) => {}
                _ => best = Some(LexBest { eta, key, optima: vec![gamma] }),
            }
            continue;
        };
        let mid = lo[split] + (hi[split] - lo[split]).div_euclid(2);
        let (mut hi_a, mut lo_b) = (hi.clone(), lo.clone());
        hi_a[split] = mid;
        lo_b[split] = mid + 1;
        let mut children = Vec::with_capacity(2);
        for (l, h) in [(lo, hi_a), (lo_b, hi)] {
            let (ub, alive) = upper(p, &alive, &l, &h);
            if best.as_ref().is_some_and(|b| ub < b.eta) {
                continue;
            }
            // A box where no (u, w) fits even the least |Γ . d| has no feasible Γ.
            if let Some(key) = key_bound(&l, &h) {
                children.push(KeyedNode { node: Node { lo: l, hi: h, ub, alive }, key });
            }
        }
        // Depth first, the more promising box (larger η bound, then smaller key bound)
        // first, i.e. pushed last.
        children.sort_by(|a, b| a.node.ub.cmp(&b.node.ub).then_with(|| b.key.cmp(&a.key)));
        stack.extend(children);
    }
    best
}

/// The result of [`lex_best`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LexBest {
    /// The largest `η`.
    pub eta: i64,
    /// The least key ([`key_of`]) among the hyperplanes of largest `η`.
    pub key: Vec<i128>,
    /// Every hyperplane attaining both, first non-zero coefficient positive.
    pub optima: Vec<Vec<i64>>,
}

struct KeyedNode {
    node: Node,
    key: Vec<i128>,
}

/// True when the row has the non-negative coefficients [`key_of`] needs.
pub(crate) fn up_closed(r: &BoundRow, np: usize) -> bool {
    r.g0 >= 0 && r.p.len() == np && r.p.iter().all(|&x| x >= 0)
}

fn ceil_div(a: i128, b: i128) -> i128 {
    polyalloc_formulation::int::ceil_div(a, b)
}

/// A box of the search, with its bound and the pieces still satisfiable in it.
struct Node {
    lo: Vec<i64>,
    hi: Vec<i64>,
    ub: i64,
    alive: Vec<u32>,
}

/// An upper bound of `η` over the box, and the pieces of `alive` that can still be
/// satisfied in it.
fn upper(p: &EtaProblem<'_>, alive: &[u32], lo: &[i64], hi: &[i64]) -> (i64, Vec<u32>) {
    let kept: Vec<u32> = alive
        .iter()
        .copied()
        .filter(|&i| {
            let q = &p.pieces[i as usize];
            q.plus.possible_on(lo, hi) || q.minus.possible_on(lo, hi)
        })
        .collect();
    (p.always + kept.iter().map(|&i| p.pieces[i as usize].weight).sum::<i64>(), kept)
}

/// The least `|d . y|` over the box `lo <= y <= hi` (0 when the box straddles
/// `d . y = 0`): the key bound of a box, here and in the inter-array search.
pub(crate) fn least_abs_dot(d: &[i64], lo: &[i64], hi: &[i64]) -> i128 {
    let (mut a, mut b) = (0i128, 0i128);
    for (&d, (&l, &h)) in d.iter().zip(lo.iter().zip(hi)) {
        let (x, y) = (d as i128 * l as i128, d as i128 * h as i128);
        a += x.min(y);
        b += x.max(y);
    }
    if a > 0 {
        a
    } else if b < 0 {
        -b
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every integer point of `[-bound, bound]^n`.
    fn box_points(n: usize, bound: i64) -> impl Iterator<Item = Vec<i64>> {
        (0..(2 * bound + 1).pow(n as u32)).map(move |code| {
            let mut c = code;
            (0..n)
                .map(|_| {
                    let v = c % (2 * bound + 1) - bound;
                    c /= 2 * bound + 1;
                    v
                })
                .collect()
        })
    }

    fn neg(s: &Side) -> Side {
        Side { rows: s.rows.iter().map(|r| GammaRow { a: r.a.iter().map(|x| -x).collect(), beta: r.beta }).collect(), dead: s.dead }
    }

    /// Random problems with the symmetry of SMO's (minus = plus with the directions
    /// negated, free rows in pairs): the bound equals the brute-force maximum.
    #[test]
    fn agrees_with_brute_force() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % (2 * m as u64 + 1)) as i64 - m
        };
        for _case in 0..40 {
            let n = 2 + (next(1).unsigned_abs() as usize);
            let bound = 3;
            let mut sides = Vec::new();
            for _ in 0..6 {
                let rows: Vec<GammaRow> = (0..2).map(|_| GammaRow { a: (0..n).map(|_| next(2)).collect(), beta: next(1).abs() }).collect();
                let s = Side { rows, dead: false };
                let m = neg(&s);
                sides.push((s, m, 1 + next(1).abs()));
            }
            let f = GammaRow { a: (0..n).map(|_| next(2)).collect(), beta: -4 };
            let fneg = GammaRow { a: f.a.iter().map(|x| -x).collect(), beta: -4 };
            let mut comp = vec![vec![0i64; n]];
            comp[0][0] = 1;
            comp.push((0..n).map(|j| i64::from(j == 1)).collect());
            let p = EtaProblem {
                n,
                bound,
                pieces: sides.iter().map(|(a, b, w)| Piece { plus: a, minus: b, weight: *w }).collect(),
                always: 0,
                free: vec![&f, &fneg],
                complement: &comp,
            };
            let eta_of = |g: &[i64]| -> i64 { p.pieces.iter().filter(|q| q.plus.holds(g) || q.minus.holds(g)).map(|q| q.weight).sum() };
            let mut brute: Option<(i64, Vec<Vec<i64>>)> = None;
            for g in box_points(n, bound) {
                let indep = comp.iter().any(|r| r.iter().zip(&g).map(|(a, b)| a * b).sum::<i64>() != 0);
                if !indep || !p.free.iter().all(|r| r.holds(&g)) {
                    continue;
                }
                let e = eta_of(&g);
                match &mut brute {
                    Some((b, all)) if e == *b => all.push(g),
                    Some((b, _)) if e < *b => {}
                    _ => brute = Some((e, vec![g])),
                }
            }
            let got = max_eta(&p);
            assert_eq!(got.as_ref().map(|(e, _)| *e), brute.as_ref().map(|(e, _)| *e));
            if let Some((e, all)) = got {
                // Every maximiser, each once up to sign.
                let mut with_signs: Vec<Vec<i64>> = all.iter().flat_map(|g| [g.clone(), g.iter().map(|x| -x).collect()]).collect();
                with_signs.sort();
                let mut expected = brute.map(|(_, v)| v).unwrap_or_default();
                expected.sort();
                assert_eq!(with_signs, expected);
                for g in &all {
                    assert_eq!(eta_of(g), e);
                }
            }
        }
    }

    /// Random problems with bounding rows: `lex_best` finds exactly the hyperplanes of
    /// the brute-force lexicographic optimum of `(−η, key_of)` over the box (keys that
    /// have no feasible `(u, w)` excluded), with and without the tie-breaks.
    #[test]
    fn lex_best_agrees_with_brute_force() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |m: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % (2 * m as u64 + 1)) as i64 - m
        };
        let mut solved = 0;
        for case in 0..60 {
            let n = 2 + (next(1).unsigned_abs() as usize);
            let bound = 3;
            let np = (case % 3) as usize;
            let mut sides = Vec::new();
            for _ in 0..5 {
                let rows: Vec<GammaRow> = (0..2).map(|_| GammaRow { a: (0..n).map(|_| next(2)).collect(), beta: next(1).abs() }).collect();
                let s = Side { rows, dead: false };
                let m = neg(&s);
                sides.push((s, m, 1 + next(1).abs()));
            }
            let brows: Vec<BoundRow> = (0..4)
                .map(|_| BoundRow { g0: next(1).abs(), p: (0..np).map(|_| next(2).abs()).collect(), d: (0..n).map(|_| next(2)).collect() })
                .collect();
            let rows: Vec<&BoundRow> = brows.iter().collect();
            let comp: Vec<Vec<i64>> = (0..n).map(|k| (0..n).map(|j| i64::from(j == k)).collect()).collect();
            let p = EtaProblem {
                n,
                bound,
                pieces: sides.iter().map(|(a, b, w)| Piece { plus: a, minus: b, weight: *w }).collect(),
                always: 0,
                free: vec![],
                complement: &comp,
            };
            let (u_max, w_max) = (2, 6);
            for tie_break in [true, false] {
                let mut brute: Option<(i64, Vec<i128>, Vec<Vec<i64>>)> = None;
                for g in box_points(n, bound) {
                    if g.iter().all(|&x| x == 0) || g.iter().find(|&&x| x != 0).is_some_and(|&x| x < 0) {
                        continue;
                    }
                    let Some(mut key) = key_of(&g, &rows, np, u_max, w_max) else { continue };
                    if !tie_break {
                        key.truncate(np + 1);
                    }
                    let eta: i64 = p.pieces.iter().filter(|q| q.plus.holds(&g) || q.minus.holds(&g)).map(|q| q.weight).sum();
                    match &mut brute {
                        Some((e, k, all)) if eta == *e && key == *k => all.push(g),
                        Some((e, k, _)) if eta < *e || (eta == *e && key > *k) => {}
                        _ => brute = Some((eta, key, vec![g])),
                    }
                }
                let got = lex_best(&p, &rows, np, u_max, w_max, tie_break);
                match (got, brute) {
                    (None, None) => {}
                    (Some(mut g), Some((e, k, mut all))) => {
                        solved += 1;
                        assert_eq!((g.eta, &g.key), (e, &k), "case {case}");
                        g.optima.sort();
                        all.sort();
                        assert_eq!(g.optima, all, "case {case}");
                    }
                    (g, b) => panic!("case {case}: {g:?} vs brute force {b:?}"),
                }
            }
        }
        assert!(solved >= 60, "only {solved} cases had a feasible hyperplane");
    }
}
