//! # polyalloc-alloc-smo: storage hyperplanes by ILP (SMO)
//!
//! Bhaskaracharya, Bondhugula and Cohen, "SMO: An Integrated Approach to Intra-Array and
//! Inter-Array Storage Optimization" (`004_88cf68a96cc0018b.txt`), Sec. 3, Algorithm 1.
//! Given the conflict set `CS = K_1 ∪ ... ∪ K_l` of an array (conflict polyhedra of pairs
//! `(s, t)` of simultaneously live cells), SMO finds storage hyperplanes `Γ_1, ..., Γ_m`
//! one at a time; the mapping is `A[x] -> A[(Γ_1 . x) mod e_1, ..., (Γ_m . x) mod e_m]`.
//!
//! For each hyperplane (FIND-NEXT-HYPERPLANE) one ILP is built over the unknowns `Γ`
//! (integers in `[-coef_bound, coef_bound]`), the parametric bound `u . P + w`
//! (`u >= 0`), and per conflict polyhedron `K_i` a pair of binary decision variables
//! `x1_i, x2_i` with `x1_i + x2_i <= 1`:
//! * bounding constraints (2)/(5): `-(u . P + w) <= Γ . (s - t) <= u . P + w` on `K_i`;
//! * decision constraints (6): `Γ . (s - t) >= 1 - (1 - x1_i)(c ΣP + c + 1)` and
//!   `Γ . (s - t) <= -1 + (1 - x2_i)(c ΣP + c + 1)` on `K_i`;
//!
//! all linearised with the affine form of Farkas' lemma over `K_i` (parameters are
//! dimensions of `K_i`, so the bounds are parametric). The objective (7) is the
//! lexicographic minimum of `(η', u_1, ..., u_p, w)` with `η' = l - Σ(x1_i + x2_i)`
//! (constraint (4)); the contraction modulus is `u . P + w + 1`. The conflict set is then
//! revised, (8)-(9): `K_i' = K_i ∩ { Γ . (s - t) = 0 }`, until it is empty.
//!
//! Choices the paper leaves open, made here and documented:
//! * **The constant `c` of (5)/(6)** is the big-M of the decision constraints: it must
//!   bound `|Γ . (s - t)|` by `c ΣP + c` on every conflict polyhedron. The paper uses
//!   `c = 10` "(higher if no parameters exist)"; [`SmoOptions::c`] defaults to 10 and
//!   [`SmoOptions::c_without_params`] to 1000, raised where the conflict differences
//!   need more (`decision::decision_constant`: at a vertex of a conflict polyhedron
//!   `c (ΣP + 1)` must reach `coef_bound Σ|s - t|`, else every hyperplane is infeasible;
//!   at most 10^6). The paper assumes non-negative parameters (as every paper
//!   example's context gives); a context bounding a parameter below by a negative
//!   value shifts it there in the bound (`negative_offset`), else `c ΣP + c` would be
//!   negative and every hyperplane infeasible.
//! * **Hyperplane coefficient bound**: `|γ_j| <= coef_bound`, default 8 (every Table I
//!   hyperplane has coefficients of magnitude at most 4). Configurable.
//! * **Linear independence is guaranteed, not just observed** (Sec. 3.5 only observes
//!   it): with `r_1, ..., r_q` an integer basis of the orthogonal complement of the
//!   hyperplanes found so far, the ILP requires `r_k . Γ != 0` for some `k` through binary
//!   variables `z_k^+, z_k^-` (`r_k . Γ >= 1` or `<= -1`, big-M `1 + coef_bound Σ|r_k|`,
//!   `Σ z >= 1`). Hence at most `n` hyperplanes, and termination; a conflict set that
//!   still has pairs after `n` hyperplanes contains a pair `s = t` and is rejected.
//! * **Moduli at least 1 wherever the array has a cell**: the bound
//!   `u . P + w` is also kept non-negative on the array's cells within the context
//!   (`polyalloc_alloc::width::positive_on_cells`), so that a modulus such as `N - 2`
//!   is not returned under a context `N >= 2` where the conflicts vanish at `N = 2`.
//! * **Settled without an ILP**: before building a hyperplane's model, a branch and
//!   bound over the box of `Γ` (`presolve::lex_best`) looks for the whole lexicographic
//!   optimum; when it is unique up to sign (and its modulus positive on the cells) it is
//!   the ILP's answer on every backend and no model is built or solved
//!   ([`SmoOptions::solve_settled`] solves it anyway, for solver comparisons). The
//!   mapping is verified by the exact checker like any other.
//! * **Tie-break**: after `(η', u, w)` the ILP minimises `Σ|γ_j|`, then `Σ j |γ_j|`
//!   (coefficients on earlier dimensions first), so that equivalent optima give the same
//!   (smallest) hyperplane on every backend; the sign is normalised
//!   so that the last non-zero coefficient is positive (a sign change does not change a
//!   modular mapping's validity or size).

mod decision;
pub mod inter;
mod inter_search;
mod presolve;
pub mod symmetric;

use decision::{decide, BoundRow, GammaRow, Side};
pub use inter::{InterDetails, SmoInter};
pub use symmetric::SmoSym;

/// The largest constant `c` of the decision constraints (6) (`decision::decision_constant`):
/// a big-M of the ILP, kept far below where floating-point solvers lose integrality.
const MAX_DECISION_CONSTANT: i64 = 1_000_000;
pub use polyalloc_alloc::pieces::revise;
use polyalloc_alloc::pieces::{cell_polyhedra, conflict_polyhedra_with, revise_all_with};
use polyalloc_alloc::width::{
    bound_on_piece_with, diff_form, modulus_of, positive_on_cells_at, positive_on_cells_with, BoundVars, MAX_CONSTANT, MAX_PARAM_COEF,
};
use polyalloc_alloc::{AllocError, Allocator, Problem};
use polyalloc_formulation::farkas::{FarkasOptions, Linearizer};
use polyalloc_formulation::int::lin::orthogonal_complement;
use polyalloc_formulation::StorageRow;
use polyalloc_formulation::{BasicSet, ModularMapping, Space};
use polyalloc_ilp::{Cmp, LexSolve, LinExpr, Model, SolveOptions, Solver, VarId};
use presolve::{max_eta, EtaProblem, Piece};
use std::collections::{BTreeMap, BTreeSet};

/// Options of [`Smo`].
#[derive(Clone, Debug)]
pub struct SmoOptions {
    /// Bound on the magnitude of every hyperplane coefficient.
    pub coef_bound: i64,
    /// The constant `c` of constraints (5)/(6) when the problem has parameters.
    pub c: i64,
    /// The constant `c` when the problem has no parameter.
    pub c_without_params: i64,
    /// Minimise `Σ|γ_j|` after the paper's objective (deterministic answers).
    pub tie_break_small_hyperplane: bool,
    /// Bound `η` by branch and bound over the box of `Γ` and let the later stages
    /// choose among the hyperplanes of largest `η` (see `presolve`); only valid
    /// constraints are added, so the optima are those of the plain ILP. For
    /// `smo-inter` ([`inter`]): settle a row by branch and bound (`inter_search`) and
    /// give its ILP the groups' satisfaction bounds.
    pub presolve: bool,
    /// Solve a hyperplane's ILP even when presolve has settled its optimum (see
    /// `presolve::lex_best`, and `inter_search` for `smo-inter`): off by default, the
    /// answer is the same; on for solver comparisons that want every ILP of SMO solved
    /// by the backend.
    pub solve_settled: bool,
    /// Options of every ILP solve.
    pub solve: SolveOptions,
}

impl Default for SmoOptions {
    fn default() -> Self {
        SmoOptions {
            coef_bound: 8,
            c: 10,
            c_without_params: 1000,
            tie_break_small_hyperplane: true,
            presolve: true,
            solve_settled: false,
            solve: SolveOptions::default(),
        }
    }
}

/// The SMO method.
#[derive(Clone, Debug, Default)]
pub struct Smo {
    pub options: SmoOptions,
}

const NAME: &str = "smo";

/// Most hyperplanes the later stages of one ILP choose among (see `presolve`).
const MAX_CHOICES: usize = 64;

pub use polyalloc_formulation::int::lin::normalise_sign;

/// A choice among hyperplanes for the later stages: `(η_max, hyperplanes, their key)`.
type Choice = (i64, Vec<Vec<i64>>, Option<Vec<i128>>);

impl Smo {
    /// Among the hyperplanes of largest η (`presolve::max_eta`), those of least
    /// `(u, w)` and tie-breaks (`presolve::key_of`, exact when the bounding rows have
    /// non-negative coefficients): the later stages choose among them only.
    fn least_keyed(eta_max: i64, optima: Vec<Vec<i64>>, rows: &[&BoundRow], np: usize, tie_break: bool) -> Option<Choice> {
        if !rows.iter().all(|r| presolve::up_closed(r, np)) {
            return (optima.len() <= MAX_CHOICES).then_some((eta_max, optima, None));
        }
        // The tie-breaks are objectives only when asked for.
        let used = if tie_break { usize::MAX } else { np + 1 };
        let keyed: Vec<(Vec<i128>, Vec<i64>)> = optima
            .into_iter()
            .filter_map(|h| {
                presolve::key_of(&h, rows, np, MAX_PARAM_COEF, MAX_CONSTANT).map(|mut k| {
                    k.truncate(used);
                    (k, h)
                })
            })
            .collect();
        let least = keyed.iter().map(|(k, _)| k.clone()).min()?;
        let best: Vec<Vec<i64>> = keyed.into_iter().filter(|(k, _)| *k == least).map(|(_, h)| h).collect();
        (best.len() <= MAX_CHOICES).then_some((eta_max, best, Some(least)))
    }

    /// FIND-NEXT-HYPERPLANE: the ILP of Sec. 3.4 over the current conflict polyhedra.
    #[allow(clippy::too_many_arguments)]
    fn next_hyperplane(
        &self,
        pieces: &[BasicSet],
        cells: &[BasicSet],
        previous: &[Vec<i64>],
        params: &[String],
        param_space: &Space,
        solver: &dyn Solver,
        round: usize,
        lin: &mut Linearizer,
        offset: i64,
    ) -> Result<(Vec<i64>, polyalloc_formulation::AffExpr), AllocError> {
        let fe = AllocError::formulation(NAME);
        let n = pieces.first().map_or(0, |p| p.space().n_out());
        let b = self.options.coef_bound;
        let c = if params.is_empty() { self.options.c_without_params } else { self.options.c };
        // Raised where the conflict differences exceed the paper's bound (`decision_constant`).
        let gens: Vec<_> = pieces.iter().map(|p| lin.generators(p)).collect();
        let c = decision::decision_constant(gens.iter().flatten().map(|g| g.as_ref()), params.len(), n, c, b, offset, MAX_DECISION_CONSTANT);
        // The split decision constraints (6) (`decision`) of every polyhedron, merged
        // when two polyhedra require the same, and their bounding rows (5).
        let mut merged: BTreeMap<(Side, Side), i64> = BTreeMap::new();
        let mut free: BTreeSet<GammaRow> = BTreeSet::new();
        let mut bound_rows: BTreeSet<BoundRow> = BTreeSet::new();
        let mut unsplit: Vec<usize> = Vec::new();
        for (i, piece) in pieces.iter().enumerate() {
            polyalloc_ilp::budget::check().map_err(|e| fe(e.into()))?;
            let np = piece.space().n_param();
            match gens[i].as_ref().and_then(|g| decide(g, np, n, c, b, offset)) {
                Some(d) => {
                    free.extend(d.free);
                    bound_rows.extend(d.bounds);
                    *merged.entry((d.plus, d.minus)).or_insert(0) += 1;
                }
                None => unsplit.push(i),
            }
        }
        // Linear independence from the previous hyperplanes.
        let comp = orthogonal_complement(previous, n).ok_or_else(|| AllocError::method(NAME, "overflow while completing the hyperplane basis"))?;
        if comp.is_empty() {
            return Err(AllocError::method(
                NAME,
                format!("{n} independent hyperplanes found but conflicts remain: the conflict set contains a pair of equal cells"),
            ));
        }
        let sides: Vec<Piece<'_>> = merged.iter().map(|((plus, minus), &weight)| Piece { plus, minus, weight }).collect();
        let eta = EtaProblem { n, bound: b, pieces: sides, always: 2 * unsplit.len() as i64, free: free.iter().collect(), complement: &comp };
        let np = params.len();
        let rows: Vec<&BoundRow> = bound_rows.iter().collect();
        // The whole lexicographic optimum by branch and bound over the box of Γ
        // (`presolve::lex_best`), for the model without the positivity of the modulus
        // on the cells, checked here at the optimum's (u, w): then it is the model's
        // optimum. A unique optimum (up to sign) is the answer every backend would
        // return: no ILP is built (unless `solve_settled`).
        let settled = if self.options.presolve && unsplit.is_empty() {
            presolve::lex_best(&eta, &rows, np, MAX_PARAM_COEF, MAX_CONSTANT, self.options.tie_break_small_hyperplane)
                .map(|best| positive_on_cells_at(lin, cells, &best.key[..np], best.key[np]).map(|ok| (best, ok)))
        } else {
            None
        };
        if let Some(Some((best, true))) = &settled {
            if best.optima.len() == 1 && !self.options.solve_settled {
                let mut h = best.optima[0].clone();
                normalise_sign(&mut h);
                // (u, w) within the bounds of `BoundVars`: they fit in i64.
                let uw: Vec<i64> = best.key[..=np]
                    .iter()
                    .map(|&x| i64::try_from(x))
                    .collect::<Result<_, _>>()
                    .map_err(|_| AllocError::method(NAME, "overflow in the modulus"))?;
                return Ok((h, modulus_of(&uw[..np], uw[np], param_space)));
            }
        }
        lin.next_model();
        let mut m = Model::new(format!("smo-hyperplane-{round}"));
        let gamma: Vec<VarId> = (0..n).map(|j| m.add_integer(format!("gamma_{j}"), Some(-b), Some(b))).collect();
        let g: Vec<LinExpr> = gamma.iter().map(|&v| LinExpr::from(v)).collect();
        let bound = BoundVars::add(&mut m, params, "");
        // The modulus is at least 1 wherever the array has a cell (issue 16).
        positive_on_cells_with(lin, &mut m, cells, &bound, "A").map_err(&fe)?;
        // Bounding constraints (5) of every polyhedron.
        for (i, piece) in pieces.iter().enumerate() {
            bound_on_piece_with(lin, &mut m, piece, &g, &bound, &format!("K{i}_bound")).map_err(&fe)?;
        }
        let mut satisfied = LinExpr::new();
        let mut xs: Vec<(VarId, VarId)> = Vec::with_capacity(merged.len());
        for (k, ((plus, minus), weight)) in merged.iter().enumerate() {
            let x1 = m.add_binary(format!("x1_{k}"));
            let x2 = m.add_binary(format!("x2_{k}"));
            m.add_constraint(format!("x_{k}_exclusive"), LinExpr::from(x1) + x2, Cmp::Le, 1);
            satisfied = satisfied + LinExpr::term(x1, *weight) + LinExpr::term(x2, *weight);
            for (x, side, tag) in [(x1, plus, "x1"), (x2, minus, "x2")] {
                if side.dead {
                    m.add_constraint(format!("K{k}_{tag}_impossible"), LinExpr::from(x), Cmp::Le, 0);
                    continue;
                }
                for (r, row) in side.rows.iter().enumerate() {
                    // x = 1 => a . Γ >= beta, with the big-M the box allows.
                    let big = row.beta + b * row.a.iter().map(|a| a.abs()).sum::<i64>();
                    let mut e: LinExpr = row.a.iter().zip(&gamma).map(|(&a, &v)| LinExpr::term(v, a)).sum();
                    e -= LinExpr::term(x, big);
                    m.add_constraint(format!("K{k}_{tag}_{r}"), e, Cmp::Ge, row.beta - big);
                }
            }
            xs.push((x1, x2));
        }
        for (r, row) in free.iter().enumerate() {
            let e: LinExpr = row.a.iter().zip(&gamma).map(|(&a, &v)| LinExpr::term(v, a)).sum();
            m.add_constraint(format!("diff_bound_{r}"), e, Cmp::Ge, row.beta);
        }
        // Polyhedra whose decision rows do not split: the paper's rows as they are.
        for &i in &unsplit {
            let piece = &pieces[i];
            let x1 = m.add_binary(format!("x1_K{i}"));
            let x2 = m.add_binary(format!("x2_K{i}"));
            m.add_constraint(format!("x_K{i}_exclusive"), LinExpr::from(x1) + x2, Cmp::Le, 1);
            satisfied = satisfied + x1 + x2;
            let sp = piece.space();
            for (sign, x, tag) in [(1i64, x1, "x1"), (-1, x2, "x2")] {
                // sign * Γ.(s - t) - 1 + (1 - x)(c (ΣP + offset) + c + 1) >= 0
                let mut f = diff_form(sp, &g, sign);
                for k in 0..sp.n_param() {
                    f.coeffs[k] = LinExpr::constant(c) - LinExpr::from(x) * c;
                }
                let co = c.checked_mul(offset).ok_or_else(|| AllocError::method(NAME, "overflow in the decision constant"))?;
                f.constant = LinExpr::constant(c + co) - LinExpr::from(x) * (c + 1 + co);
                lin.nonneg_on(&mut m, piece, &f, &FarkasOptions { name: format!("K{i}_{tag}"), ..Default::default() }).map_err(&fe)?;
            }
        }
        let mut any = LinExpr::new();
        let mut indep = Vec::with_capacity(comp.len());
        for (k, r) in comp.iter().enumerate() {
            let big = 1 + b * r.iter().map(|x| x.abs()).sum::<i64>();
            let dot: LinExpr = r.iter().zip(&gamma).map(|(&rj, &gj)| LinExpr::term(gj, rj)).sum();
            let zp = m.add_binary(format!("indep_{k}_pos"));
            let zn = m.add_binary(format!("indep_{k}_neg"));
            m.add_constraint(format!("indep_{k}_pos"), dot.clone() - LinExpr::from(zp) * big, Cmp::Ge, 1 - big);
            m.add_constraint(format!("indep_{k}_neg"), -dot - LinExpr::from(zn) * big, Cmp::Ge, 1 - big);
            any = any + zp + zn;
            indep.push((zp, zn));
        }
        m.add_constraint("independent", any, Cmp::Ge, 1);
        // Objective (7): lexmin (η', u_1..u_p, w), then Σ|γ|.
        let mut objectives = vec![-satisfied.clone()];
        objectives.extend(bound.objectives());
        let mut abs_vars = Vec::with_capacity(n);
        if self.options.tie_break_small_hyperplane {
            let mut abs_sum = LinExpr::new();
            for (j, &gj) in gamma.iter().enumerate() {
                let a = m.add_integer(format!("abs_gamma_{j}"), Some(0), Some(b));
                m.add_constraint(format!("abs_gamma_{j}_pos"), LinExpr::from(a) - gj, Cmp::Ge, 0);
                m.add_constraint(format!("abs_gamma_{j}_neg"), LinExpr::from(a) + gj, Cmp::Ge, 0);
                abs_sum = abs_sum + a;
                abs_vars.push(a);
            }
            objectives.push(abs_sum);
            // Then prefer coefficients on earlier array dimensions (j before k in the
            // LBM examples, as the paper prints them).
            let position: LinExpr = abs_vars.iter().enumerate().map(|(j, &a)| LinExpr::term(a, j as i64)).sum();
            objectives.push(position);
        }
        // The largest η by branch and bound over the box of Γ (`presolve`): the valid
        // inequality `η <= η_max`, and, since every solution of the later stages
        // attains η_max, the choice of Γ among the hyperplanes attaining it; and a start
        // point (checked exactly) for the first stage.
        let mut start = None;
        let pre = match settled {
            // The optimum is known, its (u, w) holds on the cells: the later stages
            // choose among its hyperplanes only.
            Some(Some((best, true))) => (best.optima.len() <= MAX_CHOICES).then_some((best.eta, best.optima, Some(best.key))),
            // The least key of the relaxation fails on the cells: the backend's own
            // search, without a choice it would not make.
            Some(Some((_, false))) => None,
            // No settled optimum (generators unknown, node limit, keys not closed
            // form): η bounded by `max_eta` as before.
            _ if self.options.presolve && unsplit.is_empty() => {
                max_eta(&eta).and_then(|(eta_max, optima)| Self::least_keyed(eta_max, optima, &rows, np, self.options.tie_break_small_hyperplane))
            }
            _ => None,
        };
        if let Some((eta_max, optima, key)) = pre {
            m.add_constraint("eta_max", satisfied, Cmp::Le, eta_max);
            let mut choose = LinExpr::new();
            let mut gamma_of: Vec<LinExpr> = g.iter().map(|e| -e.clone()).collect();
            let mut choices = Vec::with_capacity(optima.len());
            for (k, h) in optima.iter().enumerate() {
                let cp = m.add_binary(format!("optimum_{k}_pos"));
                let cn = m.add_binary(format!("optimum_{k}_neg"));
                choose = choose + cp + cn;
                for (e, &hj) in gamma_of.iter_mut().zip(h) {
                    *e += LinExpr::term(cp, hj) - LinExpr::term(cn, hj);
                }
                choices.push((cp, cn));
            }
            m.add_constraint("one_optimum", choose, Cmp::Eq, 1);
            for (j, e) in gamma_of.into_iter().enumerate() {
                m.add_constraint(format!("gamma_{j}_is_an_optimum"), e, Cmp::Eq, 0);
            }
            // At η_max every polyhedron a hyperplane separates counts: the decision
            // variables are those of the chosen hyperplane.
            for (k, (&(x1, x2), q)) in xs.iter().zip(&eta.pieces).enumerate() {
                for (x, side, tag) in [(x1, q.plus, "x1"), (x2, q.minus, "x2")] {
                    let mut e = LinExpr::from(x);
                    for (h, &(cp, cn)) in optima.iter().zip(&choices) {
                        let neg: Vec<i64> = h.iter().map(|v| -v).collect();
                        if side.holds(h) {
                            e -= LinExpr::from(cp);
                        }
                        if side.holds(&neg) {
                            e -= LinExpr::from(cn);
                        }
                    }
                    m.add_constraint(format!("K{k}_{tag}_at_optimum"), e, Cmp::Eq, 0);
                }
            }
            let best = &optima[0];
            let mut point = vec![0.0; m.num_vars()];
            point[choices[0].0.index()] = 1.0;
            for (v, &x) in gamma.iter().zip(best) {
                point[v.index()] = x as f64;
            }
            for (&(x1, x2), q) in xs.iter().zip(&eta.pieces) {
                if q.plus.holds(best) {
                    point[x1.index()] = 1.0;
                } else if q.minus.holds(best) {
                    point[x2.index()] = 1.0;
                }
            }
            for (r, &(zp, zn)) in comp.iter().zip(&indep) {
                let dot: i64 = r.iter().zip(best).map(|(a, g)| a * g).sum();
                point[zp.index()] = f64::from(u8::from(dot >= 1));
                point[zn.index()] = f64::from(u8::from(dot <= -1));
            }
            for (&a, &x) in abs_vars.iter().zip(best) {
                point[a.index()] = x.abs() as f64;
            }
            // (u, w) of the chosen hyperplane: its exact minimum when known.
            let uw: Vec<f64> = match &key {
                Some(k) => k[..np + 1].iter().map(|&x| x as f64).collect(),
                None => (0..np).map(|_| MAX_PARAM_COEF as f64).chain(std::iter::once(MAX_CONSTANT as f64)).collect(),
            };
            for (&u, &x) in bound.u.iter().zip(&uw) {
                point[u.index()] = x;
            }
            point[bound.w.index()] = uw[np];
            // Only a point the exact check accepts is offered.
            if m.check_point(&point).is_ok() {
                start = Some(point);
            }
        }
        let lex = solver.lex_minimize_from(&m, &objectives, &self.options.solve, start.as_deref()).map_err(AllocError::solver(NAME))?;
        let mut h: Vec<i64> = gamma.iter().map(|&v| lex.solution.int_value(v)).collect();
        normalise_sign(&mut h);
        Ok((h, bound.modulus(&lex.solution, param_space)))
    }
}

/// `Σ max(0, -L_p)` over the parameters `p` whose context bounds them below by a
/// negative `L_p` (rows `a p + b >= 0` of one parameter): the decision constraints'
/// bound `c ΣP + c` (Bhaskaracharya et al. 2016, Sec. 3.4) assumes non-negative parameters, and a context
/// allowing `N >= -10` made it negative, every hyperplane infeasible. With the offset
/// the bound is `c (ΣP + offset) + c`, positive on the context; non-negative contexts
/// keep the paper's bound exactly (offset 0).
pub(crate) fn negative_offset(context: Option<&BasicSet>) -> i64 {
    let Some(ctx) = context else { return 0 };
    (0..ctx.space().n_param())
        .filter_map(|k| ctx.single_var_bounds(1 + k).0)
        .map(|l| l.saturating_neg().max(0))
        .fold(0i64, |a, b| a.saturating_add(b))
        .min(MAX_DECISION_CONSTANT)
}

impl Allocator for Smo {
    fn name(&self) -> &'static str {
        NAME
    }

    fn summary(&self) -> &'static str {
        "SMO storage hyperplanes by ILP (Bhaskaracharya, Bondhugula, Cohen 2016, Sec. 3, Algorithm 1)"
    }

    fn find_mapping(&self, problem: &Problem, solver: &dyn Solver) -> Result<ModularMapping, AllocError> {
        let fe = AllocError::formulation(NAME);
        let params: Vec<String> = problem.params().to_vec();
        let pnames: Vec<&str> = params.iter().map(String::as_str).collect();
        let array = problem.array_tuple();
        let param_space = problem.param_space();
        let n = problem.n_dims();
        let mut lin = Linearizer::new();
        let mut pieces = conflict_polyhedra_with(problem, solver, NAME, Some(&mut lin))?;
        let cells = cell_polyhedra(problem, NAME)?;
        let offset = negative_offset(problem.context.as_ref());
        let mut hyperplanes: Vec<Vec<i64>> = Vec::new();
        let mut rows = Vec::new();
        while !pieces.is_empty() {
            if hyperplanes.len() > n {
                return Err(AllocError::method(NAME, "no termination after n hyperplanes"));
            }
            let (h, modulus) =
                self.next_hyperplane(&pieces, &cells, &hyperplanes, &params, &param_space, solver, hyperplanes.len() + 1, &mut lin, offset)?;
            pieces = revise_all_with(&pieces, &h, solver, NAME, Some(&mut lin))?;
            rows.push(StorageRow { hyperplane: h.clone(), modulus: Some(modulus) });
            hyperplanes.push(h);
        }
        ModularMapping::new(&pnames, array, rows).map_err(fe)
    }
}
