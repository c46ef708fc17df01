//! # Inter-array storage by storage hyperplanes (`smo-inter`): the SMO tool's extension
//!
//! 004 is intra-array (Sec. 6: "Our approach ... is an intra-array one"); the public SMO
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
//! absolute value, on all of `K` (004 Def. 3.1 with offsets).
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
//! The answer carries, for comparison, each array in a storage of its own
//! ([`SmoInter::alone`]: the same formulation on the array's own conflicts, which is
//! SMO's Algorithm 1 with the data-space condition above), whose sizes add up to the
//! storage the arrays need without sharing. The facade verifies the shared storage with
//! the shared-storage checker and each separate mapping with the intra-array checker.

use crate::SmoOptions;
use polyalloc_alloc::width::BoundVars;
use polyalloc_alloc::{details_of, AllocError, Input, InterProblem, Method, MethodError, Outcome, SharedAnswer, SharedObligation};
use polyalloc_formulation::farkas::{FarkasOptions, Linearizer, ParamForm};
use polyalloc_formulation::int::lin::{normalise_sign, orthogonal_complement};
use polyalloc_formulation::{AffExpr, BasicSet, InterConflict, InterConflictSet, ModularMapping, SharedMapping, SharedPart, StorageRow};
use polyalloc_ilp::{Cmp, LexSolve, LinExpr, Model, Solver, VarId};
use serde::{Deserialize, Serialize};

/// The registry name.
pub const NAME: &str = "smo-inter";

/// The storage's name in printed mappings.
pub const STORAGE: &str = "S";

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
fn bound(lin: &mut Linearizer, m: &mut Model, p: &Poly, gamma: &[Vec<LinExpr>], offset: &[LinExpr], b: &BoundVars, name: &str) -> polyalloc_formulation::Result<()> {
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
        let mut m = Model::new(format!("smo-inter-row-{round}"));
        // One linearizer per model (`polyalloc_formulation::farkas::Linearizer`).
        let mut lin = Linearizer::new();
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
        // o_0 = 0: offsets are relative to the first array. They also carry the constant
        // dimensions' share: at most `b (1 + Σ|c|)` per array, twice for the difference
        // with the first array.
        let spread = constant.iter().map(|cs| cs.iter().flatten().map(|c| c.abs()).sum::<i64>()).max().unwrap_or(0);
        let ob = b.saturating_mul(2).saturating_mul(1 + spread);
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

    /// The shared storage of the problem's arrays, row by row, with what each row
    /// satisfied.
    pub fn shared_mapping(&self, problem: &InterProblem, solver: &dyn Solver) -> Result<(SharedMapping, InterDetails), AllocError> {
        let fe = AllocError::formulation(NAME);
        let mut polys = Vec::new();
        for r in &problem.conflicts.relations {
            let rel = match &problem.context {
                Some(ctx) => r.relation.intersect_params(ctx).map_err(&fe)?,
                None => r.relation.clone(),
            };
            for piece in rel.pieces() {
                if !piece.is_empty(solver).map_err(&fe)? {
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
        let constant = constant_dims(problem, &polys, solver)?;
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
                if !set.is_empty(solver).map_err(&fe)? {
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
    /// alone (with one array there are no offsets, and the objective is SMO's: 004
    /// Algorithm 1), as a modular mapping of the array.
    pub fn alone(&self, problem: &InterProblem, a: usize, solver: &dyn Solver) -> Result<ModularMapping, AllocError> {
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
        let (shared, _) = self.shared_mapping(&single, solver)?;
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
fn constant_dims(problem: &InterProblem, polys: &[Poly], solver: &dyn Solver) -> Result<Vec<Vec<Option<i64>>>, AllocError> {
    let fe = AllocError::formulation(NAME);
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
                    let Some(sample) = p.set.sample(solver).map_err(&fe)? else { continue };
                    let c = sample.point[col - 1 - np];
                    if value.is_some_and(|v| v != c) {
                        constant = false;
                        break;
                    }
                    // x_j <= c - 1 and x_j >= c + 1 both empty: x_j = c on the polyhedron.
                    for sign in [1i64, -1] {
                        let mut q = p.set.clone();
                        let mut row = vec![0i64; q.n_cols()];
                        row[col] = -sign;
                        row[0] = sign * c - 1;
                        q.add_ineq_row(row).map_err(&fe)?;
                        if !q.is_empty(solver).map_err(&fe)? {
                            constant = false;
                        }
                    }
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

fn problem_param_space(problem: &InterProblem) -> polyalloc_formulation::Space {
    let pnames: Vec<&str> = problem.params().iter().map(String::as_str).collect();
    polyalloc_formulation::Space::set(&pnames, polyalloc_formulation::Tuple::anonymous(&[]))
}

/// The inter-array problem of an input, computed once per input.
fn inter_problem(input: &Input) -> Result<InterProblem, MethodError> {
    input
        .memo("smo-inter problem", || input.example.inter_problem())
        .map_err(MethodError::Input)?
        .ok_or_else(|| MethodError::NotApplicable("no `inter_array` section: the example has no arrays that may share storage".into()))
}

impl Method for SmoInter {
    fn name(&self) -> &'static str {
        NAME
    }

    fn summary(&self) -> &'static str {
        "inter-array storage: SMO storage hyperplanes with per-array offsets shared by several arrays (the SMO tool's extension of 004)"
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
        let (mapping, details) = self.shared_mapping(&problem, solver)?;
        let mut separate = Vec::new();
        for (a, name) in arrays.iter().enumerate() {
            separate.push((name.clone(), self.alone(&problem, a, solver)?));
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
