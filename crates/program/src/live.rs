//! Max-live: the largest number of values of an array live at one time under the
//! program's schedule, a lower bound on the size of any valid storage mapping
//! (004 Sec. 2.1: the cells live at one time pairwise conflict).

use crate::error::{ProgramError, Result};
use crate::model::{FxMap, Program};
use polyalloc_formulation::{Result as FResult, Set};

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

pub use crate::order::InstanceTime;

/// [`max_live`] under the order `time` instead of the statements' schedules (a
/// transformed program: the shifted and fused loops of a contraction, whose mappings
/// are valid under that order and are measured against its max-live).
pub fn max_live_under(program: &Program, params: &[i64], time: &InstanceTime<'_>) -> Result<Vec<LiveReport>> {
    simulate(program, params, Some(time))
}

/// Most statement instances [`max_live`] simulates (over all statements). Each costs
/// its time vector once and a rank; the cells cost a few words each.
pub const MAX_LIVE_INSTANCES: usize = 8_000_000;

fn simulate(program: &Program, params: &[i64], time: Option<&InstanceTime<'_>>) -> Result<Vec<LiveReport>> {
    if params.len() != program.params.len() {
        return Err(ProgramError::Invalid(format!("{} values for parameters {:?}", params.len(), program.params)));
    }
    let ord = crate::order::Ordered::build(program, params, time, MAX_LIVE_INSTANCES).map_err(|e| match e {
        ProgramError::Exec(m) => ProgramError::Exec(format!("{m}: max-live is not simulated beyond that")),
        e => e,
    })?;
    // The instances, in enumeration order: `visit(rank, statement, sparams, iter)`.
    let sparams: Vec<Vec<i64>> =
        program.statements.iter().map(|s| crate::order::statement_params(program, s, params)).collect::<Result<_>>()?;
    let replay = |visit: &mut dyn FnMut(u32, &crate::model::Statement, &[i64], &[i64]) -> FResult<()>| -> Result<()> {
        for k in 0..ord.len() {
            let (si, it, r) = ord.instance(program, k);
            visit(r, &program.statements[si], &sparams[si], it)?;
        }
        Ok(())
    };
    // Pass 2: writes. Per cell its values in write order, each with the rank of its last
    // read.
    type Values = FxMap<Vec<i64>, Vec<(u32, Option<u32>)>>;
    // By array name order, as the reports are.
    let mut names: Vec<&str> = program.statements.iter().flat_map(|s| s.writes.iter().map(|a| a.array.as_str())).collect();
    names.sort_unstable();
    names.dedup();
    let mut values: Vec<(String, Values)> = names.iter().map(|n| (n.to_string(), Values::default())).collect();
    let id = |name: &str| names.binary_search(&name).ok();
    replay(&mut |r, s, sp, it| {
        for w in &s.writes {
            if let Some(k) = id(&w.array) {
                if w.happens_at(sp, it)? {
                    values[k].1.entry(w.cell_at(sp, it)?).or_default().push((r, None));
                }
            }
        }
        Ok(())
    })?;
    values.retain(|(_, cells)| !cells.is_empty());
    let names: Vec<String> = values.iter().map(|(n, _)| n.clone()).collect();
    let id = |name: &str| names.binary_search_by(|n| n.as_str().cmp(name)).ok();
    for (array, cells) in values.iter_mut() {
        for (cell, vals) in cells.iter_mut() {
            vals.sort_unstable();
            if let Some(w) = vals.windows(2).find(|w| w[0].0 == w[1].0) {
                let at = ord.time_of_rank(w[0].0);
                return Err(ProgramError::Invalid(format!(
                    "cell {array}{cell:?} is written twice at time {at:?}: the value it holds after that time is not defined"
                )));
            }
        }
    }
    // Pass 3: reads. The value read at `t` is the last one written strictly before `t`.
    replay(&mut |r, s, sp, it| {
        for a in &s.reads {
            let Some(cells) = id(&a.array).map(|k| &mut values[k].1) else { continue };
            if !a.happens_at(sp, it)? {
                continue;
            }
            let Some(vals) = cells.get_mut(&a.cell_at(sp, it)?) else { continue };
            let k = vals.partition_point(|(w, _)| *w < r);
            if k == 0 {
                continue; // read before the first write: the cell's input value
            }
            let v = &mut vals[k - 1];
            if v.1.is_none_or(|l| r > l) {
                v.1 = Some(r);
            }
        }
        Ok(())
    })?;
    let n_ranks = ord.n_ranks();
    let mut out = Vec::new();
    for (array, cells) in values {
        // The live-out sets of the array, with their parameters' values.
        let mut lo_sets: Vec<(&Set, Vec<i64>)> = Vec::new();
        for s in program.live_out.iter().filter(|s| s.space().output.name.as_deref() == Some(array.as_str())) {
            let sparams: Vec<i64> = s
                .space()
                .params
                .iter()
                .map(|p| program.params.iter().position(|q| q == p).map(|i| params[i]).ok_or_else(|| ProgramError::Invalid(format!("unknown parameter `{p}`"))))
                .collect::<Result<_>>()?;
            lo_sets.push((s, sparams));
        }
        // Events per rank: (frees, writes, dead-after).
        let mut ev: Vec<[u32; 3]> = vec![[0; 3]; n_ranks];
        let mut n_values = 0;
        for (cell, vals) in &cells {
            let mut live_out = false;
            for (s, sparams) in &lo_sets {
                if s.space().n_dim() == cell.len() && crate::model::set_contains(s, sparams, cell)? {
                    live_out = true;
                    break;
                }
            }
            for (k, (w, last)) in vals.iter().enumerate() {
                n_values += 1;
                ev[*w as usize][1] += 1;
                let final_live_out = live_out && k + 1 == vals.len();
                if !final_live_out {
                    match last {
                        Some(l) => ev[*l as usize][0] += 1,
                        None => ev[*w as usize][2] += 1,
                    }
                }
            }
        }
        let (mut cur, mut best, mut at) = (0usize, 0usize, Vec::new());
        for (t, [frees, ws, dead]) in ev.into_iter().enumerate() {
            cur -= (frees as usize).min(cur);
            cur += ws as usize;
            if cur > best {
                best = cur;
                at = ord.time_of_rank(t as u32);
            }
            cur -= (dead as usize).min(cur);
        }
        out.push(LiveReport { array, max_live: best, at_time: at, cells_written: cells.len(), values_written: n_values });
    }
    Ok(out)
}
