//! The whole lexicographic optimum of one `smo-inter` storage row by branch and bound
//! over the box of its unknowns, without an ILP: [`crate::presolve::lex_best`] extended
//! to the inter-array objective.
//!
//! The unknowns are the row's combined vector `y = (Γ_0 | ... | Γ_{k-1} | o_1 ..
//! o_{k-1})` without the coefficients fixed to 0, each in its box `|y_j| <= bound_j`
//! (the ILP's bounds). For a fixed `y` every other unknown of the row's ILP has a closed
//! form: a polyhedron is satisfied iff one side of its split decision constraints
//! ([`crate::decision::decide_points`]) holds at `y` (the ILP's objective sets its
//! decision variable then), each bound `(u, w)` is the least of its bounding rows
//! ([`UwSystem`], exact when the rows are up-closed), and the tie-breaks are `Σ|y_j|`
//! and `Σ pos_j |y_j|`. So the ILP's lexicographic optimum is the least key over the
//! box (the free rows and the independence from the previous rows holding), the key
//! being the objectives in the ILP's order ([`Objective`]).
//!
//! The search is [`crate::presolve::lex_best`]'s: a box carries, per objective, a bound
//! valid at every point of the box (the polyhedra that can still be satisfied there,
//! each group counting at most its maximum [`max_satisfied`]; the least `(u, w)` at
//! the least `|y . d|` of the box; the least `Σ|y_j|`); in priority order these form a
//! lexicographic lower bound of the key of every point of the box, so a box whose bound
//! is above the incumbent's key holds no optimum. Every optimum is collected, up to
//! sign: the problem is symmetric (a polyhedron's two sides are each other's negation,
//! free rows come in pairs of signs, the bounds and tie-breaks see `|.|`), so `y` and
//! `-y` have the same key and the search keeps the first non-zero coordinate positive.
//! The coordinates are split in rank order (those of the intra-array objectives, which
//! come first in the key, then the other coefficients, then the offsets): with the
//! offsets still wide, a box's intra-array key is already exact.

use crate::decision::{BoundRow, GammaRow, Side};
use crate::presolve::{least_abs_dot, UwSystem, MAX_OPTIMA};

/// One objective of the row's ILP, in priority order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Objective {
    /// Minus the number of satisfied polyhedra of one class ([`Piece::class`]).
    Unsatisfied(usize),
    /// The least `(u_1, ..., u_p, w)` of one bounding system (an index of
    /// [`RowProblem::systems`]).
    Bound(usize),
    /// `Σ|y_j|`.
    Size,
    /// `Σ position_j |y_j|`.
    Position,
}

/// A conflict polyhedron: what satisfying it on either side requires of `y`.
pub(crate) struct Piece<'a> {
    pub plus: &'a Side,
    pub minus: &'a Side,
    /// Its satisfaction count ([`Objective::Unsatisfied`]).
    pub class: usize,
    /// Its group ([`RowProblem::group_max`]).
    pub group: usize,
}

/// The row's problem over `y`.
pub(crate) struct RowProblem<'a> {
    /// The box: `|y_j| <= bound_j`.
    pub bound: Vec<i64>,
    pub pieces: Vec<Piece<'a>>,
    /// Rows on `y` alone that every solution satisfies.
    pub free: Vec<&'a GammaRow>,
    /// `r . y != 0` for some `r` (independence from the previous rows).
    pub complement: &'a [Vec<i64>],
    /// The bounding systems `u . P + w g0 >= |y . d|`.
    pub systems: Vec<Vec<&'a BoundRow>>,
    /// The number of parameters (of `u`).
    pub np: usize,
    /// The box of `(u, w)`: `0 <= u <= u_max`, `|w| <= w_max`.
    pub u_max: i64,
    pub w_max: i64,
    pub objectives: Vec<Objective>,
    /// The weight of each coordinate in [`Objective::Position`].
    pub position: Vec<i64>,
    /// The coordinates of least rank are split first.
    pub rank: Vec<u8>,
    /// Per group of pieces, the most of them any `y` satisfies ([`max_satisfied`]): the
    /// bound of a box counts at most that many of the group's pieces (with only
    /// interval arithmetic, the pieces of one array that no hyperplane satisfies
    /// together all look satisfiable until the box is a point).
    pub group_max: Vec<i64>,
}

/// The result of [`lex_best`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Best {
    /// The least key: per objective its value (`-η` for [`Objective::Unsatisfied`], the
    /// `p + 1` values `u, w` for [`Objective::Bound`]).
    pub key: Vec<i128>,
    /// Every `y` attaining it whose first non-zero coordinate is positive.
    pub optima: Vec<Vec<i64>>,
}

/// A box of the search with its key bound, the pieces still satisfiable in it and the
/// free rows it does not imply.
struct Node {
    lo: Vec<i64>,
    hi: Vec<i64>,
    alive: Vec<u32>,
    rows: Vec<u32>,
    key: Vec<i128>,
}

/// The rows of `rows` (indices of `free`) that the box does not imply, or `None` when one
/// of them fails on the whole box. A row implied on a box is implied on its sub-boxes,
/// so a box's children test only its list; on a single point the list is empty.
fn unsettled(free: &[&GammaRow], rows: &[u32], lo: &[i64], hi: &[i64]) -> Option<Vec<u32>> {
    let mut out = Vec::with_capacity(rows.len());
    for &i in rows {
        let r = free[i as usize];
        let (least, most) = r.range_on(lo, hi);
        if most < r.beta as i128 {
            return None;
        }
        if least < r.beta as i128 {
            out.push(i);
        }
    }
    Some(out)
}

/// The least `|y_j|` over the box.
fn least_abs(lo: i64, hi: i64) -> i128 {
    if lo > 0 {
        lo as i128
    } else if hi < 0 {
        -(hi as i128)
    } else {
        0
    }
}

/// The lexicographic optimum of the row's ILP and every `y` attaining it (up to sign), or
/// `None`: no feasible `y`, a bounding row not up-closed, more than `node_limit` boxes
/// (or the run's time budget), or more than [`MAX_OPTIMA`] optima.
pub(crate) fn lex_best(p: &RowProblem<'_>, node_limit: usize) -> Option<Best> {
    let n = p.bound.len();
    let systems: Vec<UwSystem> = p.systems.iter().map(|rows| UwSystem::new(rows, p.np, p.u_max, p.w_max)).collect::<Option<_>>()?;
    let (mut rhs, mut x, mut total, mut count) = (Vec::new(), Vec::new(), Vec::new(), Vec::<i64>::new());
    // The key bound of a box whose satisfiable pieces are `alive` (exact on a single
    // point); `None` when no (u, w) fits even the least differences of the box.
    let mut key_bound = |lo: &[i64], hi: &[i64], alive: &[u32]| -> Option<Vec<i128>> {
        let mut key = Vec::new();
        for o in &p.objectives {
            match *o {
                Objective::Unsatisfied(class) => {
                    count.clear();
                    count.resize(p.group_max.len(), 0);
                    for &i in alive {
                        let q = &p.pieces[i as usize];
                        if q.class == class {
                            count[q.group] += 1;
                        }
                    }
                    key.push(-count.iter().zip(&p.group_max).map(|(&c, &m)| c.min(m) as i128).sum::<i128>());
                }
                Objective::Bound(s) => {
                    rhs.clear();
                    rhs.extend(p.systems[s].iter().map(|r| least_abs_dot(&r.d, lo, hi)));
                    if !systems[s].least(&rhs, &mut x, &mut total) {
                        return None;
                    }
                    key.extend_from_slice(&x);
                }
                Objective::Size => key.push((0..n).map(|j| least_abs(lo[j], hi[j])).sum()),
                Objective::Position => key.push((0..n).map(|j| p.position[j] as i128 * least_abs(lo[j], hi[j])).sum()),
            }
        }
        Some(key)
    };
    let possible = |alive: &[u32], lo: &[i64], hi: &[i64]| -> Vec<u32> {
        alive
            .iter()
            .copied()
            .filter(|&i| {
                let q = &p.pieces[i as usize];
                q.plus.possible_on(lo, hi) || q.minus.possible_on(lo, hi)
            })
            .collect()
    };
    // Split first the coordinates the rows depend on most (as `presolve::lex_best`).
    let mut weight = vec![0i128; n];
    let rows_a = p.pieces.iter().flat_map(|q| q.plus.rows.iter().chain(&q.minus.rows)).chain(p.free.iter().copied()).map(|r| &r.a);
    for a in rows_a.chain(p.systems.iter().flatten().map(|r| &r.d)) {
        for (w, &v) in weight.iter_mut().zip(a) {
            *w += (v as i128).abs();
        }
    }
    let all: Vec<u32> = (0..p.pieces.len() as u32).collect();
    let all_rows: Vec<u32> = (0..p.free.len() as u32).collect();
    let mut stack: Vec<Node> = Vec::new();
    // y and -y have the same key: the first non-zero coordinate is positive.
    for k in (0..n).rev() {
        if p.bound[k] < 1 {
            continue;
        }
        let mut lo: Vec<i64> = p.bound.iter().map(|&b| -b).collect();
        let mut hi = p.bound.clone();
        for j in 0..k {
            lo[j] = 0;
            hi[j] = 0;
        }
        lo[k] = 1;
        let Some(rows) = unsettled(&p.free, &all_rows, &lo, &hi) else { continue };
        let alive = possible(&all, &lo, &hi);
        if let Some(key) = key_bound(&lo, &hi, &alive) {
            stack.push(Node { lo, hi, alive, rows, key });
        }
    }
    let mut best: Option<Best> = None;
    let mut nodes = 0usize;
    while let Some(Node { lo, hi, alive, rows, key }) = stack.pop() {
        nodes += 1;
        if nodes > node_limit || (nodes % 1024 == 0 && polyalloc_ilp::budget::check().is_err()) {
            return None;
        }
        if best.as_ref().is_some_and(|b| key > b.key) {
            continue;
        }
        let split = (0..n)
            .filter(|&j| lo[j] < hi[j])
            .max_by_key(|&j| (std::cmp::Reverse(p.rank[j]), weight[j] * (hi[j] - lo[j]) as i128, hi[j] - lo[j], std::cmp::Reverse(j)));
        let Some(split) = split else {
            // A single point: its key is exact.
            let y = lo;
            if !p.complement.iter().any(|r| r.iter().zip(&y).map(|(&a, &g)| a as i128 * g as i128).sum::<i128>() != 0) {
                continue;
            }
            match &mut best {
                Some(b) if key == b.key => {
                    b.optima.push(y);
                    if b.optima.len() > MAX_OPTIMA {
                        return None;
                    }
                }
                Some(b) if key > b.key => {}
                _ => best = Some(Best { key, optima: vec![y] }),
            }
            continue;
        };
        let mid = lo[split] + (hi[split] - lo[split]).div_euclid(2);
        let (mut hi_a, mut lo_b) = (hi.clone(), lo.clone());
        hi_a[split] = mid;
        lo_b[split] = mid + 1;
        let mut children = Vec::with_capacity(2);
        for (l, h) in [(lo, hi_a), (lo_b, hi)] {
            let Some(rows) = unsettled(&p.free, &rows, &l, &h) else { continue };
            let alive = possible(&alive, &l, &h);
            let Some(key) = key_bound(&l, &h, &alive) else { continue };
            if best.as_ref().is_some_and(|b| key > b.key) {
                continue;
            }
            children.push(Node { lo: l, hi: h, alive, rows, key });
        }
        // Depth first, the box of smaller key bound first (pushed last).
        children.sort_by(|a, b| b.key.cmp(&a.key));
        stack.extend(children);
    }
    best
}

/// The most of the pieces `members` that one `y` of the box satisfies, the rows `free`
/// holding, by branch and bound over the coordinates the members' rows involve (the
/// free rows that involve others are left out: a relaxation); `None` when no `y`
/// satisfies the free rows or past `node_limit` boxes (or the run's time budget).
pub(crate) fn max_satisfied(pieces: &[Piece<'_>], members: &[usize], free: &[&GammaRow], bound: &[i64], node_limit: usize) -> Option<i64> {
    let n = bound.len();
    let mut weight = vec![0i128; n];
    for &i in members {
        let q = &pieces[i];
        for r in q.plus.rows.iter().chain(&q.minus.rows) {
            for (w, &a) in weight.iter_mut().zip(&r.a) {
                *w += (a as i128).abs();
            }
        }
    }
    let free: Vec<&GammaRow> = free.iter().copied().filter(|r| r.a.iter().zip(&weight).all(|(&a, &w)| a == 0 || w > 0)).collect();
    let alive: Vec<usize> = members.to_vec();
    let mut best: Option<i64> = None;
    let mut stack = vec![(bound.iter().map(|&b| -b).collect::<Vec<i64>>(), bound.to_vec(), alive)];
    let mut nodes = 0usize;
    while let Some((lo, hi, alive)) = stack.pop() {
        nodes += 1;
        if nodes > node_limit || (nodes % 1024 == 0 && polyalloc_ilp::budget::check().is_err()) {
            return None;
        }
        if free.iter().any(|r| r.max_on(&lo, &hi) < r.beta as i128) {
            continue;
        }
        let alive: Vec<usize> =
            alive.into_iter().filter(|&i| pieces[i].plus.possible_on(&lo, &hi) || pieces[i].minus.possible_on(&lo, &hi)).collect();
        let ub = alive.len() as i64;
        if best.is_some_and(|b| ub <= b) {
            continue;
        }
        let split = (0..n).filter(|&j| weight[j] > 0 && lo[j] < hi[j]).max_by_key(|&j| (weight[j] * (hi[j] - lo[j]) as i128, std::cmp::Reverse(j)));
        let Some(split) = split else {
            // Every coordinate the rows involve is fixed: the bounds are exact.
            best = Some(ub);
            continue;
        };
        let mid = lo[split] + (hi[split] - lo[split]).div_euclid(2);
        let (mut hi_a, mut lo_b) = (hi.clone(), lo.clone());
        hi_a[split] = mid;
        lo_b[split] = mid + 1;
        stack.push((lo, hi_a, alive.clone()));
        stack.push((lo_b, hi, alive));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Rng(u64);

    impl Rng {
        /// A value in `[-m, m]`.
        fn next(&mut self, m: i64) -> i64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % (2 * m as u64 + 1)) as i64 - m
        }
    }

    /// Every integer point of the box `|y_j| <= bound_j`.
    fn points(bound: &[i64]) -> Vec<Vec<i64>> {
        let mut all = vec![vec![]];
        for &b in bound {
            all = all.into_iter().flat_map(|p: Vec<i64>| (-b..=b).map(move |x| [p.clone(), vec![x]].concat())).collect();
        }
        all
    }

    fn neg(s: &Side) -> Side {
        Side { rows: s.rows.iter().map(|r| GammaRow { a: r.a.iter().map(|x| -x).collect(), beta: r.beta }).collect(), dead: s.dead }
    }

    /// The lexicographically least `(u, w)` of the grid `0 <= u <= u_max`, `|w| <= w_max`
    /// (one parameter) with `u p + w g0 >= |d . y|` on every row, by enumeration.
    fn least_uw(rows: &[&BoundRow], y: &[i64], u_max: i64, w_max: i64) -> Option<Vec<i128>> {
        let rhs: Vec<i64> = rows.iter().map(|r| r.d.iter().zip(y).map(|(a, b)| a * b).sum::<i64>().abs()).collect();
        (0..=u_max)
            .flat_map(|u| (-w_max..=w_max).map(move |w| (u, w)))
            .find(|&(u, w)| rows.iter().zip(&rhs).all(|(r, &b)| u * r.p[0] + w * r.g0 >= b))
            .map(|(u, w)| vec![u as i128, w as i128])
    }

    /// The key of `y`, or `None` when `y` is not a solution, by the definitions.
    fn key_of(p: &RowProblem<'_>, y: &[i64]) -> Option<Vec<i128>> {
        if !p.free.iter().all(|r| r.holds(y)) || !p.complement.iter().any(|r| r.iter().zip(y).map(|(a, b)| a * b).sum::<i64>() != 0) {
            return None;
        }
        let mut key = Vec::new();
        for o in &p.objectives {
            match *o {
                Objective::Unsatisfied(c) => {
                    key.push(-(p.pieces.iter().filter(|q| q.class == c && (q.plus.holds(y) || q.minus.holds(y))).count() as i128))
                }
                Objective::Bound(s) => key.extend(least_uw(&p.systems[s], y, p.u_max, p.w_max)?),
                Objective::Size => key.push(y.iter().map(|x| x.abs() as i128).sum()),
                Objective::Position => key.push(y.iter().zip(&p.position).map(|(x, &w)| (x.abs() * w) as i128).sum()),
            }
        }
        Some(key)
    }

    /// Random problems with the symmetry of `smo-inter`'s (a piece's sides are each
    /// other's negation, free rows in pairs of signs, bounds on `|d . y|`), over boxes of
    /// different widths: `lex_best` finds the brute-force lexicographic optimum and
    /// every point attaining it (up to sign), with the group bounds of
    /// `max_satisfied` (which are the brute-force maxima of their relaxation).
    #[test]
    fn lex_best_agrees_with_brute_force() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut solved = 0;
        for case in 0..120 {
            let n = 2 + (case % 2);
            let bound: Vec<i64> = (0..n).map(|j| 1 + ((case + j) % 3) as i64).collect();
            let sides: Vec<(Side, Side, usize, usize)> = (0..5)
                .map(|_| {
                    let rows = (0..1 + rng.next(1).unsigned_abs() as usize)
                        .map(|_| GammaRow { a: (0..n).map(|_| rng.next(2)).collect(), beta: rng.next(1).abs() })
                        .collect();
                    let s = Side { rows, dead: rng.next(6) == 6 };
                    let m = neg(&s);
                    let class = rng.next(1).unsigned_abs() as usize % 2;
                    (s, m, class, class * 2 + rng.next(1).unsigned_abs() as usize % 2)
                })
                .collect();
            let f = GammaRow { a: (0..n).map(|_| rng.next(2)).collect(), beta: -2 - rng.next(1).abs() };
            let fneg = GammaRow { a: f.a.iter().map(|x| -x).collect(), beta: f.beta };
            let brows: Vec<BoundRow> =
                (0..6).map(|_| BoundRow { g0: rng.next(1).abs(), p: vec![rng.next(2).abs()], d: (0..n).map(|_| rng.next(2)).collect() }).collect();
            let complement: Vec<Vec<i64>> = if case % 3 == 0 {
                vec![(0..n).map(|_| rng.next(1)).collect()]
            } else {
                (0..n).map(|k| (0..n).map(|j| i64::from(j == k)).collect()).collect()
            };
            let pieces: Vec<Piece<'_>> =
                sides.iter().map(|(plus, minus, class, group)| Piece { plus, minus, class: *class, group: *group }).collect();
            let free = vec![&f, &fneg];
            let mut group_max = Vec::new();
            for g in 0..4 {
                let members: Vec<usize> = (0..pieces.len()).filter(|&i| pieces[i].group == g).collect();
                let got = max_satisfied(&pieces, &members, &free, &bound, 10_000);
                // The relaxation: the free rows over the coordinates the members involve.
                let used: Vec<bool> =
                    (0..n).map(|j| members.iter().any(|&i| pieces[i].plus.rows.iter().chain(&pieces[i].minus.rows).any(|r| r.a[j] != 0))).collect();
                let kept: Vec<&&GammaRow> = free.iter().filter(|r| r.a.iter().zip(&used).all(|(&a, &u)| a == 0 || u)).collect();
                let brute = points(&bound)
                    .into_iter()
                    .filter(|y| kept.iter().all(|r| r.holds(y)))
                    .map(|y| members.iter().filter(|&&i| pieces[i].plus.holds(&y) || pieces[i].minus.holds(&y)).count() as i64)
                    .max();
                assert_eq!(got, brute, "case {case}: group {g}");
                group_max.push(got.unwrap_or(members.len() as i64));
            }
            let objectives = if case % 4 == 3 {
                vec![Objective::Unsatisfied(1), Objective::Bound(1)]
            } else {
                vec![
                    Objective::Unsatisfied(0),
                    Objective::Bound(0),
                    Objective::Unsatisfied(1),
                    Objective::Bound(1),
                    Objective::Size,
                    Objective::Position,
                ]
            };
            let p = RowProblem {
                bound: bound.clone(),
                pieces,
                free,
                complement: &complement,
                systems: vec![brows[..3].iter().collect(), brows.iter().collect()],
                np: 1,
                u_max: 3,
                w_max: 6,
                objectives,
                position: (0..n as i64).map(|j| j + 1).collect(),
                rank: (0..n).map(|j| ((case + j) % 3) as u8).collect(),
                group_max,
            };
            let mut brute: Option<(Vec<i128>, Vec<Vec<i64>>)> = None;
            for y in points(&bound) {
                if y.iter().find(|&&x| x != 0).is_none_or(|&x| x < 0) {
                    continue;
                }
                let Some(key) = key_of(&p, &y) else { continue };
                match &mut brute {
                    Some((k, all)) if key == *k => all.push(y),
                    Some((k, _)) if key > *k => {}
                    _ => brute = Some((key, vec![y])),
                }
            }
            let got = lex_best(&p, 100_000);
            match (got, brute) {
                (None, None) => {}
                (Some(mut b), Some((key, mut all))) => {
                    solved += 1;
                    assert_eq!(b.key, key, "case {case}");
                    b.optima.sort();
                    all.sort();
                    assert_eq!(b.optima, all, "case {case}");
                }
                (b, brute) => panic!("case {case}: {b:?} vs brute force {brute:?}"),
            }
        }
        assert!(solved >= 60, "only {solved} cases had a solution");
    }
}
