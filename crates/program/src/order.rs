//! Every statement instance of a program at one instance of its parameters, in the
//! order of a time function (the schedules, or another order), stored flat: the one
//! enumeration behind max-live ([`crate::max_live`]) and the executor's placed runs
//! ([`crate::exec::Executor::compare_placed`]), which visit millions of instances.

use crate::error::{ProgramError, Result};
use crate::model::{Program, Statement};
use polyalloc_formulation::Result as FResult;

/// The time of a statement instance under another order than the program's schedules:
/// `time(statement index, parameter values, iteration)`, compared lexicographically
/// (the executor's `trace_by` convention).
pub type InstanceTime<'a> = dyn Fn(usize, &[i64], &[i64]) -> Result<Vec<i64>> + 'a;

/// The instances of a program in time order.
#[derive(Clone, Debug)]
pub struct Ordered {
    stride_iter: usize,
    stride_time: usize,
    /// Per instance (enumeration order): statement, iteration, time.
    stmt: Vec<u32>,
    iters: Vec<i64>,
    times: Vec<i64>,
    /// Instance indices sorted by time.
    order: Vec<u32>,
    /// Per instance: the rank of its time (equal times, equal ranks).
    rank: Vec<u32>,
    /// Per rank: an instance with that time.
    first_of_rank: Vec<u32>,
    /// The longest time vector.
    max_len: usize,
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
        let mut o = Ordered {
            stride_iter,
            stride_time,
            stmt: Vec::new(),
            iters: Vec::new(),
            times: Vec::new(),
            order: Vec::new(),
            rank: Vec::new(),
            first_of_rank: Vec::new(),
            max_len: 0,
        };
        // Count first (nothing stored): past the limit, stop before using any memory.
        let mut total = 0usize;
        for s in &program.statements {
            let sparams = statement_params(program, s, params)?;
            s.domain.clone().for_each_point(&sparams, &mut |_| {
                total += 1;
                Ok(total <= limit)
            })?;
            if total > limit {
                return Err(ProgramError::Exec(format!("more than {limit} statement instances at {params:?}")));
            }
        }
        o.stmt.reserve_exact(total);
        o.iters.reserve_exact(total * stride_iter);
        o.times.reserve_exact(total * stride_time);
        let mut failed: Option<ProgramError> = None;
        let mut count = 0usize;
        for (si, s) in program.statements.iter().enumerate() {
            let sparams = statement_params(program, s, params)?;
            let mut too_many = false;
            s.domain.clone().for_each_point(&sparams, &mut |it| -> FResult<bool> {
                count += 1;
                if count > limit {
                    too_many = true;
                    return Ok(false);
                }
                let t: Vec<i64> = match time {
                    None => s.schedule.iter().map(|a| a.eval(&sparams, it)).collect::<FResult<_>>()?,
                    Some(f) => match f(si, params, it) {
                        Ok(t) => t,
                        Err(e) => {
                            failed = Some(e);
                            return Ok(false);
                        }
                    },
                };
                if t.len() > stride_time {
                    let n = o.times.len() / stride_time;
                    let mut wider = Vec::with_capacity(n * t.len());
                    for k in 0..n {
                        wider.extend_from_slice(&o.times[k * stride_time..(k + 1) * stride_time]);
                        wider.extend(std::iter::repeat_n(0, t.len() - stride_time));
                    }
                    o.times = wider;
                    stride_time = t.len();
                }
                o.max_len = o.max_len.max(t.len());
                let len = t.len();
                o.times.extend(t);
                o.times.extend(std::iter::repeat_n(0, stride_time - len));
                o.stmt.push(si as u32);
                o.iters.extend_from_slice(it);
                o.iters.extend(std::iter::repeat_n(0, stride_iter - it.len()));
                Ok(true)
            })?;
            if let Some(e) = failed.take() {
                return Err(e);
            }
            if too_many {
                return Err(ProgramError::Exec(format!("more than {limit} statement instances at {params:?}")));
            }
        }
        o.stride_time = stride_time;
        let n = o.stmt.len();
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_unstable_by(|&a, &b| o.time(a as usize).cmp(o.time(b as usize)));
        let mut rank = vec![0u32; n];
        for (j, &k) in order.iter().enumerate() {
            if j == 0 || o.time(k as usize) != o.time(order[j - 1] as usize) {
                o.first_of_rank.push(k);
            }
            rank[k as usize] = (o.first_of_rank.len() - 1) as u32;
        }
        o.order = order;
        o.rank = rank;
        Ok(o)
    }

    fn time(&self, k: usize) -> &[i64] {
        &self.times[k * self.stride_time..(k + 1) * self.stride_time]
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
        self.first_of_rank.len()
    }

    /// Instance `k` (enumeration order): statement index, iteration, rank of its time.
    pub fn instance(&self, program: &Program, k: usize) -> (usize, &[i64], u32) {
        let s = self.stmt[k] as usize;
        let m = program.statements[s].domain.space().n_dim();
        (s, &self.iters[k * self.stride_iter..k * self.stride_iter + m], self.rank[k])
    }

    /// Instance indices in time order.
    pub fn in_time_order(&self) -> &[u32] {
        &self.order
    }

    /// The time of rank `r` (unpadded to the longest time vector).
    pub fn time_of_rank(&self, r: u32) -> Vec<i64> {
        self.time(self.first_of_rank[r as usize] as usize)[..self.max_len].to_vec()
    }

    /// The first time shared by two instances, with one of them (`None`: every
    /// instance has its own time).
    pub fn first_tie(&self) -> Option<(usize, usize)> {
        self.order.windows(2).find(|w| self.rank[w[0] as usize] == self.rank[w[1] as usize]).map(|w| (w[0] as usize, w[1] as usize))
    }
}
