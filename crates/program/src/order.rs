//! Every statement instance of a program at one instance of its parameters, in the
//! order of a time function (the schedules, or another order), stored flat: the one
//! enumeration behind max-live ([`crate::max_live`]) and the executor's placed runs
//! ([`crate::exec::Executor::compare_placed`]), which visit millions of instances.
//!
//! Under the schedules, the instances are enumerated row by row (the last iterator
//! running over a range) and their times are kept as one integer key each: the time
//! vectors in mixed radix over the range of each time dimension (from the rows' ends:
//! an affine time is monotone along a row), which orders exactly as the vectors do.
//! The sort is stable, so each statement's instances, already in time order in most
//! programs, are merged as runs. Times whose ranges do not fit one `u64`, and times of
//! another order ([`InstanceTime`]), are kept as vectors.

use crate::compiled::{self, AffsAt};
use crate::error::{ProgramError, Result};
use crate::model::{Program, Statement};
use polyalloc_formulation::{AffExpr, Result as FResult, Set};

/// The time of a statement instance under another order than the program's schedules:
/// `time(statement index, parameter values, iteration)`, compared lexicographically
/// (the executor's `trace_by` convention).
pub type InstanceTime<'a> = dyn Fn(usize, &[i64], &[i64]) -> Result<Vec<i64>> + 'a;

/// The instances of a program in time order.
#[derive(Clone, Debug)]
pub struct Ordered {
    stride_iter: usize,
    /// Per statement: its number of iterators.
    dims: Vec<usize>,
    /// Per instance (enumeration order): statement, iteration.
    stmt: Vec<u32>,
    iters: Vec<i64>,
    /// Instance indices sorted by time (equal times: in enumeration order).
    order: Vec<u32>,
    /// Per instance: the rank of its time (equal times, equal ranks).
    rank: Vec<u32>,
    /// The time of each rank.
    times: Times,
    /// The longest time vector.
    max_len: usize,
    /// What it was built from: the parameters' values, each statement's domain and
    /// schedule, and whether the times are the schedules'.
    params: Vec<i64>,
    statements: Vec<(Set, Vec<AffExpr>)>,
    by_schedules: bool,
}

/// The times of the ranks of an [`Ordered`].
#[derive(Clone, Debug)]
enum Times {
    /// Time vectors (padded with zeros to `stride`) in mixed radix: dimension `d` is
    /// `min[d] + (key / radix[d]) % range[d]`.
    Keys { min: Vec<i64>, range: Vec<u64>, of_rank: Vec<u64> },
    /// Time vectors per instance (padded to `stride`), and per rank an instance.
    Vectors { stride: usize, times: Vec<i64>, first_of_rank: Vec<u32> },
}

/// The values of the parameters `names` (a statement's, a set's: their own order)
/// from the program's values `params`.
pub fn params_of(program: &Program, names: &[String], params: &[i64]) -> Result<Vec<i64>> {
    names
        .iter()
        .map(|p| {
            program
                .params
                .iter()
                .position(|q| q == p)
                .and_then(|i| params.get(i).copied())
                .ok_or_else(|| ProgramError::Invalid(format!("unknown parameter `{p}`")))
        })
        .collect()
}

/// The parameter values of statement `s` (its own parameter order).
pub(crate) fn statement_params(program: &Program, s: &Statement, params: &[i64]) -> Result<Vec<i64>> {
    params_of(program, &s.domain.space().params, params)
}

/// The mixed radix of the keys: per time dimension its least value and its number of
/// values, `None` when their product does not fit a `u64`.
fn radix(min: &[i64], max: &[i64]) -> Option<(Vec<i64>, Vec<u64>)> {
    let mut product: u128 = 1;
    let mut range = Vec::with_capacity(min.len());
    for (lo, hi) in min.iter().zip(max) {
        let r = u128::try_from(*hi as i128 - *lo as i128 + 1).ok()?.max(1);
        product = product.checked_mul(r)?;
        range.push(u64::try_from(r).ok()?);
    }
    u64::try_from(product).ok()?;
    Some((min.to_vec(), range))
}

impl Ordered {
    /// Enumerates the instances of `program` at `params` (at most `limit`), with times
    /// from `time` or, when `None`, the statements' schedules; times of different
    /// lengths compare as if padded with zeros.
    pub fn build(program: &Program, params: &[i64], time: Option<&InstanceTime<'_>>, limit: usize) -> Result<Ordered> {
        if params.len() != program.params.len() {
            return Err(ProgramError::Invalid(format!("{} values for parameters {:?}", params.len(), program.params)));
        }
        let stride_iter = program.statements.iter().map(|s| s.domain.space().n_dim()).max().unwrap_or(0);
        let mut stride_time = program.time_len().max(1);
        let sparams: Vec<Vec<i64>> = program.statements.iter().map(|s| statement_params(program, s, params)).collect::<Result<_>>()?;
        let scheds: Vec<AffsAt<'_>> =
            program.statements.iter().zip(&sparams).map(|(s, sp)| AffsAt::new(&s.schedule, sp, s.domain.space().n_dim())).collect();
        // Count first (nothing stored): past the limit, stop before using any memory.
        // Under the schedules, the range of every time dimension too, from the rows'
        // ends (an evaluation error is reported after the count, as the enumeration
        // would).
        let mut total = 0usize;
        let mut tmin = vec![i64::MAX; stride_time];
        let mut tmax = vec![i64::MIN; stride_time];
        let mut max_len = 0usize;
        let mut eval_error: Option<polyalloc_formulation::Error> = None;
        let mut ends: Vec<i64> = Vec::new();
        for (si, s) in program.statements.iter().enumerate() {
            let m = s.domain.space().n_dim();
            let sched = &scheds[si];
            compiled::for_each_row(&s.domain, &sparams[si], &mut |prefix, lo, hi| {
                let n = compiled::row_len(lo, hi);
                total = total.saturating_add(n);
                if total > limit {
                    return Ok(false);
                }
                if time.is_none() && n > 0 && eval_error.is_none() {
                    max_len = max_len.max(sched.len());
                    for x in [lo, hi] {
                        ends.clear();
                        ends.extend_from_slice(prefix);
                        if m > 0 {
                            ends.push(x);
                        }
                        for d in 0..stride_time {
                            let v = if d < sched.len() {
                                match sched.eval(d, &ends) {
                                    Ok(v) => v,
                                    Err(e) => {
                                        eval_error = Some(e);
                                        return Ok(true);
                                    }
                                }
                            } else {
                                0
                            };
                            tmin[d] = tmin[d].min(v);
                            tmax[d] = tmax[d].max(v);
                        }
                    }
                }
                Ok(true)
            })?;
            if total > limit {
                return Err(ProgramError::Exec(format!("more than {limit} statement instances at {params:?}")));
            }
        }
        if let Some(e) = eval_error {
            return Err(e.into());
        }
        let keys_radix = match time {
            Some(_) => None,
            None if total == 0 => Some((vec![0; stride_time], vec![1; stride_time])),
            None => radix(&tmin, &tmax),
        };
        let mut o = Ordered {
            stride_iter,
            dims: program.statements.iter().map(|s| s.domain.space().n_dim()).collect(),
            stmt: Vec::new(),
            iters: Vec::new(),
            order: Vec::new(),
            rank: Vec::new(),
            times: Times::Keys { min: Vec::new(), range: Vec::new(), of_rank: Vec::new() },
            max_len: 0,
            params: params.to_vec(),
            statements: program.statements.iter().map(|s| (s.domain.clone(), s.schedule.clone())).collect(),
            by_schedules: time.is_none(),
        };
        o.stmt.reserve_exact(total);
        o.iters.reserve_exact(total * stride_iter);
        let mut keys: Vec<u64> = Vec::new();
        let mut times: Vec<i64> = Vec::new();
        // The weight of each time dimension in a key.
        let weights: Vec<i128> = match &keys_radix {
            Some((_, range)) => {
                let mut w = vec![1i128; range.len()];
                for d in (0..range.len().saturating_sub(1)).rev() {
                    w[d] = w[d + 1] * range[d + 1] as i128;
                }
                keys.reserve_exact(total);
                w
            }
            None => {
                times.reserve_exact(total * stride_time);
                Vec::new()
            }
        };
        let mut failed: Option<ProgramError> = None;
        let mut count = 0usize;
        let mut it: Vec<i64> = Vec::with_capacity(stride_iter);
        let mut t: Vec<i64> = Vec::with_capacity(stride_time);
        for (si, s) in program.statements.iter().enumerate() {
            let sp = &sparams[si];
            let m = s.domain.space().n_dim();
            let sched = &scheds[si];
            let mut too_many = false;
            // The key's growth along a row (`None`: each point's key evaluated).
            let step: Option<i128> = match &keys_radix {
                Some(_) if m > 0 => (0..sched.len()).map(|d| sched.last_coefficient(d).map(|c| c as i128 * weights[d])).sum(),
                _ => None,
            };
            compiled::for_each_row(&s.domain, sp, &mut |prefix, lo, hi| -> FResult<bool> {
                let n = compiled::row_len(lo, hi);
                if n == 0 {
                    return Ok(true);
                }
                count = count.saturating_add(n);
                if count > limit {
                    too_many = true;
                    return Ok(false);
                }
                it.clear();
                it.extend_from_slice(prefix);
                if m > 0 {
                    it.push(lo);
                }
                if let Some((min, _)) = &keys_radix {
                    let key_at = |it: &[i64]| -> FResult<i128> {
                        let mut key = 0i128;
                        for (d, w) in weights.iter().enumerate() {
                            let v = if d < sched.len() { sched.eval(d, it)? } else { 0 };
                            key += (v as i128 - min[d] as i128) * w;
                        }
                        Ok(key)
                    };
                    let mut key = key_at(&it)?;
                    for x in lo..=hi {
                        if m > 0 {
                            it[m - 1] = x;
                            if x != lo {
                                key = match step {
                                    Some(st) => key + st,
                                    None => key_at(&it)?,
                                };
                            }
                        }
                        // In range by construction (the ranges hold every row's ends).
                        keys.push(key as u64);
                        o.stmt.push(si as u32);
                        o.iters.extend_from_slice(&it);
                        o.iters.extend(std::iter::repeat_n(0, stride_iter - m));
                        if m == 0 {
                            break;
                        }
                    }
                    return Ok(true);
                }
                for x in lo..=hi {
                    if m > 0 {
                        it[m - 1] = x;
                    }
                    match time {
                        None => sched.eval_into(&it, &mut t)?,
                        Some(f) => match f(si, params, &it) {
                            Ok(v) => t = v,
                            Err(e) => {
                                failed = Some(e);
                                return Ok(false);
                            }
                        },
                    }
                    if t.len() > stride_time {
                        let n = times.len() / stride_time;
                        let mut wider = Vec::with_capacity(n * t.len());
                        for k in 0..n {
                            wider.extend_from_slice(&times[k * stride_time..(k + 1) * stride_time]);
                            wider.extend(std::iter::repeat_n(0, t.len() - stride_time));
                        }
                        times = wider;
                        stride_time = t.len();
                    }
                    o.max_len = o.max_len.max(t.len());
                    times.extend_from_slice(&t);
                    times.extend(std::iter::repeat_n(0, stride_time - t.len()));
                    o.stmt.push(si as u32);
                    o.iters.extend_from_slice(&it);
                    o.iters.extend(std::iter::repeat_n(0, stride_iter - m));
                    if m == 0 {
                        break;
                    }
                }
                Ok(true)
            })?;
            if let Some(e) = failed.take() {
                return Err(e);
            }
            if too_many {
                return Err(ProgramError::Exec(format!("more than {limit} statement instances at {params:?}")));
            }
        }
        let n = o.stmt.len();
        let mut order: Vec<u32> = (0..n as u32).collect();
        let mut rank = vec![0u32; n];
        match keys_radix {
            Some((min, range)) => {
                o.max_len = max_len;
                order.sort_by_key(|&k| keys[k as usize]);
                let mut of_rank: Vec<u64> = Vec::new();
                for (j, &k) in order.iter().enumerate() {
                    let key = keys[k as usize];
                    if j == 0 || key != keys[order[j - 1] as usize] {
                        of_rank.push(key);
                    }
                    rank[k as usize] = (of_rank.len() - 1) as u32;
                }
                o.times = Times::Keys { min, range, of_rank };
            }
            None => {
                let time_of = |k: u32| &times[k as usize * stride_time..(k as usize + 1) * stride_time];
                order.sort_by(|&a, &b| time_of(a).cmp(time_of(b)));
                let mut first_of_rank: Vec<u32> = Vec::new();
                for (j, &k) in order.iter().enumerate() {
                    if j == 0 || time_of(k) != time_of(order[j - 1]) {
                        first_of_rank.push(k);
                    }
                    rank[k as usize] = (first_of_rank.len() - 1) as u32;
                }
                o.times = Times::Vectors { stride: stride_time, times, first_of_rank };
            }
        }
        o.order = order;
        o.rank = rank;
        Ok(o)
    }

    /// True when this is the order of `program`'s schedules at `params` (statements
    /// with the same domains and schedules, whatever their accesses): what
    /// [`crate::max_live_in`] and [`crate::exec::Executor::compare_placed_in`] take.
    pub fn is_of(&self, program: &Program, params: &[i64]) -> bool {
        self.by_schedules
            && self.params == params
            && self.statements.len() == program.statements.len()
            && self.statements.iter().zip(&program.statements).all(|((d, t), s)| *d == s.domain && *t == s.schedule)
    }

    /// Number of instances.
    pub fn len(&self) -> usize {
        self.stmt.len()
    }

    /// True when there is no instance.
    pub fn is_empty(&self) -> bool {
        self.stmt.is_empty()
    }

    /// Number of distinct times.
    pub fn n_ranks(&self) -> usize {
        match &self.times {
            Times::Keys { of_rank, .. } => of_rank.len(),
            Times::Vectors { first_of_rank, .. } => first_of_rank.len(),
        }
    }

    /// Instance `k` (enumeration order): statement index, iteration, rank of its time
    /// (of the program it was built from).
    #[inline]
    pub fn instance(&self, _program: &Program, k: usize) -> (usize, &[i64], u32) {
        let s = self.stmt[k] as usize;
        let m = self.dims[s];
        (s, &self.iters[k * self.stride_iter..k * self.stride_iter + m], self.rank[k])
    }

    /// Instance indices in time order.
    pub fn in_time_order(&self) -> &[u32] {
        &self.order
    }

    /// The time of rank `r` (unpadded to the longest time vector).
    pub fn time_of_rank(&self, r: u32) -> Vec<i64> {
        match &self.times {
            Times::Keys { min, range, of_rank } => {
                let mut key = of_rank[r as usize];
                let mut t = vec![0i64; range.len()];
                for d in (0..range.len()).rev() {
                    t[d] = (min[d] as i128 + (key % range[d]) as i128) as i64;
                    key /= range[d];
                }
                t.truncate(self.max_len);
                t
            }
            Times::Vectors { stride, times, first_of_rank } => {
                let k = first_of_rank[r as usize] as usize;
                times[k * stride..(k + 1) * stride][..self.max_len].to_vec()
            }
        }
    }

    /// The first time shared by two instances, with one of them (`None`: every
    /// instance has its own time).
    pub fn first_tie(&self) -> Option<(usize, usize)> {
        self.order.windows(2).find(|w| self.rank[w[0] as usize] == self.rank[w[1] as usize]).map(|w| (w[0] as usize, w[1] as usize))
    }
}
