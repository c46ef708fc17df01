//! The loop sequence in polyalloc's one program model ([`polyalloc_program::Program`]),
//! and the transformed orders of Sec. 3 as schedules and time functions.
//!
//! Every statement `k` of every nest `L_i` becomes a [`Statement`] named `Li_k`: its
//! domain is the nest's rectangular box (the bounds of the `flow` section, affine in the
//! parameters), its original schedule is `[i, I_1, .., I_n, k]` (nests in sequence
//! order, each nest's iterations lexicographically, the body in order), its write and
//! read accesses are the references of the body ([`crate::expr`]), affine in the loop
//! indices and parameters. The non-local arrays that are written (Fig. 1's `E`, the `ZP`,
//! `ZQ` of Example 2) are live-out; the local regions are dead after the loops and are
//! the program's fold regions ([`Program::fold_regions`]): a storage mapping of `ZA`
//! folds `ZA(2:JN, 2:KN)` only, and a reference outside it (`ZA(1, K)` in Example 2's
//! `L3`) still goes to the array, as in Sec. 5 and Fig. 8.
//!
//! The transformed program runs the same statement instances in another order:
//! * the coalesced fused loop (Sec. 3.1-3.2, the order Problem 0 measures memory for):
//!   instance `I` of nest `L_i` at time `[c, i, k]` with
//!   `c = sum_h (I_h - lo_{i,h} + p_{i,h}) s_h` ([`FlowProgram::coalesced_time`]); `s` is
//!   symbolic (`JN - 1`), so this time is not affine in the parameters and is given
//!   as a function evaluated at each instance;
//! * the fused n-level nest of Fig. 8: time `[I + p_i, i, k]`, an affine schedule
//!   ([`FlowProgram::fused_program`], [`FlowProgram::fused_time`]).
//!
//! The two coincide when the nests have the same lower bounds and every shift is zero
//! beyond the outermost level (after the normalisation of [`crate::algorithm::solve`]):
//! `c` is then the coalesced index of `I + p_i`, which orders like `I + p_i` since the
//! inner components stay within their trip counts ([`orders_coincide`]; every shipped
//! example).

use crate::error::{input, FlowError, Result};
use crate::expr::{self, Reference};
use crate::input::LoopSequence;
use crate::vecs::{Condition, Vector};
use polyalloc_formulation::{AffExpr, BasicSet, Constraint, Polynomial, Set, Space, Tuple};
use polyalloc_program::{Access, Program, ProgramError, Statement};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// The loop sequence as a program of the one model.
#[derive(Clone, Debug)]
pub struct FlowProgram {
    /// Statements in sequence order with the original schedule, the live-out non-local
    /// arrays, and a fold region per local array.
    pub program: Program,
    /// `(nest, statement of the nest)` of every statement of `program`.
    pub origin: Vec<(usize, usize)>,
    /// The local write reference of every statement (index into
    /// [`LoopSequence::writes`]), if it is one.
    pub local_write: Vec<Option<usize>>,
    /// The statement texts (for messages).
    pub texts: Vec<String>,
}

/// The name of statement `k` (0-based) of nest `nest`: `L1_1`.
fn statement_name(nest: &str, k: usize) -> String {
    let mut s: String = nest.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic()) {
        s.insert(0, 'S');
    }
    format!("{s}_{}", k + 1)
}

/// A polynomial of the parameters as an affine expression over `space` (whose
/// parameters include those of `p`); `None` when it is not affine.
pub fn affine_of(p: &Polynomial, space: &Space) -> Option<AffExpr> {
    let mut a = AffExpr::zero(space);
    for (m, c) in p.terms() {
        match m.len() {
            0 => a.coeffs[0] = a.coeffs[0].checked_add(c)?,
            1 => {
                let (name, deg) = m.iter().next()?;
                if *deg != 1 {
                    return None;
                }
                let col = 1 + space.param_index(name)?;
                a.coeffs[col] = a.coeffs[col].checked_add(c)?;
            }
            _ => return None,
        }
    }
    Some(a)
}

fn not_affine_bound(field: &str, p: &Polynomial) -> FlowError {
    input(field, format!("`{p}` is not affine in the parameters (the program model needs affine loop bounds)"))
}

/// `lo <= x_col <= hi` on a basic set over `space` (column `col` of the dims).
fn add_box_bounds(b: &mut BasicSet, space: &Space, col: usize, lo: &Polynomial, hi: &Polynomial, field: &str) -> Result<()> {
    let lo_a = affine_of(lo, space).ok_or_else(|| not_affine_bound(field, lo))?;
    let hi_a = affine_of(hi, space).ok_or_else(|| not_affine_bound(field, hi))?;
    let mut x = AffExpr::zero(space);
    x.coeffs[space.dim_col(col)] = 1;
    b.add_constraint(&Constraint::ge0(x.add_scaled(&lo_a, -1)?))?;
    b.add_constraint(&Constraint::ge0(hi_a.add_scaled(&x, -1)?))?;
    Ok(())
}

/// The box `lo_d <= x_d <= hi_d` of a local region, as a set of cells of its array.
pub fn region_set(seq: &LoopSequence, region: usize) -> Result<Set> {
    let r = &seq.regions[region];
    let pr: Vec<&str> = seq.params.iter().map(String::as_str).collect();
    let dims: Vec<String> = (0..r.bounds.len()).map(|d| format!("x{d}")).collect();
    let dr: Vec<&str> = dims.iter().map(String::as_str).collect();
    let space = Space::set(&pr, Tuple::new(&r.array, &dr));
    let mut b = BasicSet::universe(space.clone());
    for (d, (lo, hi)) in r.bounds.iter().enumerate() {
        add_box_bounds(&mut b, &space, d, lo, hi, &format!("local_regions ({})", r.text))?;
    }
    Ok(Set::from_basic(b))
}

/// An access from a reference whose subscripts are affine over `[params, indices]`.
fn access(r: &Reference, vars: &[String], text: &str) -> Result<Access> {
    let index = r
        .subscripts
        .iter()
        .map(|s| expr::affine(s, vars).map(|coeffs| AffExpr { coeffs }))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| FlowError::NotAffine { statement: text.to_string(), reference: expr::show(r) })?;
    Ok(Access { array: r.array.clone(), index, guard: None })
}

fn normalise(t: &str) -> String {
    t.chars().filter(|c| !c.is_whitespace()).collect()
}

impl FlowProgram {
    /// Builds the program of a loop sequence. `context` is the example's parameter
    /// context (`[JN, KN] -> { : JN >= 6 and KN >= 5 }`), if any.
    pub fn build(seq: &LoopSequence, context: Option<&str>) -> Result<FlowProgram> {
        let params = &seq.params;
        let pr: Vec<&str> = params.iter().map(String::as_str).collect();
        // The context (its parameters in the example's order), or none.
        let universe = format!("[{}] -> {{ : 0 <= 0 }}", params.join(", "));
        let mut program = Program::new(context.unwrap_or(&universe))?;
        program.context = program.context.align_params(params)?;
        program.params = params.clone();
        let ir: Vec<&str> = seq.index_names.iter().map(String::as_str).collect();
        let vars: Vec<String> = params.iter().chain(&seq.index_names).cloned().collect();
        let mut origin = Vec::new();
        let mut texts = Vec::new();
        let mut parsed = Vec::new();
        for (i, nest) in seq.nests.iter().enumerate() {
            for (k, text) in nest.body.iter().enumerate() {
                let stmt = expr::parse_stmt(text)?;
                let name = statement_name(&nest.name, k);
                let space = Space::set(&pr, Tuple::new(&name, &ir));
                let mut dom = BasicSet::universe(space.clone());
                for (h, (lo, hi)) in nest.bounds.iter().enumerate() {
                    add_box_bounds(&mut dom, &space, h, lo, hi, &format!("nests[{i}] ({})", nest.name))?;
                }
                let constant = |c: usize| -> Result<AffExpr> {
                    Ok(AffExpr::constant(&space, i64::try_from(c).map_err(|_| FlowError::Overflow("a schedule constant".into()))?))
                };
                let mut schedule = vec![constant(i)?];
                for h in 0..seq.depth {
                    let mut x = AffExpr::zero(&space);
                    x.coeffs[space.dim_col(h)] = 1;
                    schedule.push(x);
                }
                schedule.push(constant(k)?);
                let writes = vec![access(&stmt.write(), &vars, text)?];
                let reads = stmt.reads().iter().map(|r| access(r, &vars, text)).collect::<Result<Vec<_>>>()?;
                program.add_statement(Statement { name, domain: Set::from_basic(dom), schedule, writes, reads })?;
                origin.push((i, k));
                texts.push(text.clone());
                parsed.push(stmt);
            }
        }
        // Each local write reference is one statement of its nest: the one it names, or
        // the one whose left-hand side is its `ref`.
        let mut local_write: Vec<Option<usize>> = vec![None; origin.len()];
        for (w, wr) in seq.writes.iter().enumerate() {
            let field = format!("local_writes ({})", wr.id);
            let candidates: Vec<usize> = (0..origin.len())
                .filter(|s| {
                    let (i, k) = origin[*s];
                    i == wr.nest
                        && match wr.statement {
                            Some(st) => st == k + 1,
                            None => normalise(texts[*s].split('=').next().unwrap_or("")) == normalise(&wr.reference),
                        }
                })
                .collect();
            let s = match candidates[..] {
                [s] => s,
                [] => return Err(input(&field, format!("no statement of nest {} writes `{}`", seq.nests[wr.nest].name, wr.reference))),
                _ => {
                    return Err(input(
                        &field,
                        format!("several statements of nest {} write `{}`: give `statement`", seq.nests[wr.nest].name, wr.reference),
                    ))
                }
            };
            if parsed[s].array != wr.array {
                return Err(input(&field, format!("statement `{}` writes {}, not {}", texts[s], parsed[s].array, wr.array)));
            }
            if let Some(other) = local_write[s] {
                return Err(input(&field, format!("statement `{}` is also the write {}", texts[s], seq.writes[other].id)));
            }
            local_write[s] = Some(w);
        }
        // Local regions: fold regions of the same arity as every access to the array.
        for (r, region) in seq.regions.iter().enumerate() {
            for st in &program.statements {
                for a in st.writes.iter().chain(&st.reads).filter(|a| a.array == region.array) {
                    if a.index.len() != region.bounds.len() {
                        return Err(input(
                            format!("local_regions ({})", region.text),
                            format!("{} has {} subscripts in `{}`", region.array, a.index.len(), st.name),
                        ));
                    }
                }
            }
            program.add_fold_region(region_set(seq, r)?)?;
        }
        // Live-out: every cell of a written non-local array.
        let mut live: BTreeMap<String, usize> = BTreeMap::new();
        for st in &program.statements {
            for a in &st.writes {
                if !seq.regions.iter().any(|r| r.array == a.array) {
                    live.insert(a.array.clone(), a.index.len());
                }
            }
        }
        for (array, n) in live {
            let dims: Vec<String> = (0..n).map(|d| format!("x{d}")).collect();
            let dr: Vec<&str> = dims.iter().map(String::as_str).collect();
            program.live_out.push(Set::universe(Space::set(&pr, Tuple::new(&array, &dr))));
        }
        Ok(FlowProgram { program, origin, local_write, texts })
    }

    /// The parameter context with the run-time condition `need < b` conjoined (the
    /// contracted loops run only where it holds, Sec. 4.5 step 6). `None` when a trip
    /// count is not affine in the parameters.
    pub fn context_with(&self, seq: &LoopSequence, condition: &Condition) -> Result<Option<BasicSet>> {
        let mut ctx = self.program.context.clone();
        let space = ctx.space().clone();
        for (b, need) in seq.trip_counts.iter().zip(&condition.need) {
            let Some(b) = affine_of(b, &space) else { return Ok(None) };
            // b - need - 1 >= 0
            let c = b.add_scaled(
                &AffExpr::constant(&space, 1),
                need.checked_neg().and_then(|v| v.checked_sub(1)).ok_or_else(|| FlowError::Overflow("the run-time condition".into()))?,
            )?;
            ctx.add_constraint(&Constraint::ge0(c))?;
        }
        Ok(Some(ctx))
    }

    /// The program with the schedule of the fused nest of Fig. 8, `[I + p_i, i, k]`, and
    /// `context` (the context with the run-time condition).
    pub fn fused_program(&self, shifts: &[Vector], context: BasicSet) -> Result<Program> {
        let mut p = self.program.clone();
        for (st, &(i, _)) in p.statements.iter_mut().zip(&self.origin) {
            let sp = st.domain.space().clone();
            let n = sp.n_dim();
            let shift = shifts.get(i).filter(|s| s.len() == n).ok_or_else(|| FlowError::Internal("one shift vector per nest".into()))?;
            let mut sched: Vec<AffExpr> = Vec::new();
            for (h, p_h) in shift.iter().enumerate() {
                let mut x = AffExpr::constant(&sp, *p_h);
                x.coeffs[sp.dim_col(h)] = 1;
                sched.push(x);
            }
            // [i, k] follow the original schedule's first and last components.
            let first = st.schedule.first().cloned().ok_or_else(|| FlowError::Internal("empty schedule".into()))?;
            let last = st.schedule.last().cloned().ok_or_else(|| FlowError::Internal("empty schedule".into()))?;
            sched.push(first);
            sched.push(last);
            st.schedule = sched;
        }
        p.context = context;
        Ok(p)
    }

    /// The time of the fused nest of Fig. 8: `[I + p_i, i, k]`.
    pub fn fused_time(&self, shifts: &[Vector]) -> Arc<polyalloc_alloc::TimeFunction> {
        let origin = self.origin.clone();
        let shifts = shifts.to_vec();
        Arc::new(move |stmt: usize, _params: &[i64], iter: &[i64]| -> std::result::Result<Vec<i64>, ProgramError> {
            let (i, k) = *origin.get(stmt).ok_or_else(|| ProgramError::Exec(format!("statement #{stmt}")))?;
            let p = shifts.get(i).filter(|p| p.len() == iter.len()).ok_or_else(|| ProgramError::Exec(format!("no shift for nest {i}")))?;
            let mut t = iter
                .iter()
                .zip(p)
                .map(|(x, d)| x.checked_add(*d))
                .collect::<Option<Vec<i64>>>()
                .ok_or_else(|| ProgramError::Overflow("a fused time".into()))?;
            t.push(i as i64);
            t.push(k as i64);
            Ok(t)
        })
    }

    /// The time of the coalesced fused loop (Sec. 3.1-3.2): `[c, i, k]`,
    /// `c = sum_h (I_h - lo_{i,h} + p_{i,h}) s_h`, with `s` and the lower bounds
    /// evaluated at the parameters of each run.
    pub fn coalesced_time(&self, seq: &LoopSequence, shifts: &[Vector]) -> Arc<polyalloc_alloc::TimeFunction> {
        let origin = self.origin.clone();
        let shifts = shifts.to_vec();
        let params = seq.params.clone();
        let coalescing = seq.coalescing.clone();
        let lower: Vec<Vec<Polynomial>> = seq.nests.iter().map(|n| n.bounds.iter().map(|(lo, _)| lo.clone()).collect()).collect();
        type AtParams = (Vec<i128>, Vec<Vec<i128>>);
        let cache: Mutex<HashMap<Vec<i64>, AtParams>> = Mutex::new(HashMap::new());
        Arc::new(move |stmt: usize, values: &[i64], iter: &[i64]| -> std::result::Result<Vec<i64>, ProgramError> {
            let (i, k) = *origin.get(stmt).ok_or_else(|| ProgramError::Exec(format!("statement #{stmt}")))?;
            let mut map = cache.lock().unwrap_or_else(|p| p.into_inner());
            if !map.contains_key(values) {
                let env: Vec<(&str, i64)> = params.iter().map(String::as_str).zip(values.iter().copied()).collect();
                let s = coalescing.iter().map(|p| p.eval(&env)).collect::<std::result::Result<Vec<_>, _>>()?;
                let lo = lower
                    .iter()
                    .map(|l| l.iter().map(|p| p.eval(&env)).collect::<std::result::Result<Vec<_>, _>>())
                    .collect::<std::result::Result<Vec<_>, _>>()?;
                map.insert(values.to_vec(), (s, lo));
            }
            let (s, lo) = &map[values];
            let p = shifts.get(i).filter(|p| p.len() == iter.len()).ok_or_else(|| ProgramError::Exec(format!("no shift for nest {i}")))?;
            let mut c: i128 = 0;
            for h in 0..iter.len() {
                c += (iter[h] as i128 - lo[i][h] + p[h] as i128) * s[h];
            }
            let c = i64::try_from(c).map_err(|_| ProgramError::Overflow("a coalesced time".into()))?;
            Ok(vec![c, i as i64, k as i64])
        })
    }
}

/// True when the coalesced fused loop and the fused nest of Fig. 8 are the same order:
/// every nest has the same lower bounds and every shift is zero beyond the outermost
/// level.
pub fn orders_coincide(seq: &LoopSequence, shifts: &[Vector]) -> bool {
    let same_bounds = seq.nests.windows(2).all(|w| w[0].bounds.iter().zip(&w[1].bounds).all(|(a, b)| a.0 == b.0));
    same_bounds && shifts.iter().all(|p| p.iter().skip(1).all(|x| *x == 0))
}
