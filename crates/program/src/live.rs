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
    /// Maximum number of cells simultaneously live (lower bound of any valid mapping).
    pub max_live: usize,
    /// A logical time at which it is reached (after the writes of that time).
    pub at_time: Vec<i64>,
    /// Number of cells written.
    pub cells_written: usize,
}


/// Simulates the schedule of `program` for the parameter values `params` (in
/// `program.params` order) and reports, per written array, the maximum number of cells
/// live at once. At each logical time `T`, reads happen before writes; after the writes
/// of `T` a cell counts when it was written at or before `T` and is read after `T` or is
/// live-out, and every cell written at `T` counts. Those cells pairwise conflict, so no
/// valid mapping of the array has fewer cells. Each cell must be written at most once.
pub fn max_live(program: &Program, params: &[i64]) -> Result<Vec<LiveReport>> {
    if params.len() != program.params.len() {
        return Err(ProgramError::Invalid(format!("{} values for parameters {:?}", params.len(), program.params)));
    }
    let d = program.statements.iter().map(|s| s.schedule.len()).max().unwrap_or(0);
    // array -> cell -> (write time, last read time)
    type Cells = HashMap<Vec<i64>, (Vec<i64>, Option<Vec<i64>>)>;
    let mut writes: BTreeMap<String, Cells> = BTreeMap::new();
    let mut reads: Vec<(String, Vec<i64>, Vec<i64>)> = Vec::new();
    for s in &program.statements {
        let sp = s.domain.space().clone();
        let pos: Vec<usize> = sp
            .params
            .iter()
            .map(|p| program.params.iter().position(|q| q == p).ok_or_else(|| ProgramError::Invalid(format!("unknown parameter `{p}`"))))
            .collect::<Result<_>>()?;
        let sparams: Vec<i64> = pos.iter().map(|&i| params[i]).collect();
        let mut err: Option<ProgramError> = None;
        s.domain.clone().for_each_point(&sparams, &mut |it| -> FResult<bool> {
            let mut t: Vec<i64> = s.schedule.iter().map(|a| a.eval(&sparams, it)).collect::<FResult<_>>()?;
            t.resize(d, 0);
            for w in &s.writes {
                if !w.happens_at(&sparams, it)? {
                    continue;
                }
                let cell = w.cell_at(&sparams, it)?;
                let e = writes.entry(w.array.clone()).or_default();
                if e.insert(cell.clone(), (t.clone(), None)).is_some() {
                    err = Some(ProgramError::Invalid(format!(
                        "cell {}{cell:?} is written more than once (not single-assignment)",
                        w.array
                    )));
                    return Ok(false);
                }
            }
            for r in &s.reads {
                if !r.happens_at(&sparams, it)? {
                    continue;
                }
                let cell = r.cell_at(&sparams, it)?;
                reads.push((r.array.clone(), cell, t.clone()));
            }
            Ok(true)
        })?;
        if let Some(e) = err {
            return Err(e);
        }
    }
    for (a, cell, t) in reads {
        if let Some(c) = writes.get_mut(&a).and_then(|m| m.get_mut(&cell)) {
            if t > c.0 && c.1.as_ref().is_none_or(|l| t > *l) {
                c.1 = Some(t);
            }
        }
    }
    let mut out = Vec::new();
    for (array, cells) in writes {
        let lo_sets: Vec<&Set> =
            program.live_out.iter().filter(|s| s.space().output.name.as_deref() == Some(array.as_str())).collect();
        // Events per time: (frees, writes, dead-after).
        let mut ev: BTreeMap<Vec<i64>, (usize, usize, usize)> = BTreeMap::new();
        for (cell, (w, last)) in &cells {
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
            ev.entry(w.clone()).or_default().1 += 1;
            if !live_out {
                match last {
                    Some(l) => ev.entry(l.clone()).or_default().0 += 1,
                    None => ev.entry(w.clone()).or_default().2 += 1,
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
        out.push(LiveReport { array, max_live: best, at_time: at, cells_written: cells.len() });
    }
    Ok(out)
}
