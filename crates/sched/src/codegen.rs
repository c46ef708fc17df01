//! Code rearrangement (Pugh 1991, Sec. 5): from a schedule to loops that "simply move
//! through time".
//!
//! * **Rounding.** Fractional times are rounded to the unit time loop `t`: `Ceil`
//!   executes in iteration `t` everything scheduled in `(t - 1, t]` (Example 1, the
//!   Givens QR example), `Floor` everything in `[t, t + 1)` (Example 2). Within one
//!   iteration the statements run in the order of their fractional times, which is
//!   how fractional offsets produce statement reordering.
//! * **Unimodular extension.** For `T_p[x] = a·x + ...` with `gcd(a) = 1`, Pugh extends
//!   `a` to a unimodular matrix. We use the extension by unit rows of every iterator
//!   but one, `x_e`, whose coefficient must be `±1` (then the determinant is `±1`):
//!   the loop variables are the other iterators and `x_e = ±(t - ...)`. This covers
//!   the extensions printed in the paper (Appendix 4: rows `(1,0,0), (0,1,0)` for
//!   `2k + i + j`; Appendix 5: "looping on c for s1 and on c and k for s2"). The
//!   eliminated iterator can be chosen per statement (the example files record the
//!   paper's choice); by default it is the last one with a unit coefficient. A gcd
//!   other than 1 (a statement executed every `g` time steps) is not supported.
//! * **Bounds.** The domain in the new coordinates is projected by Fourier–Motzkin
//!   ([`polyalloc_formulation::BasicSet::fm_project_out`]) level by level.
//! * **Time segments.** Each statement's time range `[lo, hi]` is computed the same
//!   way; the breakpoints `lo` and `hi + 1` are sorted under the parameter context
//!   (with the solver), and each segment gets the statements active in all of it. In
//!   a segment, `min`/`max` bounds implied by the segment, the context and the other
//!   bounds are dropped ("we can resolve the min and max computations statically").
//!   A segment of one time step is printed with `t` substituted, as in the paper's
//!   Example 2 code, unless it can be merged into its neighbour: when every statement
//!   of the neighbour that does not run in that step has a domain whose every
//!   constraint involves a loop variable, its loops are empty there by their own
//!   bounds (Appendix 5 prints one time loop `t := 4 - n to 2n - 1` although `s1` ends
//!   at `2n - 2`).
//!
//! [`Code::trace`] interprets the loops for concrete parameters into an
//! [`polyalloc_program::exec::Trace`] (each `forall` block is one parallel step), so the executor
//! can confirm the printed code itself, not only the schedule.

use crate::error::{Result, SchedError};
use crate::schedule::{Problem, Schedule};
use polyalloc_formulation::{BasicSet, Set, Space, Tuple};
use polyalloc_ilp::Solver;
use polyalloc_program::exec::{Instance, Trace};
use std::collections::BTreeMap;

/// How fractional times are rounded to the unit time loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// Iteration `t` runs times in `(t - 1, t]`.
    Ceil,
    /// Iteration `t` runs times in `[t, t + 1)`.
    Floor,
}

/// An affine row over `[1, params..., t, loop vars...]`.
type Row = Vec<i64>;

/// One loop: `var := max(ceil(lower_i / c_i)) to min(floor(upper_i / c_i))`, stored as
/// `(row, c)`: `var >= ceil(row / c)` for lower bounds, `var <= floor(row / c)` for upper.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// Loop variable (an original iterator name).
    pub var: String,
    /// Lower bounds.
    pub lower: Vec<(Row, i64)>,
    /// Upper bounds.
    pub upper: Vec<(Row, i64)>,
}

/// The code of one statement in one time segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Statement index.
    pub stmt: usize,
    /// Statement name.
    pub name: String,
    /// Nested `forall` loops (outermost first).
    pub loops: Vec<Loop>,
    /// The original iterators as rows over `[1, params, t, loop vars]`.
    pub index: Vec<Row>,
}

/// A time segment `t := lo to hi` (rows over `[1, params]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// First time step.
    pub lo: Row,
    /// Last time step.
    pub hi: Row,
    /// The blocks, in execution order within a time step.
    pub blocks: Vec<Block>,
}

/// Rearranged code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    /// Parameter names.
    pub params: Vec<String>,
    /// Name of the time variable.
    pub time_var: String,
    /// The segments in order.
    pub segments: Vec<Segment>,
    /// Per statement: the unimodular matrix used (first row the schedule's coefficients).
    pub unimodular: BTreeMap<String, Vec<Vec<i64>>>,
}

fn fdiv(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

fn cdiv(a: i64, b: i64) -> i64 {
    -(-a).div_euclid(b)
}

fn eval(row: &[i64], vals: &[i64]) -> Result<i64> {
    let mut s = row[0] as i128;
    for (c, v) in row[1..].iter().zip(vals) {
        s += *c as i128 * *v as i128;
    }
    i64::try_from(s).map_err(|_| crate::error::ovf("evaluating a loop bound"))
}

/// Formats a row `c0 + sum c_j name_j` as `t - k - 1`, `2*k + 2`: the names after the
/// first `np` (time and loop variables) first, then the parameters, then the constant.
fn fmt_row(row: &[i64], names: &[String], np: usize) -> String {
    let n = names.len().min(row.len().saturating_sub(1));
    let order: Vec<usize> = (np.min(n)..n).chain(0..np.min(n)).collect();
    let coeffs: Vec<i64> = order.iter().map(|&j| row[1 + j]).collect();
    let ordered: Vec<String> = order.iter().map(|&j| names[j].clone()).collect();
    polyalloc_formulation::format_linear(&coeffs, &ordered, row.first().copied().unwrap_or(0), "*")
}

fn fmt_bound(row: &[i64], c: i64, names: &[String], np: usize, lower: bool) -> String {
    if c == 1 {
        return fmt_row(row, names, np);
    }
    if row[1..].iter().all(|v| v % c == 0) {
        // ceil((c*q + b)/c) = q + ceil(b/c), and the same for floor.
        let mut q: Row = row.iter().map(|v| v / c).collect();
        q[0] = if lower { cdiv(row[0], c) } else { fdiv(row[0], c) };
        return fmt_row(&q, names, np);
    }
    let e = fmt_row(row, names, np);
    let e = if e.contains(' ') { format!("({e})") } else { e };
    format!("{}({e}/{c})", if lower { "ceil" } else { "floor" })
}

fn fmt_bounds(bs: &[(Row, i64)], names: &[String], np: usize, lower: bool) -> String {
    let mut parts: Vec<String> = Vec::new();
    for (r, c) in bs {
        let p = fmt_bound(r, *c, names, np, lower);
        if !parts.contains(&p) {
            parts.push(p);
        }
    }
    match parts.len() {
        0 => {
            if lower {
                "-inf".into()
            } else {
                "+inf".into()
            }
        }
        1 => parts[0].clone(),
        _ => format!("{}({})", if lower { "max" } else { "min" }, parts.join(", ")),
    }
}

/// Substitutes `t := e(params)` in a row over `[1, params, t, vars]`.
fn subst_t(row: &[i64], np: usize, e: &[i64]) -> Row {
    let mut r = row.to_vec();
    let ct = r[1 + np];
    r[1 + np] = 0;
    for (k, v) in e.iter().enumerate() {
        r[k] += ct * v;
    }
    r
}

impl Code {
    /// The loops as text, in the style of the paper's generated code.
    pub fn text(&self) -> String {
        let np = self.params.len();
        let mut out = String::new();
        for seg in &self.segments {
            let single = seg.hi == seg.lo;
            let mut pnames = self.params.clone();
            pnames.push(self.time_var.clone());
            let base_indent = if single {
                0
            } else {
                out.push_str(&format!(
                    "for {} := {} to {} do\n",
                    self.time_var,
                    fmt_row(&seg.lo, &self.params, np),
                    fmt_row(&seg.hi, &self.params, np)
                ));
                1
            };
            for b in &seg.blocks {
                let mut names = pnames.clone();
                let mut indent = base_indent;
                let fix = |r: &Row| if single { subst_t(r, np, &seg.lo) } else { r.clone() };
                for l in &b.loops {
                    let lo: Vec<(Row, i64)> = l.lower.iter().map(|(r, c)| (fix(r), *c)).collect();
                    let hi: Vec<(Row, i64)> = l.upper.iter().map(|(r, c)| (fix(r), *c)).collect();
                    out.push_str(&format!(
                        "{}forall {} := {} to {} do\n",
                        "  ".repeat(indent),
                        l.var,
                        fmt_bounds(&lo, &names, np, true),
                        fmt_bounds(&hi, &names, np, false)
                    ));
                    names.push(l.var.clone());
                    indent += 1;
                }
                let idx: Vec<String> = b.index.iter().map(|r| fmt_row(&fix(r), &names, np)).collect();
                out.push_str(&format!("{}{}[{}]\n", "  ".repeat(indent), b.name, idx.join(", ")));
            }
        }
        out
    }

    /// The execution order of the loops for concrete parameters: each block of each
    /// time step is one parallel step.
    pub fn trace(&self, params: &[i64]) -> Result<Trace> {
        let mut steps = Vec::new();
        for seg in &self.segments {
            let lo = eval(&seg.lo, params)?;
            let hi = eval(&seg.hi, params)?;
            for t in lo..=hi {
                for b in &seg.blocks {
                    let mut vals = params.to_vec();
                    vals.push(t);
                    let mut group: Vec<Instance> = Vec::new();
                    enumerate(b, 0, &mut vals, &mut group)?;
                    if !group.is_empty() {
                        steps.push(group);
                    }
                }
            }
        }
        Ok(Trace { steps })
    }
}

fn enumerate(b: &Block, level: usize, vals: &mut Vec<i64>, out: &mut Vec<Instance>) -> Result<()> {
    if level == b.loops.len() {
        let it: Vec<i64> = b.index.iter().map(|r| eval(r, vals)).collect::<Result<_>>()?;
        out.push((b.stmt, it));
        return Ok(());
    }
    let l = &b.loops[level];
    let mut lo = i64::MIN;
    for (r, c) in &l.lower {
        lo = lo.max(cdiv(eval(r, vals)?, *c));
    }
    let mut hi = i64::MAX;
    for (r, c) in &l.upper {
        hi = hi.min(fdiv(eval(r, vals)?, *c));
    }
    if lo == i64::MIN || hi == i64::MAX {
        return Err(SchedError::Codegen(format!("loop `{}` of {} is unbounded", l.var, b.name)));
    }
    for v in lo..=hi {
        vals.push(v);
        enumerate(b, level + 1, vals, out)?;
        vals.pop();
    }
    Ok(())
}

/// Per-statement data in new coordinates.
struct Stmt {
    k: usize,
    name: String,
    key: i64,
    /// Domain over (params | t, vars).
    set: BasicSet,
    vars: Vec<String>,
    index: Vec<Row>,
    lo: Row,
    hi: Row,
}

fn params_space(params: &[String]) -> Space {
    let p: Vec<&str> = params.iter().map(String::as_str).collect();
    Space::set(&p, Tuple::anonymous(&[]))
}

/// True when `a(P) <= b(P)` for every parameter value of the context.
fn le(a: &[i64], b: &[i64], params: &[String], ctx: &BasicSet, solver: &dyn Solver) -> Result<bool> {
    let mut s = BasicSet::universe(params_space(params));
    // a - b >= 1 must be empty
    let row: Vec<i64> = a.iter().zip(b).enumerate().map(|(k, (x, y))| if k == 0 { x - y - 1 } else { x - y }).collect();
    s.add_ineq_row(row)?;
    let s = Set::from_basic(s).intersect_params(ctx)?;
    Ok(s.is_empty(solver)?)
}

/// The single dominant bound among `rows` (all with unit coefficient), under the context.
fn dominant(rows: &[Row], lower: bool, params: &[String], ctx: &BasicSet, solver: &dyn Solver, what: &str) -> Result<Row> {
    for r in rows {
        let mut all = true;
        for o in rows {
            let ok = if lower { le(o, r, params, ctx, solver)? } else { le(r, o, params, ctx, solver)? };
            if !ok {
                all = false;
                break;
            }
        }
        if all {
            return Ok(r.clone());
        }
    }
    Err(SchedError::Codegen(format!("{what}: no single {} bound of time under the context", if lower { "lower" } else { "upper" })))
}

/// The unimodular extension of a schedule row `a` (Sec. 5). Returns the loop variable
/// names, the matrix `M` (`d x d`) with `x = M (t', s)` where `t' = a.x` (or `x = M s`
/// when `a = 0`: `time_free`), and records the unimodular matrix `Q = M^-1`.
fn extension(
    name: &str,
    dims: &[String],
    a: &[i64],
    elim: Option<&String>,
    taken: &[String],
    unimodular: &mut BTreeMap<String, Vec<Vec<i64>>>,
) -> Result<(Vec<String>, Vec<Vec<i64>>, bool)> {
    let d = dims.len();
    if a.iter().all(|&c| c == 0) {
        let id: Vec<Vec<i64>> = (0..d).map(|j| (0..d).map(|k| i64::from(j == k)).collect()).collect();
        unimodular.insert(name.to_string(), id.clone());
        return Ok((dims.to_vec(), id, true));
    }
    let e = match elim {
        Some(n) => Some(
            dims.iter().position(|x| x == n).ok_or_else(|| SchedError::Input(format!("codegen.eliminate: `{n}` is not an iterator of `{name}`")))?,
        ),
        None => (0..d).rev().find(|&j| a[j].abs() == 1),
    };
    if let Some(e) = e {
        let ae = a[e];
        if ae.abs() != 1 {
            return Err(SchedError::Codegen(format!("`{name}`: the eliminated iterator `{}` needs a coefficient of +-1", dims[e])));
        }
        // Q = (a; unit rows of the other iterators); x_e = ae (t' - sum_{j != e} a_j s_j).
        let mut q = vec![a.to_vec()];
        let mut m = vec![vec![0; d]; d];
        m[e][0] = ae;
        for (col, j) in (1..).zip((0..d).filter(|&j| j != e)) {
            let mut r = vec![0; d];
            r[j] = 1;
            q.push(r);
            m[j][col] = 1;
            m[e][col] = -ae * a[j];
        }
        unimodular.insert(name.to_string(), q);
        let vars = dims.iter().enumerate().filter(|(j, _)| *j != e).map(|(_, n)| n.clone()).collect();
        return Ok((vars, m, false));
    }
    // No unit coefficient: the general completion (Hermite form), loop variables s1, s2...
    let q = polyalloc_formulation::int::lin::complete_unimodular(&[a.to_vec()], d)
        .map_err(|err| SchedError::Codegen(format!("`{name}`: no unimodular extension of {a:?} ({err}); a gcd > 1 is not supported")))?;
    if q.first().map(Vec::as_slice) != Some(a) {
        return Err(SchedError::Codegen(format!("`{name}`: unimodular completion does not start with {a:?}")));
    }
    let m = polyalloc_formulation::int::lin::inverse_unimodular(&q).map_err(|err| SchedError::Codegen(format!("`{name}`: {err}")))?;
    let mut vars = Vec::new();
    for k in 1..d {
        let mut v = format!("s{k}");
        while taken.contains(&v) {
            v.push('_');
        }
        vars.push(v);
    }
    unimodular.insert(name.to_string(), q);
    Ok((vars, m, false))
}

/// Generates the rearranged loops of `sched` (all statements of `problem`).
pub fn generate(problem: &Problem, sched: &Schedule, rounding: Rounding, eliminate: &BTreeMap<String, String>, solver: &dyn Solver) -> Result<Code> {
    let params = problem.params.clone();
    let np = params.len();
    let ctx = &problem.context;
    let s_ = sched.scale;
    let mut all_names: Vec<String> = problem.statements.iter().flat_map(|s| s.dims()).collect();
    all_names.extend(params.iter().cloned());
    let time_var = if all_names.iter().any(|n| n == "t") { "t_".to_string() } else { "t".to_string() };
    let mut stmts = Vec::new();
    let mut unimodular = BTreeMap::new();
    for (k, st) in problem.statements.iter().enumerate() {
        let ss = sched.get(&st.name).ok_or_else(|| SchedError::Codegen(format!("no schedule for `{}`", st.name)))?;
        let dims = st.dims();
        let d = dims.len();
        if ss.coeffs.iter().chain(&ss.param_coeffs).any(|c| c % s_ != 0) {
            return Err(SchedError::Codegen(format!("`{}`: only fractional offsets are supported, not fractional coefficients", st.name)));
        }
        let a: Vec<i64> = ss.coeffs.iter().map(|c| c / s_).collect();
        let g: Vec<i64> = ss.param_coeffs.iter().map(|c| c / s_).collect();
        let c0 = match rounding {
            Rounding::Ceil => cdiv(ss.offset, s_),
            Rounding::Floor => fdiv(ss.offset, s_),
        };
        let key = ss.offset - c0 * s_;
        // x = M (t - c0 - g.P, s): the columns of M are the coordinates in the new basis.
        let (vars, m, time_free) = extension(&st.name, &dims, &a, eliminate.get(&st.name), &all_names, &mut unimodular)?;
        let nv = vars.len();
        // New space: params | t, vars.
        let ncol = 1 + np + 1 + nv;
        let mut tprime = vec![0; ncol]; // t - c0 - g.P
        tprime[0] = -c0;
        for i in 0..np {
            tprime[1 + i] = -g[i];
        }
        tprime[1 + np] = 1;
        let mut index = Vec::new();
        for row in m.iter().take(d) {
            let mut r = vec![0i64; ncol];
            if !time_free {
                for (x, y) in r.iter_mut().zip(&tprime) {
                    *x += row[0] * y;
                }
            }
            let first = usize::from(!time_free);
            for (v, coef) in row.iter().skip(first).enumerate() {
                r[1 + np + 1 + v] += coef;
            }
            index.push(r);
        }
        let mut tdims: Vec<&str> = vec![time_var.as_str()];
        tdims.extend(vars.iter().map(String::as_str));
        let pp: Vec<&str> = params.iter().map(String::as_str).collect();
        let space = Space::set(&pp, Tuple::anonymous(&tdims));
        let [dom] = st.domain.pieces() else {
            return Err(SchedError::Codegen(format!("`{}`: the domain must be one convex piece", st.name)));
        };
        let dom = dom.align_params(&params)?;
        if dom.n_local() > 0 {
            return Err(SchedError::Codegen(format!("`{}`: the domain must not have existential variables", st.name)));
        }
        let mut set = BasicSet::universe(space.clone());
        let conv = |r: &Vec<i64>| -> Row {
            let mut o = vec![0i64; ncol];
            o[..1 + np].copy_from_slice(&r[..1 + np]);
            for j in 0..d {
                let c = r[1 + np + j];
                if c == 0 {
                    continue;
                }
                for (oc, ic) in o.iter_mut().zip(&index[j]) {
                    *oc += c * ic;
                }
            }
            o
        };
        for r in dom.equalities() {
            set.add_eq_row(conv(r))?;
        }
        for r in dom.inequalities() {
            set.add_ineq_row(conv(r))?;
        }
        if time_free {
            // The statement's time does not depend on its iterators: t = c0 + g.P.
            set.add_eq_row(tprime.clone())?;
        }
        let set = Set::from_basic(set).intersect_params(ctx)?;
        let [set] = set.pieces() else {
            return Err(SchedError::Codegen(format!("`{}`: empty domain", st.name)));
        };
        let set = set.clone();
        // Time range.
        let tset = set.fm_project_out(1, vars.len())?;
        let (mut los, mut his) = (Vec::new(), Vec::new());
        for r in tset.inequalities() {
            let ct = r[1 + np];
            if ct == 0 {
                continue;
            }
            if ct.abs() != 1 {
                return Err(SchedError::Codegen(format!("`{}`: time bound with coefficient {ct} (not supported)", st.name)));
            }
            // ct * t + rest >= 0
            let rest: Row = r[..1 + np].iter().map(|v| -v * ct).collect();
            if ct > 0 {
                los.push(rest);
            } else {
                his.push(r[..1 + np].to_vec());
            }
        }
        for r in tset.equalities() {
            let ct = r[1 + np];
            if ct.abs() == 1 {
                let rest: Row = r[..1 + np].iter().map(|v| -v * ct).collect();
                los.push(rest.clone());
                his.push(rest);
            }
        }
        let lo = dominant(&los, true, &params, ctx, solver, &st.name)?;
        let hi = dominant(&his, false, &params, ctx, solver, &st.name)?;
        stmts.push(Stmt { k, name: st.name.clone(), key, set, vars, index, lo, hi });
    }
    // Breakpoints.
    let mut bps: Vec<Row> = Vec::new();
    for s in &stmts {
        let mut h1 = s.hi.clone();
        h1[0] += 1;
        for b in [s.lo.clone(), h1] {
            if !bps.contains(&b) {
                bps.push(b);
            }
        }
    }
    // Sort (insertion, with the solver).
    let mut sorted: Vec<Row> = Vec::new();
    for b in bps {
        let mut pos = sorted.len();
        for (i, x) in sorted.iter().enumerate() {
            if le(&b, x, &params, ctx, solver)? {
                pos = i;
                break;
            } else if !le(x, &b, &params, ctx, solver)? {
                return Err(SchedError::Codegen(format!(
                    "time breakpoints {} and {} are not ordered under the context",
                    fmt_row(&b, &params, np),
                    fmt_row(x, &params, np)
                )));
            }
        }
        sorted.insert(pos, b);
    }
    // Segments and their active statements.
    let mut segs: Vec<(Row, Row, Vec<usize>)> = Vec::new();
    for w in sorted.windows(2) {
        let (b0, b1) = (&w[0], &w[1]);
        let mut hi = b1.clone();
        hi[0] -= 1;
        let mut active = Vec::new();
        for (x, s) in stmts.iter().enumerate() {
            let mut h1 = s.hi.clone();
            h1[0] += 1;
            if le(&s.lo, b0, &params, ctx, solver)? && le(b1, &h1, &params, ctx, solver)? {
                active.push(x);
            }
        }
        if !active.is_empty() {
            segs.push((b0.clone(), hi, active));
        }
    }
    // A one-step segment whose statements all run in the neighbouring segment is merged
    // into it when the loops of the other statements are empty outside their time
    // range by their own bounds (every constraint of their domain involves a loop
    // variable): Appendix 5's single time loop `t := 4 - n to 2n - 1`.
    let t_bounded_by_loops = |x: usize| -> bool {
        let s = &stmts[x];
        !s.vars.is_empty() && s.set.equalities().iter().chain(s.set.inequalities()).all(|r| r[1 + np + 1..].iter().any(|&c| c != 0) || r[1 + np] == 0)
    };
    let mut k = 0;
    while k + 1 < segs.len() {
        let (a, b) = (&segs[k], &segs[k + 1]);
        let adjacent = {
            let mut h1 = a.1.clone();
            h1[0] += 1;
            h1 == b.0
        };
        let merge = adjacent
            && ((b.0 == b.1 && b.2.iter().all(|x| a.2.contains(x)) && a.2.iter().filter(|x| !b.2.contains(x)).all(|&x| t_bounded_by_loops(x)))
                || (a.0 == a.1 && a.2.iter().all(|x| b.2.contains(x)) && b.2.iter().filter(|x| !a.2.contains(x)).all(|&x| t_bounded_by_loops(x))));
        if merge {
            let mut act = a.2.clone();
            act.extend(b.2.iter().copied().filter(|x| !a.2.contains(x)));
            let merged = (a.0.clone(), b.1.clone(), act);
            segs[k] = merged;
            segs.remove(k + 1);
        } else {
            k += 1;
        }
    }
    let mut segments = Vec::new();
    for (b0, hi, act) in segs {
        let b0 = &b0;
        let mut active: Vec<&Stmt> = act.iter().map(|&x| &stmts[x]).collect();
        active.sort_by_key(|s| (s.key, s.k));
        let mut blocks = Vec::new();
        for s in active {
            // Segment constraints b0 <= t <= hi.
            let mut set = s.set.clone();
            let n = set.n_cols();
            let mut r = vec![0; n];
            r[1 + np] = 1;
            for (i, v) in b0.iter().enumerate() {
                r[i] -= v;
            }
            set.add_ineq_row(r)?;
            let mut r = vec![0; n];
            r[1 + np] = -1;
            for (i, v) in hi.iter().enumerate() {
                r[i] += v;
            }
            set.add_ineq_row(r)?;
            set.simplify()?;
            let nv = s.vars.len();
            let mut loops = Vec::new();
            for lvl in 0..nv {
                let mut p = set.fm_project_out(2 + lvl, nv - lvl - 1)?;
                p.remove_redundant()?;
                let col = 1 + np + 1 + lvl;
                let (mut lower, mut upper) = (Vec::new(), Vec::new());
                let mut rows: Vec<(Row, bool)> = p.inequalities().iter().map(|r| (r.clone(), false)).collect();
                rows.extend(p.equalities().iter().map(|r| (r.clone(), true)));
                for (r, is_eq) in rows {
                    let c = r[col];
                    if c == 0 {
                        continue;
                    }
                    // c * v + rest >= 0: v >= -rest / c (c > 0) or v <= rest / -c (c < 0).
                    let mut rest: Row = r[..col].to_vec();
                    if c > 0 {
                        rest.iter_mut().for_each(|x| *x = -*x);
                        lower.push((rest.clone(), c));
                        if is_eq {
                            upper.push((rest, c));
                        }
                    } else {
                        upper.push((rest.clone(), -c));
                        if is_eq {
                            lower.push((rest, -c));
                        }
                    }
                }
                loops.push(Loop { var: s.vars[lvl].clone(), lower, upper });
            }
            blocks.push(Block { stmt: s.k, name: s.name.clone(), loops, index: s.index.clone() });
        }
        segments.push(Segment { lo: b0.clone(), hi, blocks });
    }
    Ok(Code { params, time_var, segments, unimodular })
}
