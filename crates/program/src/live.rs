//! Max-live: the largest number of values of an array live at one time under the
//! program's schedule, a lower bound on the size of any valid storage mapping
//! (004 Sec. 2.1: the cells live at one time pairwise conflict).

use crate::error::{ProgramError, Result};
use crate::model::Program;
use polyalloc_formulation::{Result as FResult, Set};
use std::collections::{BTreeMap, HashMap};

/// Result of [`max_live`] for one array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveReport {
    /// The array.
    pub array: String,
    /// Maximum number of values simultaneously live (lower bound of any valid mapping).
    pub max_live: usize,
    /// A logical time at which it is reached (after the writes of that time).
    pub at_time: Vec<i64>,
    /// Number of distinct cells written.
    pub cells_written: usize,
    /// Number of values written (more than `cells_written` when cells are overwritten).
    pub values_written: usize,
}

/// Simulates the schedule of `program` for the parameter values `params` (in
/// `program.params` order) and reports, per written array, the maximum number of
/// *values* live at once (value-based: every write creates a value; a cell written
/// several times holds several values one after the other). The conventions are those
/// of the conflict sets: at each logical time `T`, reads happen before writes, so a read
/// at `T` reads the value written strictly before `T` and a value whose last read is at
/// `T` frees its cell for a write at `T`; after the writes of `T` a value counts when it
/// was written at or before `T` and is read after `T`, or is the last value of a
/// live-out cell, and every value written at `T` counts. Those values pairwise conflict,
/// so no valid mapping of the array has fewer cells. Two writes of one cell at the same
/// time are an error (the program's result would depend on their order).
pub fn max_live(program: &Program, params: &[i64]) -> Result<Vec<LiveReport>> {
    simulate(program, params, None)
}

/// The time of a statement instance under another order than the program's schedules:
/// `time(statement index, parameter values, iteration)`, compared lexicographically
/// (the executor's `trace_by` convention).
pub type InstanceTime<'a> = dyn Fn(usize, &[i64], &[i64]) -> Result<Vec<i64>> + 'a;

/// [`max_live`] under the order `time` instead of the statements' schedules (a
/// transformed program: the shifted and fused loops of a contraction, whose mappings
/// are valid under that order and are measured against its max-live).
pub fn max_live_under(program: &Program, params: &[i64], time: &InstanceTime<'_>) -> Result<Vec<LiveReport>> {
    simulate(program, params, Some(time))
}

fn simulate(program: &Program, params: &[i64], time: Option<&InstanceTime<'_>>) -> Result<Vec<LiveReport>> {
    if params.len() != program.params.len() {
        return Err(ProgramError::Invalid(format!("{} values for parameters {:?}", params.len(), program.params)));
    }
    // array -> cell -> write times; reads as (array, cell, time).
    type Cells = HashMap<Vec<i64>, Vec<Vec<i64>>>;
    let mut writes: BTreeMap<String, Cells> = BTreeMap::new();
    let mut reads: Vec<(String, Vec<i64>, Vec<i64>)> = Vec::new();
    // Memory grows with the statement instances: at most the executor's limit.
    let mut instances = 0usize;
    let mut failed: Option<ProgramError> = None;
    for (si, s) in program.statements.iter().enumerate() {
        let sp = s.domain.space().clone();
        let pos: Vec<usize> = sp
            .params
            .iter()
            .map(|p| program.params.iter().position(|q| q == p).ok_or_else(|| ProgramError::Invalid(format!("unknown parameter `{p}`"))))
            .collect::<Result<_>>()?;
        let sparams: Vec<i64> = pos.iter().map(|&i| params[i]).collect();
        let mut too_many = false;
        s.domain.clone().for_each_point(&sparams, &mut |it| -> FResult<bool> {
            instances += 1;
            if instances > crate::exec::INSTANCE_LIMIT {
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
            for w in &s.writes {
                if w.happens_at(&sparams, it)? {
                    writes.entry(w.array.clone()).or_default().entry(w.cell_at(&sparams, it)?).or_default().push(t.clone());
                }
            }
            for r in &s.reads {
                if r.happens_at(&sparams, it)? {
                    reads.push((r.array.clone(), r.cell_at(&sparams, it)?, t.clone()));
                }
            }
            Ok(true)
        })?;
        if let Some(e) = failed.take() {
            return Err(e);
        }
        if too_many {
            return Err(ProgramError::Exec(format!(
                "more than {} statement instances at {params:?}: max-live is not simulated beyond that",
                crate::exec::INSTANCE_LIMIT
            )));
        }
    }
    // Times of different lengths compare as if padded with zeros (the schedules of a
    // program may have different depths).
    let d = writes.values().flat_map(|c| c.values().flatten()).chain(reads.iter().map(|r| &r.2)).map(Vec::len).max().unwrap_or(0);
    for t in writes.values_mut().flat_map(|c| c.values_mut().flatten()).chain(reads.iter_mut().map(|r| &mut r.2)) {
        t.resize(d, 0);
    }
    // Per cell: its values in write order, each with the time of its last read.
    type Values = HashMap<Vec<i64>, Vec<(Vec<i64>, Option<Vec<i64>>)>>;
    let mut values: BTreeMap<String, Values> = BTreeMap::new();
    for (array, cells) in writes {
        let mut per = Values::new();
        for (cell, mut times) in cells {
            times.sort();
            if let Some(w) = times.windows(2).find(|w| w[0] == w[1]) {
                return Err(ProgramError::Invalid(format!(
                    "cell {array}{cell:?} is written twice at time {:?}: the value it holds after that time is not defined",
                    w[0]
                )));
            }
            per.insert(cell, times.into_iter().map(|t| (t, None)).collect());
        }
        values.insert(array, per);
    }
    for (a, cell, t) in reads {
        let Some(vals) = values.get_mut(&a).and_then(|m| m.get_mut(&cell)) else { continue };
        // The value read at `t` is the last one written strictly before `t`.
        let k = vals.partition_point(|(w, _)| *w < t);
        if k == 0 {
            continue; // read before the first write: the cell's input value
        }
        let v = &mut vals[k - 1];
        if v.1.as_ref().is_none_or(|l| t > *l) {
            v.1 = Some(t);
        }
    }
    let mut out = Vec::new();
    for (array, cells) in values {
        let lo_sets: Vec<&Set> = program.live_out.iter().filter(|s| s.space().output.name.as_deref() == Some(array.as_str())).collect();
        // Events per time: (frees, writes, dead-after).
        let mut ev: BTreeMap<Vec<i64>, (usize, usize, usize)> = BTreeMap::new();
        let mut n_values = 0;
        for (cell, vals) in &cells {
            let mut live_out = false;
            for s in &lo_sets {
                let pos: Vec<usize> = s
                    .space()
                    .params
                    .iter()
                    .map(|p| program.params.iter().position(|q| q == p).ok_or_else(|| ProgramError::Invalid(format!("unknown parameter `{p}`"))))
                    .collect::<Result<_>>()?;
                let sparams: Vec<i64> = pos.iter().map(|&i| params[i]).collect();
                if s.contains(&sparams, cell)? {
                    live_out = true;
                    break;
                }
            }
            for (k, (w, last)) in vals.iter().enumerate() {
                n_values += 1;
                ev.entry(w.clone()).or_default().1 += 1;
                let final_live_out = live_out && k + 1 == vals.len();
                if !final_live_out {
                    match last {
                        Some(l) => ev.entry(l.clone()).or_default().0 += 1,
                        None => ev.entry(w.clone()).or_default().2 += 1,
                    }
                }
            }
        }
        let (mut cur, mut best, mut at) = (0usize, 0usize, Vec::new());
        for (t, (frees, ws, dead)) in ev {
            cur -= frees.min(cur);
            cur += ws;
            if cur > best {
                best = cur;
                at = t.clone();
            }
            cur -= dead.min(cur);
        }
        out.push(LiveReport { array, max_live: best, at_time: at, cells_written: cells.len(), values_written: n_values });
    }
    Ok(out)
}
