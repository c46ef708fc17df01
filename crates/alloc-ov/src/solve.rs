//! The constraints of Thies et al. 2007, Sec. 4.3-4.5 and the three problems of Sec. 2 / 4.6.
//!
//! A constraint *family* is a bilinear form `F(theta; y) >= 0` required for every
//! rational point `y = (n, x)` of a polyhedron `Q` (parameters and iterators together):
//!
//! * schedule constraint (6) of dependence `P_j`: `Theta_R(x) - Theta_T(h(x)) - 1` on
//!   `Q = N x P_j`;
//! * storage constraint (7) for an occupancy vector `v`:
//!   `Theta_T'(h(x) + v) - Theta_R(x)` on `Z_j = {x in P_j : h(x) + v in D_T'}`
//!   (`- 1` in the strict variant where a value cannot be read and overwritten in the
//!   same step, Sec. 3.3.2 and 4.6.3);
//! * write order of the occupancy vector (Sec. 3.3.1, condition 2):
//!   `Theta_T'(l + v) - Theta_T(l) - 1` on `{l in D_T : l + v in D_T'}`.
//!
//! Each family is linearised with the **vertex method** (Sec. 3.2.4, Theorem 2; Sec. 4.5):
//! `F >= 0` on `Q` iff `F(theta; vertex) >= 0` at every vertex and the linear part is
//! `>= 0` on every ray of `Q` (parameters unbounded: Eq. 12). The result is a finite set
//! of affine forms in `theta` (Eqs. 13, 14), exact over the rationals.

use crate::geom::{eval_at_vertex, eval_on_ray, generators, Generators, Rows};
use crate::model::OvFormulation;
use crate::OvError;
use polyalloc_formulation::farkas::{nonneg_on, FarkasOptions, ParamForm};
use polyalloc_formulation::{BasicSet, Space, Tuple};
use polyalloc_ilp::{Cmp, LexSolve, LinExpr, Model, SolveError, SolveOptions, Solver};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

/// An affine form `f[0] + sum_k f[1 + k] theta_k` (`>= 0`).
pub type Form = Vec<i64>;

/// A bilinear constraint family (see the module doc).
#[derive(Clone, Debug)]
pub struct Family {
    pub label: String,
    pub ncols: usize,
    pub domain: Rows,
    /// One row over `y` per schedule coefficient.
    pub coef: Vec<Vec<i64>>,
    /// The part without schedule coefficients, a row over `y`.
    pub constant: Vec<i64>,
}

/// Options of the search.
#[derive(Clone, Debug)]
pub struct OvOptions {
    /// Largest Manhattan length tried (the search enumerates integer vectors by
    /// increasing length, so this bounds the work; the examples need at most 3).
    pub max_length: i64,
    /// Strict storage constraint (a value is not read in the step it is overwritten).
    pub strict: bool,
    /// Solver options of the Farkas and latency problems.
    pub solve: SolveOptions,
}

impl Default for OvOptions {
    fn default() -> Self {
        OvOptions { max_length: 6, strict: false, solve: SolveOptions::default() }
    }
}

/// An occupancy vector found by a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub vector: Vec<i64>,
    /// `sum |v_i|` (the first objective of Sec. 4.6.1).
    pub manhattan: i64,
    /// `sum_i sum_j ||v_i| - |v_j||` (the second objective of Sec. 4.6.1).
    pub evenness: i64,
    /// Candidate vectors examined before it (in the order of the two objectives).
    pub candidates: usize,
}

/// The evenness objective of Sec. 4.6.1.
pub fn evenness(v: &[i64]) -> i64 {
    let mut s = 0;
    for a in v {
        for b in v {
            s += (a.abs() - b.abs()).abs();
        }
    }
    s
}

/// Every integer vector of dimension `d` and Manhattan length `len`, ordered by
/// evenness, then lexicographically decreasing (so `(2, 1)` before `(1, 2)`, positive
/// components first).
pub fn candidates(d: usize, len: i64) -> Vec<Vec<i64>> {
    fn rec(d: usize, left: i64, cur: &mut Vec<i64>, out: &mut Vec<Vec<i64>>) {
        if cur.len() + 1 == d {
            for x in if left == 0 { vec![0] } else { vec![left, -left] } {
                cur.push(x);
                out.push(cur.clone());
                cur.pop();
            }
            return;
        }
        for a in (0..=left).rev() {
            for x in if a == 0 { vec![0] } else { vec![a, -a] } {
                cur.push(x);
                rec(d, left - a, cur, out);
                cur.pop();
            }
        }
    }
    let mut out = Vec::new();
    if d == 0 {
        return out;
    }
    rec(d, len, &mut Vec::new(), &mut out);
    out.sort_by(|a, b| evenness(a).cmp(&evenness(b)).then_with(|| b.cmp(a)));
    out
}

fn terms(t: &[(polyalloc_ilp::VarId, i64)]) -> LinExpr {
    let mut e = LinExpr::new();
    for &(v, c) in t {
        e.add_term(v, c);
    }
    e
}

use polyalloc_formulation::int::gcd_i128 as gcd;

fn normalize(f: Vec<i128>) -> Result<Option<Form>, OvError> {
    let g = f.iter().fold(0, |acc, &x| gcd(acc, x));
    if g == 0 {
        return Ok(None);
    }
    f.into_iter().map(|x| i64::try_from(x / g).map_err(|_| crate::geom::ovf("linearised form"))).collect::<Result<Vec<_>, _>>().map(Some)
}

/// A domain as a cache key: (equalities, inequalities).
type RowsKey = (Vec<Vec<i64>>, Vec<Vec<i64>>);

/// The engine: a program, a solver, caches.
pub struct Engine<'a> {
    pub form: &'a OvFormulation,
    pub solver: &'a dyn Solver,
    pub opts: OvOptions,
    gens: RefCell<HashMap<RowsKey, Option<Generators>>>,
    implied: RefCell<HashMap<Form, bool>>,
    schedule_set: RefCell<Option<BasicSet>>,
    /// Known legal schedules (points of R) used as a quick exact refutation.
    pub witnesses: Vec<Vec<i64>>,
}

impl<'a> Engine<'a> {
    pub fn new(form: &'a OvFormulation, solver: &'a dyn Solver, opts: OvOptions) -> Self {
        Engine {
            form,
            solver,
            opts,
            gens: RefCell::new(HashMap::new()),
            implied: RefCell::new(HashMap::new()),
            schedule_set: RefCell::new(None),
            witnesses: Vec::new(),
        }
    }

    fn np(&self) -> usize {
        self.form.params.len()
    }

    fn gens(&self, dom: &Rows, ncols: usize) -> Result<Option<Generators>, OvError> {
        let key = (dom.eqs.clone(), dom.ineqs.clone());
        if let Some(g) = self.gens.borrow().get(&key) {
            return Ok(g.clone());
        }
        let g = generators(dom, ncols)?;
        self.gens.borrow_mut().insert(key, g.clone());
        Ok(g)
    }

    /// The vertex method on one family: its affine forms in `theta` (empty when `Q` is
    /// empty; an all-zero form is dropped).
    pub fn linearize(&self, fam: &Family) -> Result<Vec<Form>, OvError> {
        let Some(g) = self.gens(&fam.domain, fam.ncols)? else { return Ok(Vec::new()) };
        let mut out = Vec::new();
        for p in &g.vertices {
            let mut f = vec![eval_at_vertex(&fam.constant, p)?];
            for c in &fam.coef {
                f.push(eval_at_vertex(c, p)?);
            }
            if let Some(f) = normalize(f)? {
                if !out.contains(&f) {
                    out.push(f);
                }
            }
        }
        for r in &g.rays {
            let mut f = vec![eval_on_ray(&fam.constant, r)?];
            for c in &fam.coef {
                f.push(eval_on_ray(c, r)?);
            }
            if let Some(f) = normalize(f)? {
                if !out.contains(&f) {
                    out.push(f);
                }
            }
        }
        Ok(out)
    }

    /// The schedule-constraint families (6), one per dependence.
    pub fn schedule_families(&self) -> Result<Vec<Family>, OvError> {
        let np = self.np();
        let mut out = Vec::new();
        for d in &self.form.dependences {
            let ncols = self.form.statements[d.consumer].ncols(np);
            let mut coef = vec![vec![0; ncols]; self.form.space.len()];
            let ident: Vec<Vec<i64>> = (0..self.form.statements[d.consumer].dims.len()).map(|k| crate::geom::unit(1 + np + k, ncols)).collect();
            self.form.add_theta(&mut coef, d.consumer, &ident, 1, ncols)?;
            self.form.add_theta(&mut coef, d.producer, &d.h, -1, ncols)?;
            let mut constant = vec![0; ncols];
            constant[0] = -1;
            out.push(Family { label: format!("schedule {}", d.name), ncols, domain: d.domain.clone(), coef, constant });
        }
        Ok(out)
    }

    /// The linearised schedule constraints (14): the polyhedron `R` of legal schedules.
    pub fn schedule_forms(&self) -> Result<Vec<Form>, OvError> {
        let mut out: Vec<Form> = Vec::new();
        for f in self.schedule_families()? {
            for x in self.linearize(&f)? {
                if !out.contains(&x) {
                    out.push(x);
                }
            }
        }
        Ok(out)
    }

    /// The storage (7) and write-order families of `array` for the vector `v`.
    pub fn storage_families(&self, array: &str, v: &[i64], strict: bool) -> Result<Vec<Family>, OvError> {
        let np = self.np();
        let writers = self.form.writers.get(array).cloned().ok_or_else(|| OvError::Input(format!("no statement writes array `{array}`")))?;
        for &t in &writers {
            let dims = self.form.statements[t].dims.len();
            if v.len() != dims {
                return Err(OvError::Input(format!("occupancy vector {v:?} of array `{array}`: expected {dims} components")));
            }
        }
        let mut out = Vec::new();
        for d in &self.form.dependences {
            if !writers.contains(&d.producer) {
                continue;
            }
            let ncols = self.form.statements[d.consumer].ncols(np);
            // h(x) + v
            let hv: Vec<Vec<i64>> =
                d.h.iter()
                    .zip(v)
                    .map(|(row, vk)| {
                        let mut r = row.clone();
                        r[0] += vk;
                        r
                    })
                    .collect();
            for &t2 in &writers {
                for piece in &self.form.statements[t2].pieces {
                    let mut dom = d.domain.clone();
                    for row in &piece.eqs {
                        dom.eqs.push(crate::geom::subst(row, np, &hv, ncols)?);
                    }
                    for row in &piece.ineqs {
                        dom.ineqs.push(crate::geom::subst(row, np, &hv, ncols)?);
                    }
                    let mut coef = vec![vec![0; ncols]; self.form.space.len()];
                    self.form.add_theta(&mut coef, t2, &hv, 1, ncols)?;
                    let ident: Vec<Vec<i64>> =
                        (0..self.form.statements[d.consumer].dims.len()).map(|k| crate::geom::unit(1 + np + k, ncols)).collect();
                    self.form.add_theta(&mut coef, d.consumer, &ident, -1, ncols)?;
                    let mut constant = vec![0; ncols];
                    constant[0] = -i64::from(strict);
                    out.push(Family {
                        label: format!("storage {} over {}", d.name, self.form.statements[t2].name),
                        ncols,
                        domain: dom,
                        coef,
                        constant,
                    });
                }
            }
        }
        for &t in &writers {
            let ncols = self.form.statements[t].ncols(np);
            let lv: Vec<Vec<i64>> = (0..v.len())
                .map(|k| {
                    let mut r = crate::geom::unit(1 + np + k, ncols);
                    r[0] = v[k];
                    r
                })
                .collect();
            let ident: Vec<Vec<i64>> = (0..v.len()).map(|k| crate::geom::unit(1 + np + k, ncols)).collect();
            for pt in &self.form.statements[t].pieces {
                for &t2 in &writers {
                    for p2 in &self.form.statements[t2].pieces {
                        let mut dom = self.form.context_rows(ncols);
                        dom.extend(pt);
                        for row in &p2.eqs {
                            dom.eqs.push(crate::geom::subst(row, np, &lv, ncols)?);
                        }
                        for row in &p2.ineqs {
                            dom.ineqs.push(crate::geom::subst(row, np, &lv, ncols)?);
                        }
                        let mut coef = vec![vec![0; ncols]; self.form.space.len()];
                        self.form.add_theta(&mut coef, t2, &lv, 1, ncols)?;
                        self.form.add_theta(&mut coef, t, &ident, -1, ncols)?;
                        let mut constant = vec![0; ncols];
                        constant[0] = -1;
                        out.push(Family {
                            label: format!("write order {} -> {}", self.form.statements[t].name, self.form.statements[t2].name),
                            ncols,
                            domain: dom,
                            coef,
                            constant,
                        });
                    }
                }
            }
        }
        Ok(out)
    }

    /// True when some dependence reads a value of `array`.
    pub fn is_read(&self, array: &str) -> bool {
        let w = self.form.writers.get(array).cloned().unwrap_or_default();
        self.form.dependences.iter().any(|d| w.contains(&d.producer))
    }

    fn eval(f: &Form, th: &[i64]) -> i128 {
        f[0] as i128 + f[1..].iter().zip(th).map(|(a, b)| *a as i128 * *b as i128).sum::<i128>()
    }

    /// Problem 2.1 check: is `v` valid for `array` under the schedule `th`? (exact)
    pub fn valid_for_schedule(&self, array: &str, v: &[i64], th: &[i64], strict: bool) -> Result<bool, OvError> {
        for fam in self.storage_families(array, v, strict)? {
            for f in self.linearize(&fam)? {
                if Self::eval(&f, th) < 0 {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Problem 2.1 (Sec. 4.6.1): the shortest occupancy vector of `array` for the
    /// schedule `th`: minimum Manhattan length, then evenness, integer.
    pub fn ov_for_schedule(&self, array: &str, th: &[i64], strict: bool) -> Result<Found, OvError> {
        self.search(array, &mut |v| self.valid_for_schedule(array, v, th, strict))
    }

    fn search(&self, array: &str, valid: &mut dyn FnMut(&[i64]) -> Result<bool, OvError>) -> Result<Found, OvError> {
        let w = self.form.writers.get(array).ok_or_else(|| OvError::Input(format!("no statement writes array `{array}`")))?;
        let d = self.form.statements[w[0]].dims.len();
        if !self.is_read(array) {
            // Sec. 4.6.1: "the minimal value of v might be 0": no value is ever read.
            return Ok(Found { vector: vec![0; d], manhattan: 0, evenness: 0, candidates: 0 });
        }
        let mut n = 0;
        for len in 1..=self.opts.max_length {
            for v in candidates(d, len) {
                n += 1;
                if valid(&v)? {
                    return Ok(Found { manhattan: len, evenness: evenness(&v), vector: v, candidates: n });
                }
            }
        }
        Err(OvError::NotFound(format!("no occupancy vector of Manhattan length <= {} for array `{array}` ({n} candidates)", self.opts.max_length)))
    }

    /// `R` as a basic set over the schedule coefficients.
    pub fn theta_set(&self, forms: &[Form], eqs: &[Form]) -> Result<BasicSet, OvError> {
        let names: Vec<&str> = self.form.space.names.iter().map(String::as_str).collect();
        let mut b = BasicSet::universe(Space::set(&[], Tuple::anonymous(&names)));
        for f in forms {
            b.add_ineq_row(f.clone())?;
        }
        for f in eqs {
            b.add_eq_row(f.clone())?;
        }
        b.simplify()?;
        Ok(b)
    }

    fn schedule_polyhedron(&self) -> Result<BasicSet, OvError> {
        if let Some(b) = self.schedule_set.borrow().as_ref() {
            return Ok(b.clone());
        }
        let mut b = self.theta_set(&self.schedule_forms()?, &[])?;
        if b.is_marked_empty() || b.is_rationally_empty()? {
            return Err(OvError::NoSchedule(self.form.name.clone()));
        }
        b.remove_redundant()?;
        *self.schedule_set.borrow_mut() = Some(b.clone());
        Ok(b)
    }

    /// Is `f >= 0` on every legal schedule? Farkas' lemma over the schedule polyhedron
    /// `R` (Sec. 4.6.3): `f = lambda_0 + sum lambda_k r_k` with `lambda >= 0`, a
    /// feasibility problem given to the solver.
    pub fn implied_by_schedules(&self, f: &Form) -> Result<bool, OvError> {
        if f[1..].iter().all(|&c| c == 0) {
            return Ok(f[0] >= 0);
        }
        for w in &self.witnesses {
            if Self::eval(f, w) < 0 {
                return Ok(false);
            }
        }
        if let Some(&b) = self.implied.borrow().get(f) {
            return Ok(b);
        }
        let r = self.schedule_polyhedron()?;
        let mut model = Model::new("ov_farkas_over_R");
        let form = ParamForm { constant: LinExpr::constant(f[0]), coeffs: f[1..].iter().map(|&c| LinExpr::constant(c)).collect() };
        nonneg_on(&mut model, &r, &form, &FarkasOptions { name: "lambda".into(), ..FarkasOptions::default() })?;
        let ok = match self.solver.solve(&model, &self.opts.solve) {
            Ok(_) => true,
            Err(SolveError::Infeasible) => false,
            Err(e) => return Err(OvError::Solver(e)),
        };
        self.implied.borrow_mut().insert(f.clone(), ok);
        Ok(ok)
    }

    /// Problem 2.3 check: is `v` valid for every legal one-dimensional affine schedule?
    pub fn valid_for_all_schedules(&self, array: &str, v: &[i64]) -> Result<bool, OvError> {
        let fams = self.storage_families(array, v, self.opts.strict)?;
        // Cheap exact refutation first: every known legal schedule.
        for fam in &fams {
            for f in self.linearize(fam)? {
                for w in &self.witnesses {
                    if Self::eval(&f, w) < 0 {
                        return Ok(false);
                    }
                }
            }
        }
        for fam in &fams {
            for f in self.linearize(fam)? {
                if !self.implied_by_schedules(&f)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Problem 2.3 (Sec. 4.6.3): the shortest affine occupancy vector of `array`.
    pub fn aov(&self, array: &str) -> Result<Found, OvError> {
        self.schedule_polyhedron()?;
        self.search(array, &mut |v| self.valid_for_all_schedules(array, v))
    }

    /// True when `th` satisfies every schedule constraint (exact).
    pub fn is_legal(&self, th: &[i64]) -> Result<bool, OvError> {
        Ok(self.schedule_forms()?.iter().all(|f| Self::eval(f, th) >= 0))
    }
}

/// The schedules valid for given occupancy vectors (Problem 2.2, Sec. 4.6.2).
#[derive(Clone, Debug)]
pub struct ValidSchedules {
    /// The linearised schedule and storage constraints, simplified and printed as the
    /// paper prints them (`a - 2*b >= 0`, `a_1 = a_2`).
    pub constraints: Vec<String>,
    /// The same set as a basic set over the schedule coefficients.
    pub set: BasicSet,
    /// The best schedule by latency, per statement (`S: i - 1`).
    pub best: BTreeMap<String, String>,
    /// Its point in the coefficient space.
    pub best_theta: Vec<i64>,
    /// Its latency bound `L(n)` with `0 <= Theta <= L(n)` on every domain.
    pub latency: String,
}

impl Engine<'_> {
    /// Problem 2.2: the set of schedules valid for the occupancy vectors `given`
    /// (array -> vector) and the best one by latency.
    pub fn schedules_for(&self, given: &BTreeMap<String, Vec<i64>>) -> Result<ValidSchedules, OvError> {
        let mut forms = self.schedule_forms()?;
        for (a, v) in given {
            for fam in self.storage_families(a, v, self.opts.strict)? {
                for f in self.linearize(&fam)? {
                    if !forms.contains(&f) {
                        forms.push(f);
                    }
                }
            }
        }
        let mut set = self.theta_set(&forms, &[])?;
        if set.is_marked_empty() || set.is_rationally_empty()? {
            return Err(OvError::NoSchedule(format!("{} with occupancy vectors {given:?}", self.form.name)));
        }
        set.remove_redundant()?;
        let printed = crate::print::paper_constraints(&set, &self.form.space)?;
        let (best_theta, latency) = self.best_schedule(&set)?;
        Ok(ValidSchedules { constraints: printed, best: self.form.schedule_strings(&best_theta), best_theta, latency, set })
    }

    /// The schedule of `set` of least latency: minimise the parametric bound
    /// `L(n) = sum_p l_p n_p + l_0` with `0 <= Theta_S(x) <= L(n)` on every domain
    /// (vertex method), lexicographically (sum of the parameter coefficients, then the
    /// constant, then the sum of |coefficients| of the schedule for a canonical answer).
    fn best_schedule(&self, set: &BasicSet) -> Result<(Vec<i64>, String), OvError> {
        let np = self.np();
        let nt = self.form.space.len();
        const BOUND: i64 = 1000;
        let mut m = Model::new("ov_best_schedule");
        let th: Vec<_> = (0..nt).map(|k| m.add_integer(format!("theta_{}", self.form.space.names[k]), Some(-BOUND), Some(BOUND))).collect();
        let lp: Vec<_> = (0..np).map(|p| m.add_integer(format!("l_{}", self.form.params[p]), Some(-BOUND), Some(BOUND))).collect();
        let l0 = m.add_integer("l_0", Some(-BOUND * 100), Some(BOUND * 100));
        let abs: Vec<_> = (0..nt).map(|k| m.add_integer(format!("abs_{k}"), Some(0), Some(BOUND))).collect();
        let form_expr = |row: &[i64]| -> LinExpr {
            let mut e = LinExpr::constant(row[0]);
            for (k, &c) in row[1..].iter().enumerate() {
                if c != 0 {
                    e.add_term(th[k], c);
                }
            }
            e
        };
        for (k, r) in set.inequalities().iter().enumerate() {
            let e = form_expr(r);
            let c = -e.constant_part();
            let mut e = e;
            e.set_constant(0);
            m.try_add_constraint(format!("r{k}"), e, Cmp::Ge, c)?;
        }
        for (k, r) in set.equalities().iter().enumerate() {
            let e = form_expr(r);
            let c = -e.constant_part();
            let mut e = e;
            e.set_constant(0);
            m.try_add_constraint(format!("e{k}"), e, Cmp::Eq, c)?;
        }
        for k in 0..nt {
            m.try_add_constraint(format!("abs_p{k}"), terms(&[(abs[k], 1), (th[k], -1)]), Cmp::Ge, 0)?;
            m.try_add_constraint(format!("abs_n{k}"), terms(&[(abs[k], 1), (th[k], 1)]), Cmp::Ge, 0)?;
        }
        // 0 <= Theta_S(y) <= L(n) on each domain piece (with the context).
        let mut cnt = 0;
        for (s, st) in self.form.statements.iter().enumerate() {
            let ncols = st.ncols(np);
            let ident: Vec<Vec<i64>> = (0..st.dims.len()).map(|k| crate::geom::unit(1 + np + k, ncols)).collect();
            let mut coef = vec![vec![0; ncols]; nt];
            self.form.add_theta(&mut coef, s, &ident, 1, ncols)?;
            for piece in &st.pieces {
                let mut dom = self.form.context_rows(ncols);
                dom.extend(piece);
                let Some(g) = self.gens(&dom, ncols)? else { continue };
                let mut pts: Vec<(Vec<i128>, Vec<i128>)> = Vec::new(); // (theta coefs, latency coefs [l_p..., l_0])
                for p in &g.vertices {
                    let t: Vec<i128> = coef.iter().map(|c| eval_at_vertex(c, p)).collect::<Result<_, _>>()?;
                    let mut l: Vec<i128> = (0..np).map(|q| p.num[q]).collect();
                    l.push(p.den);
                    pts.push((t, l));
                }
                for r in &g.rays {
                    let t: Vec<i128> = coef.iter().map(|c| eval_on_ray(c, r)).collect::<Result<_, _>>()?;
                    let mut l: Vec<i128> = (0..np).map(|q| r[q]).collect();
                    l.push(0);
                    pts.push((t, l));
                }
                for (t, l) in pts {
                    let to = |x: i128| i64::try_from(x).map_err(|_| crate::geom::ovf("latency model"));
                    let mut lo = LinExpr::new();
                    let mut hi = LinExpr::new();
                    for (k, &c) in t.iter().enumerate() {
                        if c != 0 {
                            lo.add_term(th[k], to(c)?);
                            hi.add_term(th[k], to(-c)?);
                        }
                    }
                    for (q, &c) in l.iter().enumerate() {
                        if c != 0 {
                            hi.add_term(if q < np { lp[q] } else { l0 }, to(c)?);
                        }
                    }
                    m.try_add_constraint(format!("nonneg{cnt}"), lo, Cmp::Ge, 0)?;
                    m.try_add_constraint(format!("latency{cnt}"), hi, Cmp::Ge, 0)?;
                    cnt += 1;
                }
            }
        }
        let mut o1 = LinExpr::new();
        for &v in &lp {
            o1.add_term(v, 1);
        }
        let o2 = terms(&[(l0, 1)]);
        let mut o3 = LinExpr::new();
        for &v in &abs {
            o3.add_term(v, 1);
        }
        let sol = self.solver.lex_minimize(&m, &[o1, o2, o3], &self.opts.solve).map_err(OvError::Solver)?;
        let theta: Vec<i64> = th.iter().map(|&v| sol.solution.int_value(v)).collect();
        let lc: Vec<i64> = lp.iter().map(|&v| sol.solution.int_value(v)).collect();
        let l0v = sol.solution.int_value(l0);
        Ok((theta, crate::fmt_linear(&lc, &self.form.params, l0v)))
    }
}

/// A storage form with the occupancy vector left symbolic (Sec. 5.1.1, e.g.
/// `(v_i - 1)*a + (v_j - 2)*b >= 0`): `base . (1, theta) + sum coef * theta[idx] * v[k]`.
#[derive(Clone, Debug)]
pub struct SymForm {
    pub base: Vec<i64>,
    /// `(theta index, coefficient, component k of v)`.
    pub vterms: Vec<(usize, i64, usize)>,
}

impl Engine<'_> {
    /// The paper's linearised storage constraints (13) with `v` symbolic: the vertex
    /// method on the dependence domains `P_j` instead of `Z_j`, i.e. under the paper's
    /// assumption that `Z_j` is non-empty with the vertices of `P_j` ("the details of these
    /// domain definitions turn out to be unimportant", Sec. 5.1.1). This requires the
    /// constraint also where `h(x) + v` leaves the domain, so it is conservative; `None`
    /// when the array has several writers (the overwriter then depends on `v`).
    pub fn symbolic_storage(&self, array: &str, strict: bool) -> Result<Option<Vec<SymForm>>, OvError> {
        let np = self.np();
        let Some(w) = self.form.writers.get(array) else { return Ok(None) };
        let [t] = w.as_slice() else { return Ok(None) };
        let t = *t;
        let d_t = self.form.statements[t].dims.len();
        let to = |x: i128| i64::try_from(x).map_err(|_| crate::geom::ovf("symbolic storage form"));
        let mut out = Vec::new();
        for d in self.form.dependences.iter().filter(|d| d.producer == t) {
            let ncols = self.form.statements[d.consumer].ncols(np);
            let mut coef = vec![vec![0; ncols]; self.form.space.len()];
            self.form.add_theta(&mut coef, t, &d.h, 1, ncols)?;
            let ident: Vec<Vec<i64>> = (0..self.form.statements[d.consumer].dims.len()).map(|k| crate::geom::unit(1 + np + k, ncols)).collect();
            self.form.add_theta(&mut coef, d.consumer, &ident, -1, ncols)?;
            let mut constant = vec![0; ncols];
            constant[0] = -i64::from(strict);
            let Some(g) = self.gens(&d.domain, ncols)? else { continue };
            for p in &g.vertices {
                let mut base = vec![to(eval_at_vertex(&constant, p)?)?];
                for c in &coef {
                    base.push(to(eval_at_vertex(c, p)?)?);
                }
                let den = to(p.den)?;
                out.push(SymForm { base, vterms: (0..d_t).map(|k| (self.form.space.dim(t, k), den, k)).collect() });
            }
            for r in &g.rays {
                let mut base = vec![to(eval_on_ray(&constant, r)?)?];
                for c in &coef {
                    base.push(to(eval_on_ray(c, r)?)?);
                }
                out.push(SymForm { base, vterms: Vec::new() });
            }
        }
        // Write order: Theta_T(l + v) - Theta_T(l) - 1 = a_T . v - 1 (independent of l).
        let mut base = vec![0; 1 + self.form.space.len()];
        base[0] = -1;
        out.push(SymForm { base, vterms: (0..d_t).map(|k| (self.form.space.dim(t, k), 1, k)).collect() });
        Ok(Some(out))
    }

    /// The integer program of Sec. 4.6.1 (`th` given, Problem 2.1) or Sec. 4.6.3 (every
    /// legal schedule, Problem 2.3: Farkas' lemma over `R` with `v` unknown, the system of
    /// Sec. 5.1.4) on the symbolic constraints of [`Engine::symbolic_storage`], solved by
    /// lexicographic minimisation: Manhattan length (`u_k >= |v_k|`, footnote 4), then
    /// evenness `sum_{k<l} |u_k - u_l|`. `None` when the array has several writers.
    pub fn paper_ilp(&self, array: &str, th: Option<&[i64]>, strict: bool) -> Result<Option<Vec<i64>>, OvError> {
        let Some(forms) = self.symbolic_storage(array, strict)? else { return Ok(None) };
        let w = self.form.writers.get(array).ok_or_else(|| OvError::Input(format!("no statement writes `{array}`")))?;
        let d = self.form.statements[w[0]].dims.len();
        let bound = self.opts.max_length;
        let mut m = Model::new(if th.is_some() { "ov_paper_ilp" } else { "aov_paper_ilp" });
        let v: Vec<_> = (0..d).map(|k| m.add_integer(format!("v{k}"), Some(-bound), Some(bound))).collect();
        let u: Vec<_> = (0..d).map(|k| m.add_integer(format!("u{k}"), Some(0), Some(bound))).collect();
        for k in 0..d {
            m.try_add_constraint(format!("abs_p{k}"), terms(&[(u[k], 1), (v[k], -1)]), Cmp::Ge, 0)?;
            m.try_add_constraint(format!("abs_n{k}"), terms(&[(u[k], 1), (v[k], 1)]), Cmp::Ge, 0)?;
        }
        let mut even = LinExpr::new();
        for k in 0..d {
            for l in k + 1..d {
                let wv = m.add_integer(format!("w{k}_{l}"), Some(0), Some(bound));
                m.try_add_constraint(format!("even_p{k}_{l}"), terms(&[(wv, 1), (u[k], -1), (u[l], 1)]), Cmp::Ge, 0)?;
                m.try_add_constraint(format!("even_n{k}_{l}"), terms(&[(wv, 1), (u[k], 1), (u[l], -1)]), Cmp::Ge, 0)?;
                even.add_term(wv, 1);
            }
        }
        let ovf = || crate::geom::ovf("paper ILP");
        match th {
            Some(th) => {
                for (i, f) in forms.iter().enumerate() {
                    let c = Self::eval(&f.base, th);
                    let mut e = LinExpr::new();
                    for &(idx, coef, k) in &f.vterms {
                        let a = th[idx].checked_mul(coef).ok_or_else(ovf)?;
                        if a != 0 {
                            e.checked_add_term(v[k], a).ok_or_else(ovf)?;
                        }
                    }
                    let rhs = i64::try_from(-c).map_err(|_| ovf())?;
                    if e.is_constant() {
                        if rhs > 0 {
                            return Err(OvError::NotFound(format!(
                                "array `{array}`: no occupancy vector satisfies the paper's constraints for this schedule"
                            )));
                        }
                        continue;
                    }
                    m.try_add_constraint(format!("storage{i}"), e, Cmp::Ge, rhs)?;
                }
            }
            None => {
                let r = self.schedule_polyhedron()?;
                for (i, f) in forms.iter().enumerate() {
                    let mut coeffs: Vec<LinExpr> = f.base[1..].iter().map(|&c| LinExpr::constant(c)).collect();
                    for &(idx, coef, k) in &f.vterms {
                        coeffs[idx].checked_add_term(v[k], coef).ok_or_else(ovf)?;
                    }
                    let form = ParamForm { constant: LinExpr::constant(f.base[0]), coeffs };
                    nonneg_on(&mut m, &r, &form, &FarkasOptions { name: format!("lambda{i}"), ..FarkasOptions::default() })?;
                }
            }
        }
        let mut len = LinExpr::new();
        for &x in &u {
            len.add_term(x, 1);
        }
        let objectives = if d > 1 { vec![len, even] } else { vec![len] };
        let sol = self.solver.lex_minimize(&m, &objectives, &self.opts.solve).map_err(|e| match e {
            SolveError::Infeasible => {
                OvError::NotFound(format!("array `{array}`: the paper's integer program has no solution with |v_k| <= {bound}"))
            }
            e => OvError::Solver(e),
        })?;
        Ok(Some(v.iter().map(|&x| sol.solution.int_value(x)).collect()))
    }
}
