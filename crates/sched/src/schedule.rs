//! Affine scheduling (Pugh 1991, Sec. 4): a feasible schedule `T_p` per statement such that
//! `s_p[x] δ s_q[y] ⇒ T_p(x) < T_q(y)` (and `T_p(x) ≠ T_q(y)` for broadcast
//! "dependences" when they are respected).
//!
//! The method, as in the paper:
//!
//! 1. The statement graph (an edge per ordering dependence) is split into strongly
//!    connected components (SCCs).
//! 2. In each SCC a *seed* statement is scheduled first: a feedback vertex when there
//!    is one (removing it leaves no cycle, self-loops included), the deepest among
//!    those, the last in program order among equals. (The paper picks `s_2` in
//!    Example 1 and in the Givens QR example; in Example 2 both statements qualify and
//!    the paper fixes `c_2 = 0`.)
//! 3. Self-dependence distances of the seed: its direct self-dependences (each
//!    dependence in input order), then the transitive ones obtained by eliminating the
//!    other statements of the SCC one by one (Fig. 2: edges `u → x → v` become
//!    `u → v` labelled with the composition through `x`'s closure `F*`), then the
//!    broadcast distances. `dd = range(F -̇ D)` is [`crate::rel::distances`].
//! 4. Nomination: integer coefficient vectors by increasing 1-norm (within a norm:
//!    dimensions in order, larger magnitudes first, positive before negative — this
//!    order reproduces every trial sequence printed in the paper), skipping vectors
//!    that violate a distance learned from a failed trial (`T·d > 0`, or `T·d ≠ 0` for
//!    a broadcast distance). A candidate is tested against each distance set in turn;
//!    the first violated set reports its violated distance of minimum 1-norm
//!    (lexicographically smallest among those). Dimensions listed in
//!    `prefer_parallel` get coefficient 0 (Example 2: "we would prefer to parallelize
//!    the i loop").
//! 5. Transfer (`(T_p ∘ F⁻¹)[x] < T_q[x] < (T_p ∘ G)[x]`): the other statements of the
//!    SCC, in breadth-first order from the seed, get the coefficients (iterators and
//!    symbolic constants) that satisfy all dependences with the already scheduled
//!    statements and their own self-dependences for some offsets: an integer program
//!    with Farkas' lemma on every dependence polyhedron, minimising the largest
//!    absolute coefficient, then the 1-norm ("all other things being equal, it is
//!    better to have unary coefficients").
//! 6. Alignment: the offsets of all statements by one integer program over the
//!    dependences (Farkas), seeds at offset 0, the others as early as possible.
//!
//! Components are taken in the order of their first statement. A component of one
//! statement without self-dependence that is linked by dependences to statements
//! already scheduled is scheduled by transfer (step 5) instead of nomination, which
//! keeps acyclic chains alignable by constant offsets. Other components are
//! scheduled independently and then aligned; when no constant offsets align them the
//! result is an error (Pugh's method gives no more guidance there).
//!
//! **Scaled time.** Offsets are rational; time is kept as integers scaled by `scale`
//! (the paper's footnote 4). A system of strict difference constraints with integer
//! bounds over `m` offsets that has a rational solution has one in `(1/m)ℤ`, so the
//! scale is the least common multiple of the SCC sizes (2 for the paper's examples,
//! giving its halves). Every schedule returned is re-checked exactly against every
//! dependence ([`check`]), so the Farkas relaxation (rational multipliers) can only
//! make the method miss a schedule, never return a wrong one.

use crate::error::{Result, SchedError};
use crate::rel;
use polyalloc_formulation::farkas::{nonneg_on, FarkasOptions, ParamForm};
use polyalloc_formulation::{BasicSet, Map, Set};
use polyalloc_ilp::{Cmp, LexSolve, LinExpr, Model, SolveError, SolveOptions, Solver, VarId};
use polyalloc_program::deps::Dependence;
use polyalloc_program::Program;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// A statement as the scheduler sees it: the name and iteration domain of a statement
/// of the program ([`polyalloc_program::Statement`]), nothing else. Built only by
/// [`Problem::from_program`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StmtInfo {
    /// Name (the domain tuple name).
    pub name: String,
    /// Iteration domain.
    pub domain: Set,
}

impl StmtInfo {
    /// Dimension names.
    pub fn dims(&self) -> Vec<String> {
        self.domain.space().output.dims.clone()
    }
}

/// The scheduling problem: a view of one program of the one program model
/// ([`polyalloc_program::Program`]) for the scheduler's integer programs: its
/// parameters, context and statements (name and domain, in program order, so statement
/// indices are the program's), with the dependences to respect (computed from the
/// program by [`polyalloc_program::deps::analyze`], or a paper's table given over the
/// same statements). Built by [`Problem::from_program`]; the program itself (accesses,
/// original order) stays with the caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Parameter names (symbolic constants), the program's.
    pub params: Vec<String>,
    /// Constraints on the parameters, the program's context.
    pub context: BasicSet,
    /// The program's statements (name and domain).
    pub statements: Vec<StmtInfo>,
    /// The dependences (relations already intersected with both domains).
    pub deps: Vec<Dependence>,
}

impl Problem {
    /// The view of `program` with dependences `deps` (their `source`/`target` are
    /// statement indices of `program`); each dependence relation is intersected with
    /// its statements' domains (Pugh's tables give ranges that are implicitly so).
    pub fn from_program(program: &Program, deps: Vec<Dependence>) -> Result<Problem> {
        let statements = program.statements.iter().map(|s| StmtInfo { name: s.name.clone(), domain: s.domain.clone() }).collect();
        Problem::new(program.params.clone(), program.context.clone(), statements, deps)
    }

    fn new(params: Vec<String>, context: BasicSet, statements: Vec<StmtInfo>, deps: Vec<Dependence>) -> Result<Problem> {
        let mut out = Vec::new();
        for d in deps {
            let (Some(p), Some(q)) = (statements.get(d.source), statements.get(d.target)) else {
                return Err(SchedError::Input(format!("dependence `{}` refers to an unknown statement", d.id)));
            };
            let r = rel::restrict_range(&rel::restrict_domain(&d.relation, &p.domain)?, &q.domain)?;
            out.push(Dependence { relation: r, ..d });
        }
        Ok(Problem { params, context, statements, deps: out })
    }
    /// Statement index by name.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.statements.iter().position(|s| s.name == name)
    }
}

/// One statement's schedule in scaled time: `T'(x) = coeffs·x + param_coeffs·P +
/// offset`, the schedule being `T = T' / scale`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StmtSchedule {
    /// Statement name.
    pub name: String,
    /// Scaled coefficients of the iterators.
    pub coeffs: Vec<i64>,
    /// Scaled coefficients of the parameters (problem order).
    pub param_coeffs: Vec<i64>,
    /// Scaled constant offset.
    pub offset: i64,
}

/// A schedule for (some of) the statements of a problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    /// Parameter names.
    pub params: Vec<String>,
    /// Time scale (`T = T' / scale`).
    pub scale: i64,
    /// Per statement, in problem order (statements not covered are absent).
    pub stmts: Vec<StmtSchedule>,
}

use polyalloc_formulation::int::gcd;

fn frac(n: i64, d: i64) -> (i64, i64) {
    let g = gcd(n, d).max(1);
    let (mut n, mut d) = (n / g, d / g);
    if d < 0 {
        n = -n;
        d = -d;
    }
    (n, d)
}

/// Formats `sum c_j/scale * name_j + offset/scale`, e.g. `3c - r - 1/2`.
pub fn format_scaled(coeffs: &[i64], names: &[String], offset: i64, scale: i64) -> String {
    let mut s = String::new();
    for (c, n) in coeffs.iter().zip(names) {
        if *c == 0 {
            continue;
        }
        let (num, den) = frac(*c, scale);
        let a = num.unsigned_abs();
        if s.is_empty() {
            if num < 0 {
                s.push('-');
            }
        } else {
            s.push_str(if num < 0 { " - " } else { " + " });
        }
        match (a, den) {
            (1, 1) => s.push_str(n),
            (_, 1) => s.push_str(&format!("{a}{n}")),
            _ => s.push_str(&format!("({a}/{den}){n}")),
        }
    }
    let (num, den) = frac(offset, scale);
    if num != 0 || s.is_empty() {
        let a = num.unsigned_abs();
        let t = if den == 1 { a.to_string() } else { format!("{a}/{den}") };
        if s.is_empty() {
            s = if num < 0 { format!("-{t}") } else { t };
        } else {
            s.push_str(if num < 0 { " - " } else { " + " });
            s.push_str(&t);
        }
    }
    s
}

/// `2i + 3` becomes `2*i + 3` (digits directly followed by a name get a `*`).
fn star_products(e: &str) -> String {
    let mut out = String::new();
    let mut prev_digit = false;
    for ch in e.chars() {
        if prev_digit && (ch.is_ascii_alphabetic() || ch == '_') {
            out.push('*');
        }
        prev_digit = ch.is_ascii_digit() && !out.ends_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        out.push(ch);
    }
    out
}

impl Schedule {
    /// The schedule of statement `name`.
    pub fn get(&self, name: &str) -> Option<&StmtSchedule> {
        self.stmts.iter().find(|s| s.name == name)
    }
    /// Scaled time of an instance.
    pub fn time(&self, name: &str, params: &[i64], iter: &[i64]) -> Result<i64> {
        let s = self.get(name).ok_or_else(|| SchedError::Input(format!("no schedule for `{name}`")))?;
        let mut t = s.offset as i128;
        for (c, v) in s.coeffs.iter().zip(iter).chain(s.param_coeffs.iter().zip(params)) {
            t += *c as i128 * *v as i128;
        }
        i64::try_from(t).map_err(|_| crate::error::ovf("evaluating a schedule"))
    }
    /// The schedule of one statement as the paper prints it (`i + k + 1/2`), over its
    /// dimension names `dims`.
    pub fn text(&self, name: &str, dims: &[String]) -> Option<String> {
        let s = self.get(name)?;
        let mut c = s.coeffs.clone();
        c.extend(&s.param_coeffs);
        let mut names = dims.to_vec();
        names.extend(self.params.iter().cloned());
        Some(format_scaled(&c, &names, s.offset, self.scale))
    }
    /// The scaled schedule in isl notation (`[k, n] -> { s1[i] -> [2i + 2k + 1]; ... }`),
    /// as stored in the bench-suite files.
    pub fn to_isl(&self, problem: &Problem) -> String {
        let mut pieces = Vec::new();
        for s in &self.stmts {
            let dims = problem.index(&s.name).map(|k| problem.statements[k].dims()).unwrap_or_default();
            let mut c = s.coeffs.clone();
            c.extend(&s.param_coeffs);
            let mut names = dims.clone();
            names.extend(self.params.iter().cloned());
            let e = format_scaled(&c, &names, s.offset, 1);
            // isl strings of the bench-suite write products explicitly (`2*i`).
            let e = star_products(&e);
            pieces.push(format!("{}[{}] -> [{}]", s.name, dims.join(", "), e));
        }
        format!("[{}] -> {{ {} }}", self.params.join(", "), pieces.join("; "))
    }
    /// Reads a scaled schedule in isl notation (one piece per statement, output
    /// `[expr]`), e.g. a bench-suite `schedule` with its `scale`.
    pub fn from_isl(text: &str, scale: i64, problem: &Problem) -> Result<Schedule> {
        let mut stmts = Vec::new();
        // A union over different statement tuples: one map per `;`-separated piece.
        let inner = text
            .split_once('{')
            .and_then(|(_, r)| r.rsplit_once('}').map(|(a, _)| a))
            .ok_or_else(|| SchedError::Input(format!("schedule `{text}`: expected `{{ ... }}`")))?;
        let prefix = text.split_once('{').map(|(a, _)| a).unwrap_or("");
        for part in inner.split(';') {
            let one = Map::parse(&format!("{prefix}{{ {part} }}"))?;
            let osp = one.space();
            let name = osp
                .input
                .as_ref()
                .and_then(|t| t.name.clone())
                .ok_or_else(|| SchedError::Input(format!("schedule piece `{part}` has no statement name")))?;
            let [piece] = one.pieces() else {
                return Err(SchedError::Input(format!("schedule piece `{part}` must be one affine function")));
            };
            if osp.n_out() != 1 || piece.n_local() > 0 {
                return Err(SchedError::Input(format!("schedule piece `{part}` must map to a 1-D time `[expr]`")));
            }
            let np = osp.n_param();
            let ni = osp.n_in();
            let tcol = 1 + np + ni;
            let row = piece
                .equalities()
                .iter()
                .find(|r| r[tcol].abs() == 1)
                .ok_or_else(|| SchedError::Input(format!("schedule piece `{part}`: time is not an affine function")))?;
            let sgn = -row[tcol];
            let mut param_coeffs = vec![0; problem.params.len()];
            for (i, p) in osp.params.iter().enumerate() {
                let j =
                    problem.params.iter().position(|x| x == p).ok_or_else(|| SchedError::Input(format!("schedule uses unknown parameter `{p}`")))?;
                param_coeffs[j] = sgn * row[1 + i];
            }
            let coeffs = (0..ni).map(|j| sgn * row[1 + np + j]).collect();
            stmts.push(StmtSchedule { name, coeffs, param_coeffs, offset: sgn * row[0] });
        }
        Ok(Schedule { params: problem.params.clone(), scale, stmts })
    }
    /// True when both give the same rational schedule to every statement of `other`.
    pub fn same_as(&self, other: &Schedule) -> bool {
        other.stmts.iter().all(|o| {
            self.get(&o.name).is_some_and(|s| {
                let lhs: Vec<i128> = s.coeffs.iter().chain(&s.param_coeffs).chain([&s.offset]).map(|&v| v as i128 * other.scale as i128).collect();
                let rhs: Vec<i128> = o.coeffs.iter().chain(&o.param_coeffs).chain([&o.offset]).map(|&v| v as i128 * self.scale as i128).collect();
                lhs == rhs
            })
        })
    }
}

/// Options of [`schedule`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchedOptions {
    /// Require different times for broadcast pairs.
    pub respect_broadcast: bool,
    /// Iterator names that get coefficient 0 (loops to keep parallel).
    pub prefer_parallel: Vec<String>,
    /// Largest 1-norm nominated.
    pub max_norm: i64,
    /// Bound on the absolute value of transferred coefficients.
    pub coeff_bound: i64,
    /// Depth of the approximate transitive closure.
    pub closure_depth: usize,
}

impl Default for SchedOptions {
    fn default() -> Self {
        SchedOptions { respect_broadcast: false, prefer_parallel: vec![], max_norm: 6, coeff_bound: 4, closure_depth: 3 }
    }
}

/// The outcome of one nominated candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trial {
    /// Statement.
    pub stmt: String,
    /// Coefficients of the candidate.
    pub coeffs: Vec<i64>,
    /// The candidate as printed (`i + j`).
    pub text: String,
    /// `None` when it succeeds; otherwise the violated distance and what it came from.
    pub violated: Option<Violated>,
}

/// A violated self-dependence distance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violated {
    /// The distance `d` with `T·d ≤ 0` (`= 0` for a broadcast).
    pub distance: Vec<i64>,
    /// A broadcast or reduction distance (`T·d ≠ 0` required).
    pub broadcast: bool,
    /// The distance set: `direct <id>`, `transitive`, `broadcast <id>`.
    pub source: String,
}

/// The result of [`schedule`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The schedule (all statements).
    pub schedule: Schedule,
    /// Every nominated candidate, in order.
    pub trials: Vec<Trial>,
    /// Strongly connected components (statement names).
    pub sccs: Vec<Vec<String>>,
    /// The seed of each SCC.
    pub seeds: Vec<String>,
    /// Whether every transitive closure used was exact.
    pub closures_exact: bool,
}

/// A distance set used for nomination.
struct DistSet {
    set: Set,
    broadcast: bool,
    source: String,
}

fn reach(n: usize, edges: &[(usize, usize)], skip: Option<usize>) -> Vec<Vec<bool>> {
    let mut r = vec![vec![false; n]; n];
    for &(a, b) in edges {
        if Some(a) != skip && Some(b) != skip {
            r[a][b] = true;
        }
    }
    for k in 0..n {
        for i in 0..n {
            if r[i][k] {
                let row_k = r[k].clone();
                for (x, y) in r[i].iter_mut().zip(row_k) {
                    *x |= y;
                }
            }
        }
    }
    r
}

/// Candidate coefficient vectors of 1-norm `norm` in nomination order; `fixed0[j]`
/// forces coefficient `j` to 0.
pub fn candidates(n: usize, norm: i64, fixed0: &[bool]) -> Vec<Vec<i64>> {
    fn rec(j: usize, n: usize, rem: i64, fixed0: &[bool], cur: &mut Vec<i64>, out: &mut Vec<Vec<i64>>) {
        if j == n {
            if rem == 0 {
                out.push(cur.clone());
            }
            return;
        }
        let mut vals = Vec::new();
        if !fixed0.get(j).copied().unwrap_or(false) {
            for m in (1..=rem).rev() {
                vals.push(m);
                vals.push(-m);
            }
        }
        vals.push(0);
        for v in vals {
            cur.push(v);
            rec(j + 1, n, rem - v.abs(), fixed0, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    rec(0, n, norm, fixed0, &mut Vec::new(), &mut out);
    out
}

fn dot(a: &[i64], b: &[i64]) -> i128 {
    a.iter().zip(b).map(|(x, y)| *x as i128 * *y as i128).sum()
}

/// The violated distance of minimum 1-norm (then lexicographically smallest) of
/// `dd ∩ { T·d ≤ 0 }` (or `= 0` for a broadcast set), or `None` when it is empty.
fn min_violation(dd: &Set, coeffs: &[i64], broadcast: bool, ctx: &BasicSet, solver: &dyn Solver) -> Result<Option<Vec<i64>>> {
    let mut best: Option<(i128, Vec<i64>)> = None;
    let dd = dd.intersect_params(ctx)?;
    for piece in dd.pieces() {
        let mut b = piece.clone();
        let np = b.space().n_param();
        let mut r = vec![0; b.n_cols()];
        for (j, &c) in coeffs.iter().enumerate() {
            r[1 + np + j] = -c;
        }
        if broadcast {
            b.add_eq_row(r)?;
        } else {
            b.add_ineq_row(r)?;
        }
        b.simplify()?;
        if b.is_marked_empty() || Set::from_basic(b.clone()).is_empty(solver)? {
            continue;
        }
        let mut m = Model::new("violated-distance");
        let v = polyalloc_formulation::ilp::add_basic_set(&mut m, &b, "", None)?;
        let mut norm = LinExpr::new();
        for (j, &d) in v.dims.iter().enumerate() {
            let u = m.add_integer(format!("abs{j}"), Some(0), None);
            bound_abs(&mut m, &format!("abs{j}"), u, d);
            norm.add_term(u, 1);
        }
        let mut objs = vec![norm];
        objs.extend(v.dims.iter().map(|&d| LinExpr::term(d, 1)));
        match solver.lex_minimize(&m, &objs, &SolveOptions::default()) {
            Ok(ls) => {
                let d: Vec<i64> = v.dims.iter().map(|&x| ls.solution.int_value(x)).collect();
                let key = ls.optima[0];
                if best.as_ref().is_none_or(|(k, bd)| (key, &d) < (*k, bd)) {
                    best = Some((key, d));
                }
            }
            Err(SolveError::Infeasible) | Err(SolveError::InfeasibleOrUnbounded) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(best.map(|(_, d)| d))
}

/// A time form in scaled time with ILP-variable coefficients.
#[derive(Clone, Debug)]
struct TForm {
    dims: Vec<LinExpr>,
    params: Vec<LinExpr>,
    offset: LinExpr,
}

impl TForm {
    fn known(s: &StmtSchedule, offset: LinExpr) -> TForm {
        TForm {
            dims: s.coeffs.iter().map(|&c| LinExpr::constant(c)).collect(),
            params: s.param_coeffs.iter().map(|&c| LinExpr::constant(c)).collect(),
            offset,
        }
    }
}

fn sub(a: &LinExpr, b: &LinExpr) -> Result<LinExpr> {
    a.checked_add_scaled(b, -1).ok_or_else(|| crate::error::ovf("building a schedule constraint"))
}

/// Emits `T_v(y) - T_u(x) - 1 >= 0` on every piece of `rel` (parameters aligned to
/// `params`, intersected with the context) through Farkas' lemma.
fn emit_precedes(m: &mut Model, rel: &Map, params: &[String], ctx: &BasicSet, tu: &TForm, tv: &TForm, name: &str) -> Result<()> {
    let r = rel.intersect_params(ctx)?;
    for (k, piece) in r.pieces().iter().enumerate() {
        let piece = piece.align_params(params)?;
        let sp = piece.space().clone();
        if sp.n_param() != params.len() {
            return Err(SchedError::Space(format!("dependence `{name}` has parameters {:?}", sp.params)));
        }
        let (np, ni, no) = (sp.n_param(), sp.n_in(), sp.n_out());
        if tu.dims.len() != ni || tv.dims.len() != no {
            return Err(SchedError::Space(format!("dependence `{name}` does not fit its statements")));
        }
        let mut form = ParamForm::zero(&sp);
        for i in 0..np {
            form.coeffs[i] = sub(&tv.params[i], &tu.params[i])?;
        }
        for j in 0..ni {
            form.coeffs[np + j] = sub(&LinExpr::new(), &tu.dims[j])?;
        }
        for j in 0..no {
            form.coeffs[np + ni + j] = tv.dims[j].clone();
        }
        let mut c = sub(&tv.offset, &tu.offset)?;
        c.checked_add_constant(-1).ok_or_else(|| crate::error::ovf("building a schedule constraint"))?;
        form.constant = c;
        let opts = FarkasOptions { name: format!("{name}_{k}"), ..FarkasOptions::default() };
        nonneg_on(m, &piece, &form, &opts)?;
    }
    Ok(())
}

/// Checks a schedule exactly against every dependence between statements it covers:
/// returns the ids of the violated dependences (empty: feasible).
pub fn check(problem: &Problem, sched: &Schedule, respect_broadcast: bool, solver: &dyn Solver) -> Result<Vec<String>> {
    let mut bad = Vec::new();
    for d in &problem.deps {
        if d.kind.optional() && !respect_broadcast {
            continue;
        }
        let (pn, qn) = (&problem.statements[d.source].name, &problem.statements[d.target].name);
        let (Some(tp), Some(tq)) = (sched.get(pn), sched.get(qn)) else {
            continue;
        };
        let r = d.relation.intersect_params(&problem.context)?;
        let mut violated = false;
        for piece in r.pieces() {
            let mut b = piece.align_params(&problem.params)?;
            let sp = b.space().clone();
            let (np, ni) = (sp.n_param(), sp.n_in());
            // row = T_q(y) - T_p(x)
            let mut row = vec![0; b.n_cols()];
            row[0] = tq.offset - tp.offset;
            for i in 0..np {
                row[1 + i] = tq.param_coeffs[i] - tp.param_coeffs[i];
            }
            for (j, c) in tp.coeffs.iter().enumerate() {
                row[1 + np + j] -= c;
            }
            for (j, c) in tq.coeffs.iter().enumerate() {
                row[1 + np + ni + j] += c;
            }
            if d.kind.orders() {
                b.add_ineq_row(row.iter().map(|v| -v).collect())?; // T_q - T_p <= 0
            } else {
                b.add_eq_row(row)?;
            }
            b.simplify()?;
            if !b.is_marked_empty() && !Set::from_basic(b).is_empty(solver)? {
                violated = true;
                break;
            }
        }
        if violated {
            bad.push(d.id.clone());
        }
    }
    Ok(bad)
}

/// Sec. 4 end to end: SCCs, seeds, nomination, transfer, alignment, exact check.
pub fn schedule(problem: &Problem, opts: &SchedOptions, solver: &dyn Solver) -> Result<Outcome> {
    let n = problem.statements.len();
    let ctx = &problem.context;
    let ordering: Vec<&Dependence> = problem.deps.iter().filter(|d| d.kind.orders()).collect();
    let mut edges = Vec::new();
    for d in &ordering {
        if !rel::is_empty(&d.relation, solver, Some(ctx))? {
            edges.push((d.source, d.target));
        }
    }
    let r = reach(n, &edges, None);
    // SCCs in order of their first statement.
    let mut comp = vec![usize::MAX; n];
    let mut sccs: Vec<Vec<usize>> = Vec::new();
    for v in 0..n {
        if comp[v] != usize::MAX {
            continue;
        }
        let members: Vec<usize> = (0..n).filter(|&w| w == v || (r[v][w] && r[w][v])).collect();
        for &w in &members {
            comp[w] = sccs.len();
        }
        sccs.push(members);
    }
    let scale = sccs.iter().fold(1i64, |acc, c| {
        let m = c.len() as i64;
        acc / gcd(acc, m).max(1) * m
    });
    let mut trials = Vec::new();
    let mut seeds = Vec::new();
    let mut closures_exact = true;
    let mut coeffs: BTreeMap<usize, (Vec<i64>, Vec<i64>)> = BTreeMap::new(); // scaled (dims, params)
    let np = problem.params.len();
    for members in &sccs {
        // Seed: a feedback vertex, deepest, last.
        let in_scc_edges: Vec<(usize, usize)> = edges.iter().copied().filter(|(a, b)| members.contains(a) && members.contains(b)).collect();
        let feedback: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&v| {
                let rr = reach(n, &in_scc_edges, Some(v));
                members.iter().all(|&w| w == v || !rr[w][w])
            })
            .collect();
        let pool = if feedback.is_empty() { members.clone() } else { feedback };
        let depth = |v: usize| problem.statements[v].dims().len();
        let maxd = pool.iter().map(|&v| depth(v)).max().unwrap_or(0);
        let seed = pool.iter().copied().rfind(|&v| depth(v) == maxd).unwrap_or(members[0]);
        // A lone statement without self-dependence that depends on (or is depended on
        // by) statements already scheduled gets its schedule by transfer from them, so
        // that the components stay aligned ("we may wish to schedule larger sections of
        // the graph at a time", footnote 3).
        let lone = members.len() == 1 && !problem.deps.iter().any(|d| d.source == seed && d.target == seed);
        let linked = problem.deps.iter().any(|d| {
            d.kind.orders() && ((d.source == seed && coeffs.contains_key(&d.target)) || (d.target == seed && coeffs.contains_key(&d.source)))
        });
        if lone && linked {
            let c = transfer(problem, seed, &coeffs, usize::MAX, scale, opts, solver)?;
            coeffs.insert(seed, c);
            continue;
        }
        seeds.push(problem.statements[seed].name.clone());
        // Distance sets of the seed.
        let mut sets: Vec<DistSet> = Vec::new();
        for d in problem.deps.iter().filter(|d| d.source == seed && d.target == seed && d.kind.orders()) {
            for piece in d.relation.pieces() {
                sets.push(DistSet { set: rel::distances(&Set::from_basic(piece.clone()))?, broadcast: false, source: format!("direct {}", d.id) });
            }
        }
        let (trans, exact) = transitive_self(problem, members, seed, opts, solver)?;
        closures_exact &= exact;
        for piece in trans.pieces() {
            sets.push(DistSet { set: rel::distances(&Set::from_basic(piece.clone()))?, broadcast: false, source: "transitive".into() });
        }
        for d in problem
            .deps
            .iter()
            .filter(|d| d.source == seed && d.target == seed && !d.kind.orders())
            .filter(|d| opts.respect_broadcast || !d.kind.optional())
        {
            sets.push(DistSet { set: rel::distances(&d.relation)?, broadcast: true, source: format!("{} {}", d.kind.file_kind(), d.id) });
        }
        let dims = problem.statements[seed].dims();
        let fixed0: Vec<bool> = dims.iter().map(|d| opts.prefer_parallel.contains(d)).collect();
        let mut learned: Vec<(Vec<i64>, bool)> = Vec::new();
        let mut found = None;
        'norms: for norm in 1..=opts.max_norm {
            for cand in candidates(dims.len(), norm, &fixed0) {
                if learned.iter().any(|(d, b)| if *b { dot(&cand, d) == 0 } else { dot(&cand, d) <= 0 }) {
                    continue;
                }
                let text = format_scaled(&cand, &dims, 0, 1);
                let mut violated = None;
                for s in &sets {
                    if let Some(d) = min_violation(&s.set, &cand, s.broadcast, ctx, solver)? {
                        violated = Some(Violated { distance: d, broadcast: s.broadcast, source: s.source.clone() });
                        break;
                    }
                }
                let ok = violated.is_none();
                if let Some(v) = &violated {
                    learned.push((v.distance.clone(), v.broadcast));
                }
                trials.push(Trial { stmt: problem.statements[seed].name.clone(), coeffs: cand.clone(), text, violated });
                if ok {
                    found = Some(cand);
                    break 'norms;
                }
            }
        }
        let Some(seed_coeffs) = found else {
            return Err(SchedError::NoSchedule(format!("no schedule of 1-norm at most {} for `{}`", opts.max_norm, problem.statements[seed].name)));
        };
        coeffs.insert(seed, (seed_coeffs.iter().map(|c| c * scale).collect(), vec![0; np]));
        // Transfer, breadth-first from the seed.
        let mut order = Vec::new();
        let mut queue = VecDeque::from([seed]);
        let mut seen = vec![false; n];
        seen[seed] = true;
        while let Some(v) = queue.pop_front() {
            order.push(v);
            for &(a, b) in &in_scc_edges {
                for (x, y) in [(a, b), (b, a)] {
                    if x == v && !seen[y] {
                        seen[y] = true;
                        queue.push_back(y);
                    }
                }
            }
        }
        for &q in order.iter().skip(1) {
            let c = transfer(problem, q, &coeffs, seed, scale, opts, solver)?;
            coeffs.insert(q, c);
        }
    }
    let seed_idx: Vec<usize> = seeds.iter().filter_map(|s| problem.index(s)).collect();
    let offsets = match align(problem, &coeffs, &seed_idx, scale, solver)? {
        Some(o) => o,
        None => align(problem, &coeffs, &seed_idx[..1.min(seed_idx.len())], scale, solver)?
            .ok_or_else(|| SchedError::NoSchedule("the schedules cannot be aligned by constant offsets".into()))?,
    };
    let stmts = (0..n)
        .map(|k| {
            let (c, p) = coeffs.get(&k).cloned().unwrap_or_default();
            StmtSchedule { name: problem.statements[k].name.clone(), coeffs: c, param_coeffs: p, offset: offsets[k] }
        })
        .collect();
    let schedule = Schedule { params: problem.params.clone(), scale, stmts };
    let bad = check(problem, &schedule, opts.respect_broadcast, solver)?;
    if !bad.is_empty() {
        return Err(SchedError::NoSchedule(format!(
            "the aligned schedule violates dependence(s) {} (possible with the approximations of the transfer step)",
            bad.join(", ")
        )));
    }
    Ok(Outcome {
        schedule,
        trials,
        sccs: sccs.iter().map(|c| c.iter().map(|&k| problem.statements[k].name.clone()).collect()).collect(),
        seeds,
        closures_exact,
    })
}

/// The transitive self-dependences of statement `stmt` through the other statements of
/// its strongly connected component (Fig. 2), and whether every closure used was exact.
pub fn transitive_self_dependences(problem: &Problem, stmt: usize, opts: &SchedOptions, solver: &dyn Solver) -> Result<(Map, bool)> {
    let n = problem.statements.len();
    if stmt >= n {
        return Err(SchedError::Input(format!("statement #{stmt} of {n}")));
    }
    let mut edges = Vec::new();
    for d in problem.deps.iter().filter(|d| d.kind.orders()) {
        if !rel::is_empty(&d.relation, solver, Some(&problem.context))? {
            edges.push((d.source, d.target));
        }
    }
    let r = reach(n, &edges, None);
    let members: Vec<usize> = (0..n).filter(|&w| w == stmt || (r[stmt][w] && r[w][stmt])).collect();
    transitive_self(problem, &members, stmt, opts, solver)
}

/// Transitive self-dependences of `seed` through the other statements of its SCC
/// (Fig. 2), and whether every closure used was exact.
fn transitive_self(problem: &Problem, members: &[usize], seed: usize, opts: &SchedOptions, solver: &dyn Solver) -> Result<(Map, bool)> {
    let ctx = Some(&problem.context);
    let mut edges: BTreeMap<(usize, usize), Map> = BTreeMap::new();
    for d in problem.deps.iter().filter(|d| d.kind.orders()) {
        if members.contains(&d.source) && members.contains(&d.target) {
            let e = edges.entry((d.source, d.target));
            match e {
                std::collections::btree_map::Entry::Occupied(mut o) => {
                    let u = o.get().union(&d.relation)?;
                    o.insert(u);
                }
                std::collections::btree_map::Entry::Vacant(v) => {
                    v.insert(d.relation.clone());
                }
            }
        }
    }
    let seed_sp = problem.statements[seed].domain.space().output.clone();
    let pp: Vec<&str> = problem.params.iter().map(String::as_str).collect();
    let mut t2 = seed_sp.clone();
    t2.dims = seed_sp.dims.iter().map(|d| format!("{d}2")).collect();
    let mut trans = Set::empty(polyalloc_formulation::Space::map(&pp, seed_sp, t2));
    let mut exact = true;
    for &x in members.iter().filter(|&&x| x != seed) {
        let selfloop = edges.remove(&(x, x));
        let plus = match &selfloop {
            Some(f) => {
                let c = rel::transitive_closure(f, solver, ctx, opts.closure_depth)?;
                exact &= c.exact;
                Some(c.plus)
            }
            None => None,
        };
        let ins: Vec<(usize, Map)> = edges.iter().filter(|((a, b), _)| *b == x && *a != x).map(|((a, _), m)| (*a, m.clone())).collect();
        let outs: Vec<(usize, Map)> = edges.iter().filter(|((a, b), _)| *a == x && *b != x).map(|((_, b), m)| (*b, m.clone())).collect();
        edges.retain(|(a, b), _| *a != x && *b != x);
        for (u, a) in &ins {
            for (v, b) in &outs {
                let mut path = rel::then(a, b)?;
                if let Some(p) = &plus {
                    path = path.union(&rel::then(&rel::then(a, p)?, b)?)?;
                }
                let path = rel::drop_empty(&path, solver, ctx)?;
                if path.has_no_pieces() {
                    continue;
                }
                if *u == seed && *v == seed {
                    for piece in path.pieces() {
                        trans.add_piece(piece.clone())?;
                    }
                } else {
                    let e = match edges.remove(&(*u, *v)) {
                        Some(old) => old.union(&path)?,
                        None => path,
                    };
                    edges.insert((*u, *v), e);
                }
            }
        }
    }
    Ok((trans, exact))
}

/// The time form of a scheduled statement (offset variable `off`, or 0 for a seed).
fn known_form(coeffs: &BTreeMap<usize, (Vec<i64>, Vec<i64>)>, k: usize, name: &str, off: LinExpr) -> Option<TForm> {
    coeffs.get(&k).map(|(c, p)| TForm::known(&StmtSchedule { name: name.into(), coeffs: c.clone(), param_coeffs: p.clone(), offset: 0 }, off))
}

const OFFSET_BOUND: i64 = 1 << 12;

/// Transfer (Sec. 4) to statement `q`: coefficients satisfying every dependence with
/// the scheduled statements and `q`'s self-dependences, for some offsets.
fn transfer(
    problem: &Problem,
    q: usize,
    coeffs: &BTreeMap<usize, (Vec<i64>, Vec<i64>)>,
    seed: usize,
    scale: i64,
    opts: &SchedOptions,
    solver: &dyn Solver,
) -> Result<(Vec<i64>, Vec<i64>)> {
    let mut m = Model::new("transfer");
    let dims = problem.statements[q].dims();
    let np = problem.params.len();
    let b = opts.coeff_bound;
    let mut a_vars: Vec<VarId> = Vec::new();
    for d in &dims {
        let fixed = opts.prefer_parallel.contains(d);
        a_vars.push(m.add_integer(format!("a_{d}"), Some(if fixed { 0 } else { -b }), Some(if fixed { 0 } else { b })));
    }
    let g_vars: Vec<VarId> = problem.params.iter().map(|p| m.add_integer(format!("g_{p}"), Some(-b), Some(b))).collect();
    let mut offs: BTreeMap<usize, LinExpr> = BTreeMap::new();
    for &k in coeffs.keys().chain([&q]) {
        let e = if k == seed { LinExpr::new() } else { LinExpr::term(m.add_integer(format!("off_{k}"), Some(-OFFSET_BOUND), Some(OFFSET_BOUND)), 1) };
        offs.insert(k, e);
    }
    let scaled = |v: VarId| LinExpr::term(v, scale);
    let tq = TForm {
        dims: a_vars.iter().map(|&v| scaled(v)).collect(),
        params: g_vars.iter().map(|&v| scaled(v)).collect(),
        offset: offs.get(&q).cloned().unwrap_or_default(),
    };
    let form_of = |k: usize| -> Option<TForm> {
        if k == q {
            Some(tq.clone())
        } else {
            known_form(coeffs, k, &problem.statements[k].name, offs.get(&k).cloned().unwrap_or_default())
        }
    };
    let mut any = false;
    for (i, d) in problem.deps.iter().enumerate().filter(|(_, d)| d.kind.orders()) {
        if d.source != q && d.target != q {
            continue;
        }
        let (Some(tu), Some(tv)) = (form_of(d.source), form_of(d.target)) else {
            continue;
        };
        emit_precedes(&mut m, &d.relation, &problem.params, &problem.context, &tu, &tv, &format!("dep{i}"))?;
        any = true;
    }
    if !any {
        return Err(SchedError::NoSchedule(format!("`{}` has no dependence with its component", problem.statements[q].name)));
    }
    // Objectives: max |coeff|, then the 1-norm, then the coefficients (deterministic).
    let mx = m.add_integer("max_abs", Some(0), Some(b));
    let mut norm = LinExpr::new();
    for (k, &v) in a_vars.iter().chain(&g_vars).enumerate() {
        let u = m.add_integer(format!("abs_{k}"), Some(0), Some(b));
        bound_abs(&mut m, &format!("abs_{k}_"), u, v);
        let mut e = LinExpr::term(mx, 1);
        e.add_term(u, -1);
        m.add_constraint(format!("max_{k}"), e, Cmp::Ge, 0);
        norm.add_term(u, 1);
    }
    let mut objs = vec![LinExpr::term(mx, 1), norm];
    objs.extend(a_vars.iter().chain(&g_vars).map(|&v| LinExpr::term(v, -1)));
    match solver.lex_minimize(&m, &objs, &SolveOptions::default()) {
        Ok(ls) => Ok((
            a_vars.iter().map(|&v| ls.solution.int_value(v) * scale).collect(),
            g_vars.iter().map(|&v| ls.solution.int_value(v) * scale).collect::<Vec<_>>().into_iter().take(np).collect(),
        )),
        Err(SolveError::Infeasible) | Err(SolveError::InfeasibleOrUnbounded) => Err(SchedError::NoSchedule(format!(
            "no schedule for `{}` compatible with its component (coefficients at most {b})",
            problem.statements[q].name
        ))),
        Err(e) => Err(e.into()),
    }
}

/// Alignment: integer offsets (scaled time) satisfying every ordering dependence,
/// `fixed` statements at 0, the others lexicographically smallest (as early as
/// possible). `None` when infeasible.
fn align(
    problem: &Problem,
    coeffs: &BTreeMap<usize, (Vec<i64>, Vec<i64>)>,
    fixed: &[usize],
    _scale: i64,
    solver: &dyn Solver,
) -> Result<Option<Vec<i64>>> {
    let n = problem.statements.len();
    let mut m = Model::new("align");
    let vars: Vec<Option<VarId>> = (0..n)
        .map(|k| if fixed.contains(&k) { None } else { Some(m.add_integer(format!("off_{k}"), Some(-OFFSET_BOUND), Some(OFFSET_BOUND))) })
        .collect();
    let off = |k: usize| vars[k].map_or(LinExpr::new(), |v| LinExpr::term(v, 1));
    for (i, d) in problem.deps.iter().enumerate().filter(|(_, d)| d.kind.orders()) {
        let (Some(tu), Some(tv)) = (
            known_form(coeffs, d.source, &problem.statements[d.source].name, off(d.source)),
            known_form(coeffs, d.target, &problem.statements[d.target].name, off(d.target)),
        ) else {
            continue;
        };
        emit_precedes(&mut m, &d.relation, &problem.params, &problem.context, &tu, &tv, &format!("dep{i}"))?;
    }
    let objs: Vec<LinExpr> = vars.iter().flatten().map(|&v| LinExpr::term(v, 1)).collect();
    if objs.is_empty() {
        // Only fixed offsets: feasible iff the check passes later.
        return Ok(Some(vec![0; n]));
    }
    match solver.lex_minimize(&m, &objs, &SolveOptions::default()) {
        Ok(ls) => Ok(Some((0..n).map(|k| vars[k].map_or(0, |v| ls.solution.int_value(v))).collect())),
        Err(SolveError::Infeasible) | Err(SolveError::InfeasibleOrUnbounded) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// `u >= |v|` for two distinct variables: `u - v >= 0` (row `{name}p`) and `u + v >= 0`
/// (row `{name}n`). Unit coefficients on distinct variables cannot overflow.
fn bound_abs(m: &mut Model, name: &str, u: VarId, v: VarId) {
    for (suffix, sign) in [("p", -1), ("n", 1)] {
        let mut e = LinExpr::term(u, 1);
        e.add_term(v, sign);
        m.add_constraint(format!("{name}{suffix}"), e, Cmp::Ge, 0);
    }
}
