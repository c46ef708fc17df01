//! The exact mapping checker, independent of every allocator.
//!
//! * [`Checker::check_symbolic`] proves, by its own integer programs, that no two
//!   distinct conflicting cells share a folded cell, **for every parameter value** in the
//!   context. A collision on row `k` means `h_k . (x - y) = e_k(P) * q_k` for an
//!   integer `q_k`; with a parametric modulus `e_k(P) = u . P + w` that product is not
//!   linear. The checker first proves `e_k(P) >= 1` on each conflict polyhedron `K`,
//!   then bounds `q_k` by proving `K and h_k . (x - y) >= (c + 1) e_k(P)` infeasible for
//!   the smallest `c` (and symmetrically below): then `q_k` lies in a finite range and
//!   every value gives a **linear** collision system. A constant modulus is bounded the
//!   same way when possible, otherwise `q_k` stays a free integer variable (still linear). If every collision system is infeasible the mapping is
//!   [`SymbolicVerdict::Valid`]; a feasible one yields a counterexample (re-checked by
//!   direct evaluation); if `q_k` cannot be bounded within [`Checker::max_quotient`] the
//!   verdict is [`SymbolicVerdict::Unknown`], never "valid".
//!   The proofs are as strong as the backend's infeasibility answers (microlp gives
//!   unbounded integer variables an artificial bound of ±10^9).
//! * [`check_concrete`] enumerates the conflict pairs for given parameter values and
//!   evaluates the mapping on both cells: no ILP, no shared code with allocators.
//! * [`Checker::check`] combines both: a symbolic proof when possible, otherwise
//!   [`Verdict::ProvenForInstancesOnly`] after concrete checks.

use crate::basic::BasicSet;
use crate::conflict::ConflictSet;
use crate::error::{Error, Result};
use crate::ilp::{add_basic_set, find_point_with, Feasibility};
use crate::mapping::ModularMapping;
use crate::set::{Map, Set};
use polyalloc_ilp::{Model, SolveError, SolveOptions, Solver};

/// Two distinct conflicting cells stored in the same folded cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// Parameter values (in the mapping's parameter order).
    pub params: Vec<i64>,
    /// The first cell.
    pub cell_a: Vec<i64>,
    /// The second cell.
    pub cell_b: Vec<i64>,
    /// The folded cell both land on.
    pub folded: Vec<i64>,
}

/// Outcome of the symbolic check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymbolicVerdict {
    /// Proven: no collision for any parameter value in the context.
    Valid,
    /// A collision, with a witness re-checked by evaluation.
    Invalid(Counterexample),
    /// Some modulus is not positive for these parameter values, where conflicts exist.
    NonPositiveModulus {
        /// The storage row.
        row: usize,
        /// The parameter values.
        params: Vec<i64>,
    },
    /// Not decided (quotient range too large, or feasible without a small witness).
    Unknown(String),
}

/// Outcome of a concrete check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConcreteVerdict {
    /// Every conflicting pair is separated.
    Valid {
        /// Number of conflict pairs enumerated.
        pairs_checked: usize,
    },
    /// A collision.
    Invalid(Counterexample),
    /// A modulus is not positive at these parameter values (mapping order), where the
    /// conflict set has pairs: no mapping at all (`x mod 0`). Where it has none, the
    /// moduli are not evaluated (an array without cells at an instance needs none).
    NonPositiveModulus {
        /// The storage row.
        row: usize,
        /// The parameter values.
        params: Vec<i64>,
    },
}

/// Combined verdict of [`Checker::check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Proven for every parameter value in the context.
    Proven,
    /// The symbolic proof was not possible; the concrete checks passed for these
    /// parameter values only.
    ProvenForInstancesOnly {
        /// Why the symbolic check did not conclude.
        reason: String,
        /// The instances checked.
        instances: Vec<Vec<i64>>,
    },
    /// Refuted with a counterexample.
    Refuted(Counterexample),
    /// A modulus is not positive for these parameter values.
    NonPositiveModulus {
        /// The storage row.
        row: usize,
        /// The parameter values.
        params: Vec<i64>,
    },
}

/// The symbolic checker (holds the solver and its limits).
pub struct Checker<'a> {
    solver: &'a dyn Solver,
    /// Time limit of each ILP solve (default 20 s); hitting it gives an `Unknown` verdict.
    pub time_limit: std::time::Duration,
    /// Largest quotient bound tried for a parametric modulus (default 8).
    pub max_quotient: i64,
    /// Largest number of linear collision systems per conflict polyhedron (default 4096).
    pub max_cases: usize,
}

enum Feas {
    Infeasible,
    Point(Vec<i64>, Vec<i64>),
    NoWitness,
}

/// Maps the mapping's parameters into the relation's parameter order.
fn param_positions(mapping: &ModularMapping, rel_params: &[String]) -> Result<Vec<usize>> {
    mapping
        .params
        .iter()
        .map(|p| {
            rel_params
                .iter()
                .position(|q| q == p)
                .ok_or_else(|| Error::Mapping(format!("mapping parameter `{p}` is not a parameter of the conflict set")))
        })
        .collect()
}

fn check_arity(cs: &ConflictSet, mapping: &ModularMapping) -> Result<usize> {
    let n = cs.relation.space().n_out();
    if mapping.array.len() != n || cs.relation.space().n_in() != n {
        return Err(Error::Mapping(format!("mapping of a {}-d array for a conflict set of {}-d cells", mapping.array.len(), n)));
    }
    Ok(n)
}

/// The mapping's parameter values at an instance given in the relation's parameter
/// order.
fn mapping_params_at(cs: &ConflictSet, mapping: &ModularMapping, inst: &[i64]) -> Result<Vec<i64>> {
    let pos = param_positions(mapping, &cs.relation.space().params)?;
    pos.iter().map(|&i| inst.get(i).copied().ok_or_else(|| Error::Mapping(format!("instance {inst:?} lacks parameter {i}")))).collect()
}

/// The solver-free emptiness proof, where a limit of it (a Fourier–Motzkin elimination
/// past its row limit) only means "not proved empty": the solver decides then. A stop
/// (time budget, interruption) is passed on.
fn quick_empty(b: &BasicSet) -> Result<bool> {
    match b.is_obviously_empty() {
        Ok(v) => Ok(v),
        Err(e) if e.stop().is_some() => Err(e),
        Err(_) => Ok(false),
    }
}

/// Re-checks a witness by direct evaluation.
fn confirm(mapping: &ModularMapping, params: &[i64], a: &[i64], b: &[i64]) -> Result<Option<Vec<i64>>> {
    if a == b {
        return Ok(None);
    }
    let mods = mapping.moduli(params)?;
    let fa = mapping.apply_with(&mods, a)?;
    let fb = mapping.apply_with(&mods, b)?;
    Ok(if fa == fb { Some(fa) } else { None })
}

impl<'a> Checker<'a> {
    /// A checker using `solver` for its integer programs.
    pub fn new(solver: &'a dyn Solver) -> Self {
        Checker { solver, time_limit: std::time::Duration::from_secs(20), max_quotient: 8, max_cases: 4096 }
    }

    /// Symbolic check of `mapping` against every conflict polyhedron of `cs`, for all
    /// parameter values satisfying `context` (a zero-dimensional basic set such as
    /// `[N] -> { : N >= 2 }`, or `None`).
    pub fn check_symbolic(&self, cs: &ConflictSet, mapping: &ModularMapping, context: Option<&BasicSet>) -> Result<SymbolicVerdict> {
        let n = check_arity(cs, mapping)?;
        let mut rel: Map = cs.relation.clone();
        if let Some(c) = context {
            rel = rel.intersect_params(c)?;
        }
        // Align the relation with the mapping's parameters too.
        let all_params = rel.space().merged_params(&mapping.params);
        let pieces: Vec<BasicSet> = rel.pieces().iter().map(|p| p.align_params(&all_params)).collect::<Result<_>>()?;
        let ppos = param_positions(mapping, &all_params)?;
        for (pi, k) in pieces.iter().enumerate() {
            if k.is_marked_empty() || quick_empty(k)? {
                continue;
            }
            let v = self.check_piece(k, pi, n, mapping, &ppos)?;
            if v != SymbolicVerdict::Valid {
                return Ok(v);
            }
        }
        Ok(SymbolicVerdict::Valid)
    }

    /// Every modulus of `mapping` is at least 1 wherever the array's data space `space`
    /// has a cell, for every parameter value of `context`: for each piece of the space
    /// and each folded row, `piece and modulus <= 0` must be empty. A modulus that is
    /// not positive where the array has cells is not a mapping at all (`x mod 0`), even
    /// where no two cells conflict; [`check_symbolic`](Self::check_symbolic) only sees
    /// the conflict polyhedra.
    pub fn check_moduli(&self, space: &Set, mapping: &ModularMapping, context: Option<&BasicSet>) -> Result<SymbolicVerdict> {
        let mut sp = space.clone();
        if let Some(c) = context {
            sp = sp.intersect_params(c)?;
        }
        let all_params = sp.space().merged_params(&mapping.params);
        let ppos = param_positions(mapping, &all_params)?;
        let to_mparams = |params: &[i64]| -> Vec<i64> { ppos.iter().map(|&i| params[i]).collect() };
        for piece in sp.pieces() {
            let k = piece.align_params(&all_params)?;
            if k.is_marked_empty() || quick_empty(&k)? {
                continue;
            }
            for row in 0..mapping.rows.len() {
                let Some(e) = Self::modulus_row(&k, mapping, row, &ppos) else { continue };
                let mut kk = k.clone();
                kk.add_ineq_row(e.iter().map(|v| -v).collect())?;
                match self.feasible(&kk)? {
                    Some(Feas::Infeasible) => {}
                    Some(Feas::Point(p, _)) => return Ok(SymbolicVerdict::NonPositiveModulus { row, params: to_mparams(&p) }),
                    Some(Feas::NoWitness) => {
                        return Ok(SymbolicVerdict::Unknown(format!("row {row}: the modulus may be non-positive where the array has cells")))
                    }
                    None => return Ok(SymbolicVerdict::Unknown(format!("row {row}: the solver hit the time limit (modulus positivity)"))),
                }
            }
        }
        Ok(SymbolicVerdict::Valid)
    }

    /// Feasibility of a basic set: a rational Fourier–Motzkin proof first (no
    /// solver), then the solver with the checker's time limit.
    fn feasible(&self, b: &BasicSet) -> Result<Option<Feas>> {
        polyalloc_ilp::budget::check()?;
        let mut b = b.clone();
        b.simplify()?;
        if b.is_marked_empty() || quick_empty(&b)? {
            return Ok(Some(Feas::Infeasible));
        }
        let mut m = Model::new("check");
        let vars = add_basic_set(&mut m, &b, "", None)?;
        // At most the time left of the run's budget (a solve cannot be stopped from
        // outside: `check --time-limit 10` stopped at 20 s with the checker's own limit).
        let limit = polyalloc_ilp::budget::remaining().map_or(self.time_limit, |r| r.min(self.time_limit));
        let opts = SolveOptions { time_limit: Some(limit), ..SolveOptions::default() };
        match find_point_with(self.solver, &m, &opts) {
            Ok(Feasibility::Infeasible) => Ok(Some(Feas::Infeasible)),
            Ok(Feasibility::Point(p)) => {
                let params = vars.params.iter().map(|v| p[v.index()]).collect();
                let dims = vars.dims.iter().map(|v| p[v.index()]).collect();
                Ok(Some(Feas::Point(params, dims)))
            }
            Ok(Feasibility::FeasibleNoWitness) => Ok(Some(Feas::NoWitness)),
            Err(Error::Solver(SolveError::TimeLimitNoIncumbent)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Row over the piece's columns: `h . (x - y)`.
    fn diff_row(k: &BasicSet, mapping: &ModularMapping, row: usize, n: usize) -> Vec<i64> {
        let np = k.space().n_param();
        let mut r = vec![0; k.n_cols()];
        for (j, &h) in mapping.rows[row].hyperplane.iter().enumerate() {
            r[1 + np + j] += h;
            r[1 + np + n + j] -= h;
        }
        r
    }

    /// Row over the piece's columns: the modulus `u . P + w` (`None` when unfolded).
    fn modulus_row(k: &BasicSet, mapping: &ModularMapping, row: usize, ppos: &[usize]) -> Option<Vec<i64>> {
        let e = mapping.rows[row].modulus.as_ref()?;
        let mut r = vec![0; k.n_cols()];
        r[0] = e.coeffs[0];
        for (i, &p) in ppos.iter().enumerate() {
            r[1 + p] += e.coeffs[1 + i];
        }
        Some(r)
    }

    fn check_piece(&self, k: &BasicSet, pi: usize, n: usize, mapping: &ModularMapping, ppos: &[usize]) -> Result<SymbolicVerdict> {
        enum Q {
            Zero,
            Free(i64),
            Range(Vec<i64>),
        }
        let unknown_time = |what: &str| SymbolicVerdict::Unknown(format!("conflict polyhedron {pi}: the solver hit the time limit ({what})"));
        let to_mparams = |params: &[i64]| -> Vec<i64> { ppos.iter().map(|&i| params[i]).collect() };
        let lin = |a: &[i64], ka: i64, b: &[i64], kb: i64| crate::int::lin_comb(ka, a, kb, b);
        let mut choices: Vec<Q> = Vec::new();
        for row in 0..mapping.rows.len() {
            let Some(e) = Self::modulus_row(k, mapping, row, ppos) else {
                choices.push(Q::Zero);
                continue;
            };
            let constant = e[1..].iter().all(|&v| v == 0);
            if constant && e[0] <= 0 {
                return Ok(SymbolicVerdict::NonPositiveModulus { row, params: ppos.iter().map(|_| 0).collect() });
            }
            if !constant {
                // e(P) >= 1 wherever the piece has points: K and e(P) <= 0 is empty.
                let mut kk = k.clone();
                kk.add_ineq_row(e.iter().map(|v| -v).collect())?;
                match self.feasible(&kk)? {
                    Some(Feas::Infeasible) => {}
                    Some(Feas::Point(p, _)) => return Ok(SymbolicVerdict::NonPositiveModulus { row, params: to_mparams(&p) }),
                    Some(Feas::NoWitness) => {
                        return Ok(SymbolicVerdict::Unknown(format!("row {row}: the modulus may be non-positive (no small witness)")))
                    }
                    None => return Ok(unknown_time("modulus positivity")),
                }
            }
            let d = Self::diff_row(k, mapping, row, n);
            let mut bounds: Option<[i64; 2]> = Some([0, 0]);
            for (side, sign) in [(0usize, 1i64), (1, -1)] {
                let mut found = None;
                for c in 0..=self.max_quotient {
                    // sign*d - (c+1)*e >= 0 empty  =>  sign*q <= c
                    let mut kk = k.clone();
                    kk.add_ineq_row(lin(&d, sign, &e, -(c + 1))?)?;
                    match self.feasible(&kk)? {
                        Some(Feas::Infeasible) => {
                            found = Some(c);
                            break;
                        }
                        Some(_) => {}
                        None => return Ok(unknown_time("quotient bound")),
                    }
                }
                match (found, bounds.as_mut()) {
                    (Some(c), Some(b)) => b[side] = c,
                    (None, _) if constant => {
                        bounds = None;
                        break;
                    }
                    (None, _) => {
                        return Ok(SymbolicVerdict::Unknown(format!(
                            "conflict polyhedron {pi}, row {row}: |h.(x - y)| is not provably below {} times the modulus",
                            self.max_quotient + 1
                        )))
                    }
                    (Some(_), None) => {}
                }
            }
            match bounds {
                Some(b) => choices.push(Q::Range((-b[1]..=b[0]).collect())),
                None => choices.push(Q::Free(e[0])),
            }
        }
        // Distinctness split when x = y is possible in the piece.
        let np = k.space().n_param();
        let mut same = k.clone();
        for j in 0..n {
            let mut r = vec![0; same.n_cols()];
            r[1 + np + j] = 1;
            r[1 + np + n + j] = -1;
            same.add_eq_row(r)?;
        }
        let same_possible = match self.feasible(&same)? {
            Some(Feas::Infeasible) => false,
            Some(_) => true,
            None => return Ok(unknown_time("distinctness")),
        };
        let distinct: Vec<Option<(usize, i64)>> =
            if same_possible { (0..n).flat_map(|j| [Some((j, 1)), Some((j, -1))]).collect() } else { vec![None] };
        let mut n_cases = distinct.len();
        for c in &choices {
            if let Q::Range(r) = c {
                n_cases = n_cases.saturating_mul(r.len());
            }
        }
        if n_cases > self.max_cases {
            return Ok(SymbolicVerdict::Unknown(format!(
                "conflict polyhedron {pi}: {n_cases} collision systems exceed the limit {}",
                self.max_cases
            )));
        }
        let mut idx = vec![0usize; choices.len()];
        loop {
            for dis in &distinct {
                let mut kk = k.clone();
                if let Some((j, s)) = dis {
                    let mut r = vec![0; kk.n_cols()];
                    r[1 + np + j] = *s;
                    r[1 + np + n + j] = -*s;
                    r[0] = -1;
                    kk.add_ineq_row(r)?;
                }
                for (row, c) in choices.iter().enumerate() {
                    match c {
                        Q::Zero => {
                            let d = Self::diff_row(&kk, mapping, row, n);
                            kk.add_eq_row(d)?;
                        }
                        Q::Free(e) => {
                            let q = kk.add_local();
                            let mut d = Self::diff_row(&kk, mapping, row, n);
                            d[q] = -*e;
                            kk.add_eq_row(d)?;
                        }
                        Q::Range(r) => {
                            let q = r[idx[row]];
                            let d = Self::diff_row(&kk, mapping, row, n);
                            let e = Self::modulus_row(&kk, mapping, row, ppos).unwrap_or_else(|| vec![0; kk.n_cols()]);
                            kk.add_eq_row(lin(&d, 1, &e, -q)?)?;
                        }
                    }
                }
                match self.feasible(&kk)? {
                    Some(Feas::Infeasible) => {}
                    Some(Feas::Point(p, dims)) => {
                        let params = to_mparams(&p);
                        let (a, b) = dims.split_at(n);
                        return match confirm(mapping, &params, a, b)? {
                            Some(folded) => Ok(SymbolicVerdict::Invalid(Counterexample { params, cell_a: a.to_vec(), cell_b: b.to_vec(), folded })),
                            None => {
                                Err(Error::Mapping(format!("internal: collision witness {a:?}, {b:?} for {params:?} does not collide on evaluation")))
                            }
                        };
                    }
                    Some(Feas::NoWitness) => {
                        return Ok(SymbolicVerdict::Unknown(format!(
                            "conflict polyhedron {pi}: a collision exists but no witness was found in the search box"
                        )))
                    }
                    None => return Ok(unknown_time("collision system")),
                }
            }
            let mut r = 0;
            loop {
                if r == choices.len() {
                    return Ok(SymbolicVerdict::Valid);
                }
                if let Q::Range(v) = &choices[r] {
                    if idx[r] + 1 < v.len() {
                        idx[r] += 1;
                        break;
                    }
                }
                idx[r] = 0;
                r += 1;
            }
        }
    }

    /// Symbolic check, falling back to concrete checks on `instances` (parameter
    /// values in the relation's parameter order) when the symbolic proof does not
    /// conclude. Never reports [`Verdict::Proven`] for an unproven mapping.
    pub fn check(&self, cs: &ConflictSet, mapping: &ModularMapping, context: Option<&BasicSet>, instances: &[Vec<i64>]) -> Result<Verdict> {
        self.check_in_space(cs, mapping, None, context, instances)
    }

    /// [`check`](Self::check), and first [`check_moduli`](Self::check_moduli) over the
    /// array's data space when it is known: a mapping is proven only when every modulus
    /// is at least 1 wherever the array has cells. When that proof does not conclude,
    /// the moduli are evaluated at every instance instead.
    pub fn check_in_space(
        &self,
        cs: &ConflictSet,
        mapping: &ModularMapping,
        space: Option<&Set>,
        context: Option<&BasicSet>,
        instances: &[Vec<i64>],
    ) -> Result<Verdict> {
        let mut moduli_unknown = None;
        if let Some(space) = space {
            match self.check_moduli(space, mapping, context)? {
                SymbolicVerdict::NonPositiveModulus { row, params } => return Ok(Verdict::NonPositiveModulus { row, params }),
                SymbolicVerdict::Unknown(reason) => {
                    let rel_params = &cs.relation.space().params;
                    for inst in instances {
                        // Where the array has no cell, no modulus is used.
                        let at: Option<Vec<i64>> =
                            space.space().params.iter().map(|p| rel_params.iter().position(|q| q == p).and_then(|i| inst.get(i).copied())).collect();
                        if let Some(values) = at {
                            let mut any = false;
                            let scanned = space.for_each_point(&values, &mut |_| {
                                any = true;
                                Ok(false)
                            });
                            if scanned.is_ok() && !any {
                                continue;
                            }
                        }
                        let mparams = mapping_params_at(cs, mapping, inst)?;
                        if let Some(row) = mapping.nonpositive_modulus(&mparams)? {
                            return Ok(Verdict::NonPositiveModulus { row, params: mparams });
                        }
                    }
                    moduli_unknown = Some(reason);
                }
                _ => {}
            }
        }
        let verdict = self.check_symbolic_verdict(cs, mapping, context, instances)?;
        Ok(match (verdict, moduli_unknown) {
            (Verdict::Proven, Some(reason)) => Verdict::ProvenForInstancesOnly { reason, instances: instances.to_vec() },
            (v, _) => v,
        })
    }

    fn check_symbolic_verdict(
        &self,
        cs: &ConflictSet,
        mapping: &ModularMapping,
        context: Option<&BasicSet>,
        instances: &[Vec<i64>],
    ) -> Result<Verdict> {
        match self.check_symbolic(cs, mapping, context)? {
            SymbolicVerdict::Valid => Ok(Verdict::Proven),
            SymbolicVerdict::Invalid(c) => Ok(Verdict::Refuted(c)),
            SymbolicVerdict::NonPositiveModulus { row, params } => Ok(Verdict::NonPositiveModulus { row, params }),
            SymbolicVerdict::Unknown(reason) => {
                for inst in instances {
                    match check_concrete(cs, mapping, inst, usize::MAX)? {
                        ConcreteVerdict::Invalid(c) => return Ok(Verdict::Refuted(c)),
                        ConcreteVerdict::NonPositiveModulus { row, params } => return Ok(Verdict::NonPositiveModulus { row, params }),
                        ConcreteVerdict::Valid { .. } => {}
                    }
                }
                Ok(Verdict::ProvenForInstancesOnly { reason, instances: instances.to_vec() })
            }
        }
    }
}

/// Concrete check: enumerates every conflict pair for the parameter values `params`
/// (in the relation's parameter order) and evaluates the mapping on both cells.
/// Fails with [`Error::TooManyPoints`] beyond `limit` pairs.
pub fn check_concrete(cs: &ConflictSet, mapping: &ModularMapping, params: &[i64], limit: usize) -> Result<ConcreteVerdict> {
    let n = check_arity(cs, mapping)?;
    let rel_params = cs.relation.space().params.clone();
    if params.len() != rel_params.len() {
        return Err(Error::ParamValues(format!("{} values for parameters {:?}", params.len(), rel_params)));
    }
    let ppos = param_positions(mapping, &rel_params)?;
    let mparams: Vec<i64> = ppos.iter().map(|&i| params[i]).collect();
    // A row whose modulus is not positive is an error only where a pair of cells needs
    // it (the first pair ends the enumeration then, and no modulus is used).
    let nonpositive = mapping.nonpositive_modulus(&mparams)?;
    let mods = if nonpositive.is_none() { mapping.moduli(&mparams)? } else { Vec::new() };
    let mut count = 0usize;
    let mut bad: Option<Counterexample> = None;
    let mut err: Option<Error> = None;
    let mut zero_mod: Option<usize> = None;
    cs.relation.for_each_point(params, &mut |pt| {
        let (a, b) = pt.split_at(n);
        if a == b {
            return Ok(true);
        }
        if let Some(row) = nonpositive {
            zero_mod = Some(row);
            return Ok(false);
        }
        count += 1;
        if count > limit {
            err = Some(Error::TooManyPoints(limit));
            return Ok(false);
        }
        let fa = mapping.apply_with(&mods, a)?;
        let fb = mapping.apply_with(&mods, b)?;
        if fa == fb {
            bad = Some(Counterexample { params: mparams.clone(), cell_a: a.to_vec(), cell_b: b.to_vec(), folded: fa });
            return Ok(false);
        }
        Ok(true)
    })?;
    if let Some(e) = err {
        return Err(e);
    }
    if let Some(row) = zero_mod {
        return Ok(ConcreteVerdict::NonPositiveModulus { row, params: mparams });
    }
    Ok(match bad {
        Some(c) => ConcreteVerdict::Invalid(c),
        None => ConcreteVerdict::Valid { pairs_checked: count },
    })
}
