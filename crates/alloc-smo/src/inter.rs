//! # Inter-array storage by storage hyperplanes (`smo-inter`): the SMO tool's extension
//!
//! Bhaskaracharya et al. 2016 is intra-array (Sec. 6: "Our approach ... is an intra-array one"); the public SMO
//! tool (Bhaskaracharya, 2015-2016, `src/StoragePartition.cpp`) extends the formulation
//! to several statements, each writing its own array, so that the arrays can share one
//! storage. Its inputs give conflict polyhedra within an array (`i i`) and between two
//! arrays (`i j`). This module implements that extension over polyalloc's ILP layer.
//!
//! **The storage.** One system of storage rows shared by the arrays `A_0 .. A_{k-1}`:
//! row `r` stores cell `x` of `A_a` at `(Γ_a . x + o_a) mod e_r` (a [`SharedMapping`]):
//! a hyperplane `Γ_a` and an offset `o_a` per array (the tool's per-statement
//! hyperplane with its constant coefficient), one modulus per row for all arrays. A
//! conflict polyhedron `K` between `A_a` and `A_b` (`a = b` allowed) is *satisfied* by the
//! row when `D(s, t) = (Γ_a . s + o_a) - (Γ_b . t + o_b)` has one sign, at least 1 in
//! absolute value, on all of `K` (Bhaskaracharya et al. 2016, Def. 3.1 with offsets).
//!
//! **One row (the ILP of FIND-NEXT-HYPERPLANE, extended as the tool extends it).** Per
//! polyhedron the binary decisions `x1, x2` and the decision constraints (6) on `D`, and
//! the bounding constraints (2)/(5) `|D| <= u . P + w` on every polyhedron, intra and
//! inter: the row's modulus is `u . P + w + 1`, so that `D != 0` implies different
//! residues, and the conflicts the row leaves are exactly `K ∩ { D = 0 }` (revision (8)).
//! The objective follows the tool's priorities (`glpkSolve`: intra-statement
//! satisfaction, intra-statement moduli, inter-statement satisfaction, inter-statement
//! moduli, coefficient sizes), lexicographically: (1) the number of unsatisfied
//! intra-array polyhedra, (2) a bound `u_I . P + w_I` of `|D|` on the intra-array
//! polyhedra alone, (3) the number of unsatisfied inter-array polyhedra, (4) `u, w`, then
//! (5) `Σ|Γ| + Σ|o|` and (6) coefficients on earlier dimensions first.
//!
//! **Choices made here** (documented differences from the tool):
//! * *One modulus per row for all arrays.* The tool keeps a modulus per statement (its
//!   intra-statement modulus, or its inter-statement one when an inter-statement
//!   polyhedron was satisfied) and adds `|D| >= e + 1` polyhedra back to the conflict
//!   set, which does not separate residues taken modulo *different* moduli
//!   (`4 mod 3 = 1 mod 5`). A common modulus that bounds `|D|` on every polyhedron makes
//!   the revision exact and the storage's size the product of the moduli.
//! * *Offsets relative to `A_0`* (`o_0 = 0`): a common shift of all offsets changes
//!   nothing.
//! * *Linear independence is guaranteed* as in [`Smo`](crate::Smo): each row is
//!   independent of the previous ones in the combined space of
//!   `(Γ_0 | ... | Γ_{k-1} | o_1, ..., o_{k-1})` (without the coefficients fixed to 0
//!   below), in which distinct conflicting cells of all arrays are distinct points, so
//!   at most `Σ n_a + k - 1` rows are needed.
//! * Coefficient and offset bounds, `c` and the tie-breaks are [`SmoOptions`]'.
//!
//! * *Every modulus is at least 1 wherever an array has cells*: `u . P + w >= 0` on
//!   every array's data space (Farkas), not only where conflicts exist.
//! * *Equivalent solutions are removed* (the tool's inputs encode the statement as a
//!   dimension that is constant on each array's conflicts, `x2 = 1`): the coefficient of
//!   a dimension constant on all of an array's conflict polyhedra is fixed to 0 (it only
//!   shifts the array's values, as its offset does; offsets get the range to match), and
//!   the first polyhedron, when satisfied, is satisfied on the positive side (a row and
//!   its negation are equivalent). Neither changes the optimum of any level; on the
//!   tool's `jacobi2d-smoothing` (5 arrays) the row ILPs take 23 s instead of 115 s on
//!   microlp.
//!
//! **Solved without the ILP where possible** (the ILP stays the definition):
//! * *The whole optimum by branch and bound* (`inter_search`, as the intra-array
//!   SMO's `presolve::lex_best`): for fixed `(Γ, o)` every other unknown of the row's ILP
//!   has a closed form (a polyhedron is satisfied iff one side of its split decision
//!   rows holds, each `(u, w)` is the least of its bounding rows, the tie-breaks are
//!   sums), so the ILP's lexicographic optimum is the least key over the box of
//!   `(Γ, o)`. When it is unique up to sign it is what every backend's ILP returns, and
//!   no model is built. Otherwise (several optima, a node limit of a few tenths of a
//!   second, rows that do not split) the ILP decides, as before.
//! * *Valid inequalities for the ILP*: per group of polyhedra (an array's own, or those
//!   between two arrays), the most one row satisfies, `Σ (x1 + x2) <= max`, found by the
//!   search or by a small ILP over the group's rows alone (a relaxation). The linear
//!   relaxation otherwise satisfies every polyhedron "half" on both sides, and the
//!   backend enumerated the coefficients in its tree (on `jacobi2d-smoothing` the first
//!   row's stages took about 1 s on microlp; with the inequalities about 0.15 s, and the
//!   search settles the row without them).
//! * [`SmoOptions::presolve`] off gives the plain ILP (no search, no inequality);
//!   [`SmoOptions::solve_settled`] solves the ILP (with the inequalities) even where
//!   the search settles the row. The tests check that all three agree.
//!
//! The answer carries, for comparison, each array in a storage of its own
//! ([`SmoInter::alone`]: the same formulation on the array's own conflicts, which is
//! SMO's Algorithm 1 with the data-space condition above), whose sizes add up to the
//! storage the arrays need without sharing. The facade verifies the shared storage with
//! the shared-storage checker and each separate mapping with the intra-array checker.

use crate::decision::{decide_points, BoundRow, GammaRow, Point};
use crate::inter_search::{self, Objective, Piece, RowProblem};
use crate::SmoOptions;
use polyalloc_alloc::width::{modulus_of, BoundVars, MAX_CONSTANT, MAX_PARAM_COEF};
use polyalloc_alloc::{details_of, AllocError, Input, InterProblem, Method, MethodError, Outcome, SharedAnswer, SharedObligation};
use polyalloc_formulation::farkas::{FarkasOptions, Linearizer, ParamForm};
use polyalloc_formulation::int::lin::{normalise_sign, orthogonal_complement};
use polyalloc_formulation::{AffExpr, BasicSet, InterConflict, InterConflictSet, ModularMapping, SharedMapping, SharedPart, StorageRow};
use polyalloc_ilp::{Cmp, LexSolve, LinExpr, Model, Solver, VarId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The registry name.
pub const NAME: &str = "smo-inter";

/// The storage's name in printed mappings.
pub const STORAGE: &str = "S";

/// Most boxes [`inter_search::lex_best`] (and [`inter_search::max_satisfied`]) visit for
/// one row before the ILP decides.
const SEARCH_NODE_LIMIT: usize = 200_000;

/// The search's budget in row evaluations ([`node_limit`]): a few tenths of a second.
const SEARCH_WORK: usize = 5_000_000;

/// The inter-array method.
#[derive(Clone, Debug, Default)]
pub struct SmoInter {
    pub options: SmoOptions,
}

/// One round of [`SmoInter`]: what its storage row satisfied.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InterRound {
    /// Intra-array conflict polyhedra satisfied by the row (of those left).
    pub satisfied_intra: usize,
    /// Inter-array conflict polyhedra satisfied by the row.
    pub satisfied_inter: usize,
    /// Polyhedra with conflicts left after the row.
    pub remaining: usize,
}

/// The details of a `smo-inter` record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InterDetails {
    /// The arrays sharing the storage, in order.
    pub arrays: Vec<String>,
    /// Conflict polyhedra within one array.
    pub intra_polyhedra: usize,
    /// Conflict polyhedra between two arrays.
    pub inter_polyhedra: usize,
    /// One entry per storage row.
    pub rounds: Vec<InterRound>,
}

/// A conflict polyhedron between arrays `from` and `to`.
#[derive(Clone, Debug)]
struct Poly {
    from: usize,
    to: usize,
    set: BasicSet,
}

impl Poly {
    fn intra(&self) -> bool {
        self.from == self.to
    }
}

/// At most `max` of the polyhedra `members` are satisfied by one row (a valid
/// inequality of the row's ILP).
struct Cut {
    name: String,
    members: Vec<usize>,
    max: i64,
}

/// What [`SmoInter::settle`] found.
enum Settle {
    /// The row's unique optimum.
    Row(Row),
    /// No unique optimum, but bounds on the groups' satisfaction counts.
    Cuts(Vec<Cut>),
    /// Nothing (a polyhedron's decision rows do not split).
    Nothing,
}

/// The node limit of [`inter_search::lex_best`] on `p`: about [`SEARCH_WORK`] row
/// evaluations (a box evaluates every row of the problem), at most [`SEARCH_NODE_LIMIT`]
/// boxes. Beyond it the ILP decides: the search is for the rows it settles quickly.
fn node_limit(p: &RowProblem<'_>) -> usize {
    let rows =
        p.free.len() + p.systems.iter().map(Vec::len).sum::<usize>() + p.pieces.iter().map(|q| q.plus.rows.len() + q.minus.rows.len()).sum::<usize>();
    (SEARCH_WORK / (rows + 1)).clamp(1_000, SEARCH_NODE_LIMIT)
}

/// One storage row: per array its hyperplane and offset, and the modulus.
struct Row {
    hyperplanes: Vec<Vec<i64>>,
    offsets: Vec<i64>,
    modulus: AffExpr,
    satisfied: Vec<bool>,
}

/// `sign * D` over the columns of `p.set`: `sign * (Γ_from . s + o_from - Γ_to . t - o_to)`.
fn difference(p: &Poly, gamma: &[Vec<LinExpr>], offset: &[LinExpr], sign: i64) -> ParamForm {
    let sp = p.set.space();
    let (np, na) = (sp.n_param(), gamma[p.from].len());
    let mut f = ParamForm::zero(sp);
    for (j, g) in gamma[p.from].iter().enumerate() {
        f.coeffs[np + j] = g.clone() * sign;
    }
    for (j, g) in gamma[p.to].iter().enumerate() {
        f.coeffs[np + na + j] = f.coeffs[np + na + j].clone() - g.clone() * sign;
    }
    f.constant = (offset[p.from].clone() - offset[p.to].clone()) * sign;
    f
}

/// `u . P + w >= |D|` on the polyhedron (two Farkas applications, through `lin` as in
/// the intra-array SMO: multipliers eliminated where the generators are few, each
/// distinct row once).
fn bound(
    lin: &mut Linearizer,
    m: &mut Model,
    p: &Poly,
    gamma: &[Vec<LinExpr>],
    offset: &[LinExpr],
    b: &BoundVars,
    name: &str,
) -> polyalloc_formulation::Result<()> {
    for (sign, tag) in [(1i64, "ub"), (-1, "lb")] {
        let mut f = difference(p, gamma, offset, -sign);
        for (k, &u) in b.u.iter().enumerate() {
            f.coeffs[k] = f.coeffs[k].clone() + LinExpr::from(u);
        }
        f.constant += LinExpr::from(b.w);
        lin.nonneg_on(m, &p.set, &f, &FarkasOptions { name: format!("{name}_{tag}"), ..Default::default() })?;
    }
    Ok(())
}

impl SmoInter {
    fn c(&self, n_params: usize) -> i64 {
        if n_params == 0 {
            self.options.c_without_params
        } else {
            self.options.c
        }
    }

    /// The ILP of one storage row over the polyhedra left, independent of `previous`
    /// (combined rows `(Γ_0 | ... | o_1 ..)`).
    #[allow(clippy::too_many_arguments)]
    fn next_row(
        &self,
        problem: &InterProblem,
        polys: &[Poly],
        constant: &[Vec<Option<i64>>],
        previous: &[Vec<i64>],
        solver: &dyn Solver,
        round: usize,
    ) -> Result<Row, AllocError> {
        let fe = AllocError::formulation(NAME);
        let params = problem.params();
        let arity: Vec<usize> = problem.conflicts.arrays.iter().map(|t| t.len()).collect();
        let (b, c) = (self.options.coef_bound, self.c(params.len()));
        let c_shift = c
            .checked_mul(crate::negative_offset(problem.context.as_ref()))
            .ok_or_else(|| AllocError::method(NAME, "overflow in the decision constant"))?;
        // One linearizer per model (`polyalloc_formulation::farkas::Linearizer`).
        let mut lin = Linearizer::new();
        // o_0 = 0: offsets are relative to the first array. They also carry the constant
        // dimensions' share: at most `b (1 + Σ|c|)` per array, twice for the difference
        // with the first array.
        let spread = constant.iter().map(|cs| cs.iter().flatten().map(|c| c.abs()).sum::<i64>()).max().unwrap_or(0);
        let ob = b.saturating_mul(2).saturating_mul(1 + spread);
        // The whole optimum by branch and bound over the box of the unknowns
        // (`inter_search`): when it is unique up to sign it is the answer of every
        // backend, and no model is built (unless `solve_settled`).
        let mut cuts = None;
        if self.options.presolve && !self.options.solve_settled {
            let bounds: Vec<i64> = arity
                .iter()
                .enumerate()
                .flat_map(|(a, &n)| (0..n).map(move |j| if constant[a][j].is_some() { 0 } else { b }))
                .chain((1..arity.len()).map(|_| ob))
                .collect();
            match self.settle(problem, polys, &bounds, previous, &mut lin, c)? {
                Settle::Row(row) => return Ok(row),
                Settle::Cuts(c) => cuts = Some(c),
                Settle::Nothing => {}
            }
        }
        let mut m = Model::new(format!("smo-inter-row-{round}"));
        let gamma_vars: Vec<Vec<VarId>> = arity
            .iter()
            .enumerate()
            .map(|(a, &n)| {
                (0..n)
                    .map(|j| {
                        // A dimension constant on the array's conflicts acts as an offset.
                        let g = if constant[a][j].is_some() { 0 } else { b };
                        m.add_integer(format!("gamma_{a}_{j}"), Some(-g), Some(g))
                    })
                    .collect()
            })
            .collect();
        let offset_vars: Vec<Option<VarId>> =
            (0..arity.len()).map(|a| (a > 0).then(|| m.add_integer(format!("offset_{a}"), Some(-ob), Some(ob)))).collect();
        let gamma: Vec<Vec<LinExpr>> = gamma_vars.iter().map(|g| g.iter().map(|&v| LinExpr::from(v)).collect()).collect();
        let offset: Vec<LinExpr> = offset_vars.iter().map(|o| o.map_or_else(LinExpr::new, LinExpr::from)).collect();
        let (has_intra, has_inter) = (polys.iter().any(Poly::intra), polys.iter().any(|p| !p.intra()));
        let intra_bound = has_intra.then(|| BoundVars::add(&mut m, params, "intra_"));
        let shared_bound = BoundVars::add(&mut m, params, "");
        // The modulus u . P + w + 1 is at least 1 wherever an array has cells (not only
        // where conflicts exist): u . P + w >= 0 on every array's data space.
        for (a, space) in problem.spaces.iter().enumerate() {
            for (q, piece) in space.pieces().iter().enumerate() {
                let piece = piece.align_params(params).map_err(&fe)?;
                let mut f = ParamForm::zero(piece.space());
                for (k, &u) in shared_bound.u.iter().enumerate() {
                    f.coeffs[k] = LinExpr::from(u);
                }
                f.constant = LinExpr::from(shared_bound.w);
                lin.nonneg_on(&mut m, &piece, &f, &FarkasOptions { name: format!("A{a}_space{q}_modulus"), ..Default::default() }).map_err(&fe)?;
            }
        }
        let (mut sat_intra, mut sat_inter) = (LinExpr::new(), LinExpr::new());
        let mut decisions = Vec::new();
        for (i, p) in polys.iter().enumerate() {
            let x1 = m.add_binary(format!("x1_{i}"));
            let x2 = m.add_binary(format!("x2_{i}"));
            m.add_constraint(format!("x_{i}_exclusive"), LinExpr::from(x1) + x2, Cmp::Le, 1);
            if i == 0 {
                // Symmetry: a row and its negation satisfy the same polyhedra (with x1 and
                // x2 exchanged) at the same cost; keep the one that satisfies the first
                // polyhedron, if any, on the positive side.
                m.set_bounds(x2, Some(0), Some(0));
            }
            decisions.push((x1, x2));
            if p.intra() {
                sat_intra = sat_intra + x1 + x2;
            } else {
                sat_inter = sat_inter + x1 + x2;
            }
            bound(&mut lin, &mut m, p, &gamma, &offset, &shared_bound, &format!("K{i}_bound")).map_err(&fe)?;
            if let (true, Some(ib)) = (p.intra(), &intra_bound) {
                bound(&mut lin, &mut m, p, &gamma, &offset, ib, &format!("K{i}_intra_bound")).map_err(&fe)?;
            }
            for (sign, x, tag) in [(1i64, x1, "x1"), (-1, x2, "x2")] {
                // sign * D - 1 + (1 - x)(c (ΣP + shift) + c + 1) >= 0 (decision constraint
                // (6); `shift` makes the parameters non-negative, as in the intra-array
                // model: `negative_offset`).
                let mut f = difference(p, &gamma, &offset, sign);
                for k in 0..params.len() {
                    f.coeffs[k] = LinExpr::constant(c) - LinExpr::from(x) * c;
                }
                f.constant = f.constant + LinExpr::constant(c + c_shift) - LinExpr::from(x) * (c + 1 + c_shift);
                lin.nonneg_on(&mut m, &p.set, &f, &FarkasOptions { name: format!("K{i}_{tag}"), ..Default::default() }).map_err(&fe)?;
            }
        }
        // Independence from the previous rows in the combined space, over the unknowns
        // that are not fixed to 0 (in which distinct conflicting cells stay distinct).
        let combined: Vec<VarId> = gamma_vars.iter().flatten().copied().chain(offset_vars.iter().flatten().copied()).collect();
        let bounds: Vec<i64> = combined.iter().map(|&v| m.var(v).upper.unwrap_or(b)).collect();
        let free: Vec<usize> = (0..combined.len()).filter(|&k| bounds[k] > 0).collect();
        let previous: Vec<Vec<i64>> = previous.iter().map(|r| free.iter().map(|&k| r[k]).collect()).collect();
        let comp = orthogonal_complement(&previous, free.len())
            .ok_or_else(|| AllocError::method(NAME, "overflow while completing the basis of the storage rows"))?;
        if comp.is_empty() {
            return Err(AllocError::method(
                NAME,
                format!("{} independent storage rows found but conflicts remain: a conflict relates a cell to itself", free.len()),
            ));
        }
        let mut any = LinExpr::new();
        for (k, r) in comp.iter().enumerate() {
            let big = 1 + r.iter().zip(&free).map(|(x, &j)| x.abs() * bounds[j]).sum::<i64>();
            let dot: LinExpr = r.iter().zip(&free).map(|(&rj, &j)| LinExpr::term(combined[j], rj)).sum();
            let zp = m.add_binary(format!("indep_{k}_pos"));
            let zn = m.add_binary(format!("indep_{k}_neg"));
            m.add_constraint(format!("indep_{k}_pos"), dot.clone() - LinExpr::from(zp) * big, Cmp::Ge, 1 - big);
            m.add_constraint(format!("indep_{k}_neg"), -dot - LinExpr::from(zn) * big, Cmp::Ge, 1 - big);
            any = any + zp + zn;
        }
        m.add_constraint("independent", any, Cmp::Ge, 1);
        // Valid inequalities on the satisfaction counts of groups of polyhedra
        // ([`cut_groups`]): without them the linear relaxation satisfies every
        // polyhedron "half" on both sides and the backend enumerates the coefficients in
        // its tree (on `jacobi2d-smoothing`, 2349 nodes for the first stage instead of
        // 12). The search's bounds when it found them, else small ILPs ([`group_max`]).
        if self.options.presolve {
            let cuts = match cuts {
                Some(cuts) => cuts,
                None => cut_groups(polys)
                    .into_iter()
                    .filter_map(|(name, members)| {
                        let xs: Vec<VarId> = members.iter().flat_map(|&i| [decisions[i].0, decisions[i].1]).collect();
                        let max = group_max(&m, &combined, &xs, solver, &self.options.solve, &name)?;
                        Some(Cut { name, members, max })
                    })
                    .collect(),
            };
            for cut in cuts.iter().filter(|cut| cut.max < cut.members.len() as i64) {
                let count: LinExpr = cut.members.iter().flat_map(|&i| [decisions[i].0, decisions[i].1]).map(LinExpr::from).sum();
                m.add_constraint(format!("{}_at_most", cut.name), count, Cmp::Le, cut.max);
            }
        }
        // The tool's priorities, lexicographically.
        let mut objectives = Vec::new();
        if let Some(ib) = &intra_bound {
            objectives.push(-sat_intra);
            objectives.extend(ib.objectives());
        }
        if has_inter {
            objectives.push(-sat_inter);
        }
        objectives.extend(shared_bound.objectives());
        if self.options.tie_break_small_hyperplane {
            let mut size = LinExpr::new();
            let mut position = LinExpr::new();
            for (k, &v) in combined.iter().enumerate() {
                let a = m.add_integer(format!("abs_{k}"), Some(0), Some(bounds[k]));
                m.add_constraint(format!("abs_{k}_pos"), LinExpr::from(a) - v, Cmp::Ge, 0);
                m.add_constraint(format!("abs_{k}_neg"), LinExpr::from(a) + v, Cmp::Ge, 0);
                size = size + a;
                position += LinExpr::term(a, k as i64);
            }
            objectives.push(size);
            objectives.push(position);
        }
        let lex = solver.lex_minimize(&m, &objectives, &self.options.solve).map_err(AllocError::solver(NAME))?;
        let sol = &lex.solution;
        let mut row: Vec<i64> = combined.iter().map(|&v| sol.int_value(v)).collect();
        // A sign change keeps satisfaction, sizes and validity (the residues negate).
        normalise_sign(&mut row);
        let mut it = row.iter().copied();
        let hyperplanes: Vec<Vec<i64>> = arity.iter().map(|&n| it.by_ref().take(n).collect()).collect();
        let offsets: Vec<i64> = std::iter::once(0).chain(it).collect();
        let satisfied = decisions.iter().map(|&(x1, x2)| sol.int_value(x1) + sol.int_value(x2) > 0).collect();
        Ok(Row { hyperplanes, offsets, modulus: shared_bound.modulus(sol, &problem_param_space(problem)), satisfied })
    }

    /// The row's lexicographic optimum without an ILP ([`inter_search::lex_best`]) when
    /// it is unique up to sign, over the combined unknowns whose bounds are `bounds`
    /// (0: fixed to 0). Otherwise ([`Settle`]) the ILP decides, with the bounds on the
    /// groups' satisfaction counts found here when the decision rows split (the search
    /// gives up on a polyhedron with a line or too many generators, bounding rows that
    /// are not up-closed, the node limit, several optima).
    fn settle(
        &self,
        problem: &InterProblem,
        polys: &[Poly],
        bounds: &[i64],
        previous: &[Vec<i64>],
        lin: &mut Linearizer,
        c: i64,
    ) -> Result<Settle, AllocError> {
        let fe = AllocError::formulation(NAME);
        let params = problem.params();
        let np = params.len();
        let arity: Vec<usize> = problem.conflicts.arrays.iter().map(|t| t.len()).collect();
        let n_gamma: usize = arity.iter().sum();
        let shift = crate::negative_offset(problem.context.as_ref());
        // The search's unknowns: the combined coordinates that are not fixed to 0.
        let free: Vec<usize> = (0..bounds.len()).filter(|&k| bounds[k] > 0).collect();
        let mut index: Vec<Option<usize>> = vec![None; bounds.len()];
        for (i, &k) in free.iter().enumerate() {
            index[k] = Some(i);
        }
        let start: Vec<usize> = arity.iter().scan(0, |acc, &n| Some(std::mem::replace(acc, *acc + n))).collect();
        let gamma_at = |a: usize, j: usize| index[start[a] + j];
        let offset_at = |a: usize| if a == 0 { None } else { index[n_gamma + a - 1] };
        let hi: Vec<i64> = free.iter().map(|&k| bounds[k]).collect();
        let lo: Vec<i64> = hi.iter().map(|&x| -x).collect();
        // The split decision constraints (`decision::decide_points`) of every polyhedron,
        // over the generators of its conflicts: a vertex or ray (g0; P, s, t) gives the
        // difference D = Γ_from . s + g0 o_from - Γ_to . t - g0 o_to.
        let mut decisions = Vec::with_capacity(polys.len());
        for p in polys {
            let (na, nb) = (arity[p.from], arity[p.to]);
            let Some(gens) = lin.generators(&p.set) else { return Ok(Settle::Nothing) };
            if !gens.lines.is_empty() || p.set.space().n_param() != np {
                return Ok(Settle::Nothing);
            }
            let mut points = Vec::with_capacity(gens.vertices.len() + gens.rays.len());
            for (g0, v) in gens.vertices.iter().map(|(g0, v)| (*g0, v)).chain(gens.rays.iter().map(|r| (0, r))) {
                if v.len() != np + na + nb {
                    return Ok(Settle::Nothing);
                }
                let terms = (0..na)
                    .map(|j| (gamma_at(p.from, j), 1, v[np + j]))
                    .chain((0..nb).map(|j| (gamma_at(p.to, j), -1, v[np + na + j])))
                    .chain([(offset_at(p.from), 1, g0), (offset_at(p.to), -1, g0)]);
                let Some(d) = combination(free.len(), terms) else { return Ok(Settle::Nothing) };
                points.push(Point { g0, p: v[..np].to_vec(), d });
            }
            match decide_points(&points, c, shift, |r| r.implied_on(&lo, &hi)) {
                Some(d) => decisions.push(d),
                None => return Ok(Settle::Nothing),
            }
        }
        let free_rows: Vec<&GammaRow> = decisions.iter().flat_map(|d| &d.free).collect::<BTreeSet<_>>().into_iter().collect();
        // The most polyhedra of each group one row satisfies (`inter_search::max_satisfied`):
        // the search's bound of a box, and the ILP's valid inequalities if it decides.
        let groups = cut_groups(polys);
        let mut group_of = vec![0; polys.len()];
        for (g, (_, members)) in groups.iter().enumerate() {
            for &i in members {
                group_of[i] = g;
            }
        }
        let pieces: Vec<Piece<'_>> = polys
            .iter()
            .zip(&decisions)
            .enumerate()
            .map(|(i, (p, d))| Piece { plus: &d.plus, minus: &d.minus, class: usize::from(!p.intra()), group: group_of[i] })
            .collect();
        let group_max: Vec<Option<i64>> = groups
            .iter()
            .map(|(_, members)| {
                let rows = free_rows.len() + members.iter().map(|&i| pieces[i].plus.rows.len() + pieces[i].minus.rows.len()).sum::<usize>();
                inter_search::max_satisfied(&pieces, members, &free_rows, &hi, (SEARCH_WORK / (rows + 1)).clamp(1_000, SEARCH_NODE_LIMIT))
            })
            .collect();
        let cuts: Vec<Cut> = groups
            .iter()
            .zip(&group_max)
            .filter_map(|((name, members), &max)| Some(Cut { name: name.clone(), members: members.clone(), max: max? }))
            .collect();
        let Some(comp) = orthogonal_complement(&previous.iter().map(|r| free.iter().map(|&k| r[k]).collect()).collect::<Vec<Vec<i64>>>(), free.len())
        else {
            return Ok(Settle::Cuts(cuts));
        };
        // The modulus is at least 1 wherever an array has cells: u . P + w g0 >= 0 at
        // every generator of every array's data space.
        let mut cell_rows: Vec<BoundRow> = Vec::new();
        for space in &problem.spaces {
            for piece in space.pieces() {
                let piece = piece.align_params(params).map_err(&fe)?;
                let Some(gens) = lin.generators(&piece) else { return Ok(Settle::Cuts(cuts)) };
                if !gens.lines.is_empty() {
                    return Ok(Settle::Cuts(cuts));
                }
                for (g0, v) in gens.vertices.iter().map(|(g0, v)| (*g0, v)).chain(gens.rays.iter().map(|r| (0, r))) {
                    if v.len() < np {
                        return Ok(Settle::Cuts(cuts));
                    }
                    cell_rows.push(BoundRow { g0, p: v[..np].to_vec(), d: vec![0; free.len()] });
                }
            }
        }
        let intra_rows = distinct_rows(polys.iter().zip(&decisions).filter(|(p, _)| p.intra()).flat_map(|(_, d)| &d.bounds));
        let offsets: Vec<usize> = (0..arity.len()).filter_map(offset_at).collect();
        let derived = offset_free_rows(polys, &decisions, &offsets);
        let shared_rows = distinct_rows(decisions.iter().flat_map(|d| &d.bounds).chain(&cell_rows).chain(&derived));
        let (has_intra, has_inter) = (polys.iter().any(Poly::intra), polys.iter().any(|p| !p.intra()));
        // The ILP's objectives, in its order.
        let mut objectives = Vec::new();
        let mut systems = Vec::new();
        if has_intra {
            objectives.push(Objective::Unsatisfied(0));
            objectives.push(Objective::Bound(systems.len()));
            systems.push(intra_rows.iter().collect::<Vec<_>>());
        }
        if has_inter {
            objectives.push(Objective::Unsatisfied(1));
        }
        let shared_at = objectives.len();
        objectives.push(Objective::Bound(systems.len()));
        systems.push(shared_rows.iter().collect());
        if self.options.tie_break_small_hyperplane {
            objectives.extend([Objective::Size, Objective::Position]);
        }
        // Split first the coefficients the intra-array objectives (first in the key)
        // depend on, then the other coefficients, then the offsets.
        let mut rank: Vec<u8> = free.iter().map(|&k| if k >= n_gamma { 2 } else { 1 }).collect();
        let intra_coefs = polys
            .iter()
            .zip(&decisions)
            .filter(|(p, _)| p.intra())
            .flat_map(|(_, d)| d.plus.rows.iter().chain(&d.minus.rows).map(|r| &r.a).chain(d.bounds.iter().map(|r| &r.d)));
        for a in intra_coefs {
            for (r, &x) in rank.iter_mut().zip(a) {
                if x != 0 {
                    *r = 0;
                }
            }
        }
        let rp = RowProblem {
            bound: hi,
            pieces,
            free: free_rows,
            complement: &comp,
            systems,
            np,
            u_max: MAX_PARAM_COEF,
            w_max: MAX_CONSTANT,
            objectives,
            position: free.iter().map(|&k| k as i64).collect(),
            rank,
            group_max: groups.iter().zip(&group_max).map(|((_, members), &max)| max.unwrap_or(members.len() as i64)).collect(),
        };
        let Some(best) = inter_search::lex_best(&rp, node_limit(&rp)) else { return Ok(Settle::Cuts(cuts)) };
        let [y] = best.optima.as_slice() else { return Ok(Settle::Cuts(cuts)) };
        // The shared bound's (u, w) in the key: after one value per satisfaction count
        // and p + 1 per bound before it.
        let at: usize = rp.objectives[..shared_at].iter().map(|o| if matches!(o, Objective::Bound(_)) { np + 1 } else { 1 }).sum();
        let uw: Vec<i64> = best.key[at..at + np + 1]
            .iter()
            .map(|&x| i64::try_from(x))
            .collect::<Result<_, _>>()
            .map_err(|_| AllocError::method(NAME, "overflow in the modulus"))?;
        let mut row = vec![0i64; bounds.len()];
        for (&k, &x) in free.iter().zip(y) {
            row[k] = x;
        }
        normalise_sign(&mut row);
        let mut it = row.iter().copied();
        let hyperplanes: Vec<Vec<i64>> = arity.iter().map(|&n| it.by_ref().take(n).collect()).collect();
        let offsets: Vec<i64> = std::iter::once(0).chain(it).collect();
        let satisfied = decisions.iter().map(|d| d.plus.holds(y) || d.minus.holds(y)).collect();
        Ok(Settle::Row(Row { hyperplanes, offsets, modulus: modulus_of(&uw[..np], uw[np], &problem_param_space(problem)), satisfied }))
    }

    /// The shared storage of the problem's arrays, row by row, with what each row
    /// satisfied.
    pub fn shared_mapping(&self, problem: &InterProblem, solver: &dyn Solver) -> Result<(SharedMapping, InterDetails), AllocError> {
        self.shared_mapping_with(problem, solver, &mut Facts::default())
    }

    /// [`SmoInter::shared_mapping`] with the facts found so far in the run.
    fn shared_mapping_with(
        &self,
        problem: &InterProblem,
        solver: &dyn Solver,
        facts: &mut Facts,
    ) -> Result<(SharedMapping, InterDetails), AllocError> {
        let fe = AllocError::formulation(NAME);
        let mut polys = Vec::new();
        for r in &problem.conflicts.relations {
            let rel = match &problem.context {
                Some(ctx) => r.relation.intersect_params(ctx).map_err(&fe)?,
                None => r.relation.clone(),
            };
            for piece in rel.pieces() {
                if !facts.is_empty(piece, solver)? {
                    polys.push(Poly { from: r.from, to: r.to, set: piece.clone() });
                }
            }
        }
        let arrays = problem.arrays();
        let mut details = InterDetails {
            arrays: arrays.clone(),
            intra_polyhedra: polys.iter().filter(|p| p.intra()).count(),
            inter_polyhedra: polys.iter().filter(|p| !p.intra()).count(),
            rounds: Vec::new(),
        };
        let k = arrays.len();
        let constant = constant_dims(problem, &polys, solver, facts)?;
        let mut hyperplanes: Vec<Vec<Vec<i64>>> = vec![Vec::new(); k];
        let mut offsets: Vec<Vec<i64>> = vec![Vec::new(); k];
        let mut moduli = Vec::new();
        let mut previous: Vec<Vec<i64>> = Vec::new();
        while !polys.is_empty() {
            let row = self.next_row(problem, &polys, &constant, &previous, solver, previous.len() + 1)?;
            let satisfied = |intra: bool| polys.iter().zip(&row.satisfied).filter(|(p, &s)| s && p.intra() == intra).count();
            let (satisfied_intra, satisfied_inter) = (satisfied(true), satisfied(false));
            // Revision (8): the conflicts of each polyhedron the row leaves, D = 0.
            let mut next = Vec::new();
            for p in &polys {
                let np = p.set.space().n_param();
                let na = row.hyperplanes[p.from].len();
                let mut eq = vec![0i64; p.set.n_cols()];
                eq[0] = row.offsets[p.from] - row.offsets[p.to];
                for (j, &g) in row.hyperplanes[p.from].iter().enumerate() {
                    eq[1 + np + j] += g;
                }
                for (j, &g) in row.hyperplanes[p.to].iter().enumerate() {
                    eq[1 + np + na + j] -= g;
                }
                let mut set = p.set.clone();
                set.add_eq_row(eq).map_err(&fe)?;
                if !facts.is_empty(&set, solver)? {
                    next.push(Poly { set, ..p.clone() });
                }
            }
            details.rounds.push(InterRound { satisfied_intra, satisfied_inter, remaining: next.len() });
            previous.push(row.hyperplanes.iter().flatten().copied().chain(row.offsets[1..].iter().copied()).collect());
            for a in 0..k {
                hyperplanes[a].push(row.hyperplanes[a].clone());
                offsets[a].push(row.offsets[a]);
            }
            moduli.push(row.modulus);
            polys = next;
        }
        let parts = problem
            .conflicts
            .arrays
            .iter()
            .zip(hyperplanes.into_iter().zip(offsets))
            .map(|(t, (hyperplanes, offsets))| SharedPart { array: t.clone(), hyperplanes, offsets })
            .collect();
        let pnames: Vec<&str> = problem.params().iter().map(String::as_str).collect();
        let mapping = SharedMapping::new(&pnames, STORAGE, moduli, parts).map_err(&fe)?;
        Ok((mapping, details))
    }
}

impl SmoInter {
    /// Array `a` in a storage of its own: the same formulation on its own conflicts
    /// alone (with one array there are no offsets, and the objective is SMO's: Bhaskaracharya et al. 2016
    /// Algorithm 1), as a modular mapping of the array.
    pub fn alone(&self, problem: &InterProblem, a: usize, solver: &dyn Solver) -> Result<ModularMapping, AllocError> {
        self.alone_with(problem, a, solver, &mut Facts::default())
    }

    /// [`SmoInter::alone`] with the facts found so far in the run.
    fn alone_with(&self, problem: &InterProblem, a: usize, solver: &dyn Solver, facts: &mut Facts) -> Result<ModularMapping, AllocError> {
        let fe = AllocError::formulation(NAME);
        let tuple = problem.conflicts.arrays[a].clone();
        let own: Vec<InterConflict> =
            problem.conflicts.relations.iter().filter(|r| r.from == a && r.to == a).map(|r| InterConflict { from: 0, to: 0, ..r.clone() }).collect();
        let single = InterProblem {
            example: problem.example.clone(),
            conflicts: InterConflictSet::new(problem.params(), vec![tuple.clone()], own).map_err(&fe)?,
            spaces: vec![problem.spaces[a].clone()],
            context: problem.context.clone(),
            instances: problem.instances.clone(),
        };
        let (shared, _) = self.shared_mapping_with(&single, solver, facts)?;
        let part = &shared.parts[0];
        let rows = part.hyperplanes.iter().zip(&shared.moduli).map(|(h, e)| StorageRow { hyperplane: h.clone(), modulus: Some(e.clone()) }).collect();
        let pnames: Vec<&str> = shared.params.iter().map(String::as_str).collect();
        ModularMapping::new(&pnames, tuple, rows).map_err(&fe)
    }
}

/// For every array and dimension, the value the dimension has on every cell of the
/// array that is in a conflict, when it is the same everywhere (`x2 = 1` for the second
/// statement of the tool's inputs); `None` otherwise. On such a dimension the hyperplane
/// coefficient only shifts the array's values, which its offset does as well: fixing the
/// coefficient to 0 removes equivalent solutions from the ILP without losing any.
fn constant_dims(problem: &InterProblem, polys: &[Poly], solver: &dyn Solver, facts: &mut Facts) -> Result<Vec<Vec<Option<i64>>>, AllocError> {
    let mut out = Vec::new();
    for (a, t) in problem.conflicts.arrays.iter().enumerate() {
        let mut dims = Vec::new();
        for j in 0..t.len() {
            let mut value: Option<i64> = None;
            let mut constant = true;
            for p in polys {
                let np = p.set.space().n_param();
                let na = problem.conflicts.arrays[p.from].len();
                let mut cols = Vec::new();
                if p.from == a {
                    cols.push(1 + np + j);
                }
                if p.to == a {
                    cols.push(1 + np + na + j);
                }
                for col in cols {
                    let Some((c, fixed)) = facts.fixed(&p.set, col, solver)? else { continue };
                    if value.is_some_and(|v| v != c) {
                        constant = false;
                        break;
                    }
                    constant &= fixed;
                    value = Some(c);
                }
                if !constant {
                    break;
                }
            }
            dims.push(if constant { Some(value.unwrap_or(0)) } else { None });
        }
        out.push(dims);
    }
    Ok(out)
}

/// Identity of a basic set's constraints.
type SetKey = (usize, usize, Vec<Vec<i64>>, Vec<Vec<i64>>);

/// What the checks on one polyhedron found ([`Facts`]).
#[derive(Default)]
struct SetFacts {
    empty: Option<bool>,
    sample: Option<Option<Vec<i64>>>,
    /// Per column, its value at the sample and whether the polyhedron fixes it there.
    fixed: HashMap<usize, (i64, bool)>,
}

/// The emptiness, sample and fixed columns of the conflict polyhedra, found once per run:
/// the arrays alone ([`SmoInter::alone`]) check the shared storage's intra-array
/// polyhedra again, and every array and dimension samples the same polyhedra
/// ([`constant_dims`]). Each is a pure function of the polyhedron's constraints.
#[derive(Default)]
struct Facts {
    sets: HashMap<SetKey, SetFacts>,
}

impl Facts {
    fn of(&mut self, set: &BasicSet) -> &mut SetFacts {
        self.sets.entry((set.n_cols(), set.n_local(), set.equalities().to_vec(), set.inequalities().to_vec())).or_default()
    }

    /// [`BasicSet::is_empty`].
    fn is_empty(&mut self, set: &BasicSet, solver: &dyn Solver) -> Result<bool, AllocError> {
        if let Some(e) = self.of(set).empty {
            return Ok(e);
        }
        let e = set.is_empty(solver).map_err(AllocError::formulation(NAME))?;
        self.of(set).empty = Some(e);
        Ok(e)
    }

    /// The value of column `col` (a dimension) at the polyhedron's sample, and whether it
    /// has that value on the whole polyhedron (`x <= c - 1` and `x >= c + 1` both
    /// empty); `None` when the polyhedron has no integer point.
    fn fixed(&mut self, set: &BasicSet, col: usize, solver: &dyn Solver) -> Result<Option<(i64, bool)>, AllocError> {
        let fe = AllocError::formulation(NAME);
        if let Some(&f) = self.of(set).fixed.get(&col) {
            return Ok(Some(f));
        }
        let sample = match &self.of(set).sample {
            Some(s) => s.clone(),
            None => {
                let s = set.sample(solver).map_err(&fe)?.map(|s| s.point);
                self.of(set).sample = Some(s.clone());
                s
            }
        };
        let Some(point) = sample else { return Ok(None) };
        let np = set.space().n_param();
        let c = *col.checked_sub(1 + np).and_then(|k| point.get(k)).ok_or_else(|| AllocError::method(NAME, "a sample outside its space"))?;
        // An equality on the column alone fixes it (no emptiness check needed).
        let pinned =
            set.equalities().iter().any(|e| e.get(col).is_some_and(|&x| x != 0) && e.iter().enumerate().skip(1).all(|(k, &x)| k == col || x == 0));
        let mut fixed = true;
        for sign in [1i64, -1].into_iter().filter(|_| !pinned) {
            let mut q = set.clone();
            let mut row = vec![0i64; q.n_cols()];
            row[col] = -sign;
            row[0] = sign.checked_mul(c).and_then(|x| x.checked_sub(1)).ok_or_else(|| AllocError::method(NAME, "overflow in a sample"))?;
            q.add_ineq_row(row).map_err(&fe)?;
            if !q.is_empty(solver).map_err(&fe)? {
                fixed = false;
            }
        }
        self.of(set).fixed.insert(col, (c, fixed));
        Ok(Some((c, fixed)))
    }
}

/// `Σ sign x e_at` over the `(at, sign, x)` whose `at` is a coordinate, in `n`
/// coordinates; `None` on overflow.
fn combination(n: usize, terms: impl Iterator<Item = (Option<usize>, i64, i64)>) -> Option<Vec<i64>> {
    let mut d = vec![0i64; n];
    for (at, sign, x) in terms {
        if let Some(i) = at {
            let e = d.get_mut(i)?;
            *e = e.checked_add(sign.checked_mul(x)?)?;
        }
    }
    Some(d)
}

/// The distinct bounding rows up to the sign of `d` (`|d . y| = |-d . y|`).
fn distinct_rows<'r>(rows: impl Iterator<Item = &'r BoundRow>) -> BTreeSet<BoundRow> {
    rows.map(|r| {
        let mut r = r.clone();
        if r.d.iter().find(|&&x| x != 0).is_some_and(|&x| x < 0) {
            r.d.iter_mut().for_each(|x| *x = -*x);
        }
        r
    })
    .collect()
}

/// Most vertex rows of one pair of arrays that [`offset_free_rows`] combines pairwise.
const MAX_COMBINED_ROWS: usize = 48;

/// Bounding rows without offsets implied by pairs of vertex rows of the inter-array
/// polyhedra between the same two arrays: from `u . P1 + w g1 >= |d1 . y|` and
/// `u . P2 + w g2 >= |d2 . y|`, `u . (g2 P1 + g1 P2) + 2 w g1 g2 >= |(g2 d1 ∓ g1 d2) . y|`,
/// the sign that cancels the offsets (the offset difference of the two arrays enters
/// both rows scaled by the vertex's `g`). Implied by the rows, they leave the least
/// `(u, w)` of every `y` unchanged; on a box where the offsets are still wide they bound
/// `w` by the spread of the differences, which no single row sees
/// (`inter_search::lex_best`'s bound of a box).
fn offset_free_rows(polys: &[Poly], decisions: &[crate::decision::Decision], offsets: &[usize]) -> BTreeSet<BoundRow> {
    let mut by_pair: BTreeMap<(usize, usize), Vec<&BoundRow>> = BTreeMap::new();
    for (p, d) in polys.iter().zip(decisions) {
        if !p.intra() {
            by_pair.entry((p.from.min(p.to), p.from.max(p.to))).or_default().extend(d.bounds.iter().filter(|r| r.g0 > 0));
        }
    }
    let mut out = BTreeSet::new();
    for rows in by_pair.values().filter(|r| r.len() <= MAX_COMBINED_ROWS) {
        for (i, r1) in rows.iter().enumerate() {
            for r2 in &rows[i + 1..] {
                if let Some(r) = combine_rows(r1, r2, offsets) {
                    out.insert(r);
                }
            }
        }
    }
    out
}

/// The offset-free combination of two vertex rows ([`offset_free_rows`]), normalised by
/// the gcd of its numbers; `None` when neither sign cancels the offsets, the difference
/// vanishes, or a number overflows.
fn combine_rows(r1: &BoundRow, r2: &BoundRow, offsets: &[usize]) -> Option<BoundRow> {
    let (g1, g2) = (r1.g0, r2.g0);
    for sign in [-1i64, 1] {
        let d: Option<Vec<i64>> =
            r1.d.iter().zip(&r2.d).map(|(&a, &b)| g2.checked_mul(a)?.checked_add(sign.checked_mul(g1)?.checked_mul(b)?)).collect();
        let Some(d) = d else { continue };
        if offsets.iter().any(|&k| d.get(k).is_some_and(|&x| x != 0)) || d.iter().all(|&x| x == 0) {
            continue;
        }
        let p: Vec<i64> = r1.p.iter().zip(&r2.p).map(|(&a, &b)| g2.checked_mul(a)?.checked_add(g1.checked_mul(b)?)).collect::<Option<_>>()?;
        let g0 = g1.checked_mul(g2)?.checked_mul(2)?;
        let g = d.iter().chain(&p).fold(g0, |g, &x| polyalloc_formulation::int::gcd(g, x));
        let div = |x: i64| if g > 1 { x / g } else { x };
        return Some(BoundRow { g0: div(g0), p: p.into_iter().map(div).collect(), d: d.into_iter().map(div).collect() });
    }
    None
}

/// The groups of polyhedra whose satisfaction count gets a valid upper bound
/// ([`group_max`]): the intra-array polyhedra of each array, and the inter-array
/// polyhedra of each pair of arrays. Each group's decision rows involve the hyperplanes
/// and offsets of at most two arrays, so its bound is a small ILP.
fn cut_groups(polys: &[Poly]) -> Vec<(String, Vec<usize>)> {
    let mut groups: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (i, p) in polys.iter().enumerate() {
        groups.entry((p.from.min(p.to), p.from.max(p.to))).or_default().push(i);
    }
    groups.into_iter().map(|((a, b), members)| (if a == b { format!("group_A{a}") } else { format!("group_A{a}_A{b}") }, members)).collect()
}

/// The largest number of the decisions `xs` that can be 1 in a relaxation of `m`: the
/// rows of `m` over `keep` (the hyperplane and offset unknowns) and `xs` alone, with
/// their bounds; that is the group's decision rows and exclusivity, and every row on
/// the hyperplanes alone. Any point of `m` restricted to these unknowns is a point of
/// the relaxation, so `Σ xs <= max` is a valid inequality of `m`; added to `m`, it
/// gives the linear relaxation the bound that it cannot see (a polyhedron satisfied
/// "half" on both sides). `None` when the relaxation is not solved to a proven optimum
/// (then no inequality is added: the model is solved as it is).
fn group_max(m: &Model, keep: &[VarId], xs: &[VarId], solver: &dyn Solver, options: &polyalloc_ilp::SolveOptions, name: &str) -> Option<i64> {
    let mut index: Vec<Option<VarId>> = vec![None; m.num_vars()];
    let mut sub = Model::new(format!("{}-{name}", m.name()));
    for &v in keep.iter().chain(xs) {
        if index[v.index()].is_none() {
            let var = m.var(v);
            index[v.index()] = Some(sub.add_var(var.name.clone(), var.kind, var.lower, var.upper));
        }
    }
    for con in m.constraints() {
        let terms: Option<Vec<(VarId, i64)>> = con.expr.terms().map(|(v, c)| index[v.index()].map(|w| (w, c))).collect();
        let Some(terms) = terms else { continue };
        let mut expr = LinExpr::new();
        for (v, c) in terms {
            expr.add_term(v, c);
        }
        sub.try_add_constraint(con.name.clone(), expr, con.cmp, con.rhs).ok()?;
    }
    let count: LinExpr = xs.iter().filter_map(|&x| index[x.index()]).map(|x| LinExpr::term(x, -1)).sum();
    sub.set_objective(polyalloc_ilp::Sense::Minimize, count);
    let sol = solver.solve(&sub, options).ok()?;
    if !sol.is_optimal() {
        return None;
    }
    sol.objective_exact().and_then(|o| i64::try_from(-o).ok())
}

fn problem_param_space(problem: &InterProblem) -> polyalloc_formulation::Space {
    let pnames: Vec<&str> = problem.params().iter().map(String::as_str).collect();
    polyalloc_formulation::Space::set(&pnames, polyalloc_formulation::Tuple::anonymous(&[]))
}

/// The inter-array problem of an input, computed once per input.
fn inter_problem(input: &Input) -> Result<InterProblem, MethodError> {
    input
        .inter_problem()
        .map_err(MethodError::Input)?
        .ok_or_else(|| MethodError::NotApplicable("no `inter_array` section: the example has no arrays that may share storage".into()))
}

impl Method for SmoInter {
    fn name(&self) -> &'static str {
        NAME
    }

    fn summary(&self) -> &'static str {
        "inter-array storage: SMO storage hyperplanes with per-array offsets shared by several arrays (the SMO tool's extension of Bhaskaracharya, Bondhugula, Cohen 2016)"
    }

    fn answer(&self) -> polyalloc_alloc::Answer {
        polyalloc_alloc::Answer::SharedStorage
    }

    fn targets(&self, input: &Input) -> Result<Vec<String>, MethodError> {
        match input.example.inter_section().map_err(MethodError::Input)? {
            Some(s) => Ok(vec![s.arrays.join("+")]),
            None => Err(MethodError::NotApplicable("no `inter_array` section: the example has no arrays that may share storage".into())),
        }
    }

    fn run(&self, input: &Input, target: &str, solver: &dyn Solver) -> Result<Outcome, MethodError> {
        let problem = inter_problem(input)?;
        let arrays = problem.arrays();
        if target != arrays.join("+") {
            return Err(MethodError::NotApplicable(format!("the target of {NAME} is `{}`", arrays.join("+"))));
        }
        let mut facts = Facts::default();
        let (mapping, details) = self.shared_mapping_with(&problem, solver, &mut facts)?;
        let mut separate = Vec::new();
        for (a, name) in arrays.iter().enumerate() {
            separate.push((name.clone(), self.alone_with(&problem, a, solver, &mut facts)?));
        }
        Ok(Outcome {
            mapping: None,
            obligations: Vec::new(),
            executions: Vec::new(),
            details: details_of(&details),
            shared: Some(SharedAnswer { mapping, obligations: vec![SharedObligation { label: "conflict set".into(), problem }], separate }),
        })
    }
}
