//! Max-live: the largest number of values of an array live at one time under the
//! program's schedule, a lower bound on the size of any valid storage mapping
//! (Bhaskaracharya et al. 2016, Sec. 2.1: the cells live at one time pairwise conflict).

use crate::compiled::{AccessAt, SetAt};
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

/// [`max_live`] in the order `ord` of the program's schedules at `params`, built once
/// for several simulations of programs with the same statements (the same domains and
/// schedules: see [`crate::order::Ordered::is_of`]; another order is an error).
pub fn max_live_in(program: &Program, params: &[i64], ord: &crate::order::Ordered) -> Result<Vec<LiveReport>> {
    if params.len() != program.params.len() {
        return Err(ProgramError::Invalid(format!("{} values for parameters {:?}", params.len(), program.params)));
    }
    if !ord.is_of(program, params) {
        return Err(ProgramError::Invalid("max-live: the order was built for other statements or parameters".into()));
    }
    if ord.len() > MAX_LIVE_INSTANCES {
        return Err(ProgramError::Exec(format!(
            "more than {MAX_LIVE_INSTANCES} statement instances at {params:?}: max-live is not simulated beyond that"
        )));
    }
    simulate_in(program, params, ord)
}

/// Most statement instances [`max_live`] simulates (over all statements). Each costs
/// its time vector once and a rank; the cells cost a few words each.
pub const MAX_LIVE_INSTANCES: usize = 8_000_000;

/// The cells of one array in a simulation, each with an index: dense over the box of
/// the cells when it is not much larger than the cells written, else hashed.
enum CellIndex {
    /// Row-major over the box `lo + [0, ext)`.
    Dense { lo: Vec<i64>, ext: Vec<i64> },
    /// In order of first write (cells of any number of dimensions).
    Sparse { ids: FxMap<Vec<i64>, u32>, cells: Vec<Vec<i64>> },
}

/// Cells of the box of an array's written cells that max-live indexes densely, per
/// value written (with a floor for small arrays): 8 bytes a cell, never more than the
/// hashed cells would take.
const DENSE_CELLS_PER_WRITE: u128 = 4;
const DENSE_CELLS_MIN: u128 = 1 << 16;
/// Most cells of a dense box (64 M, 512 MB of indices).
const DENSE_CELLS_MAX: u128 = 1 << 26;

impl CellIndex {
    /// The index of `cell`, `None` outside the box or never inserted.
    #[inline]
    fn get(&self, cell: &[i64]) -> Option<usize> {
        match self {
            CellIndex::Dense { lo, ext } => crate::exec::box_index(lo, ext, cell),
            CellIndex::Sparse { ids, .. } => ids.get(cell).map(|&k| k as usize),
        }
    }
    /// The cell of index `k`, into `out`.
    fn cell(&self, k: usize, out: &mut Vec<i64>) {
        out.clear();
        match self {
            CellIndex::Dense { lo, ext } => {
                out.resize(lo.len(), 0);
                let mut r = k as i128;
                for d in (0..lo.len()).rev() {
                    let e = ext[d] as i128;
                    out[d] = (lo[d] as i128 + r % e) as i64;
                    r /= e;
                }
            }
            CellIndex::Sparse { cells, .. } => out.extend_from_slice(&cells[k]),
        }
    }
}

/// No value (a rank).
const NONE: u32 = u32::MAX;
/// A cell written more than once: its values are in the array's `multi` map.
const MULTI: u32 = u32::MAX - 1;

/// The values of one array's cells: per cell index its one write (rank, or
/// [`NONE`] / [`MULTI`]) and the rank of the last read of that value ([`NONE`]: never
/// read); the cells written several times with their values in write order.
struct ArrayValues {
    name: String,
    index: CellIndex,
    first: Vec<u32>,
    last: Vec<u32>,
    multi: FxMap<u32, Vec<(u32, Option<u32>)>>,
}

fn simulate(program: &Program, params: &[i64], time: Option<&InstanceTime<'_>>) -> Result<Vec<LiveReport>> {
    if params.len() != program.params.len() {
        return Err(ProgramError::Invalid(format!("{} values for parameters {:?}", params.len(), program.params)));
    }
    let ord = crate::order::Ordered::build(program, params, time, MAX_LIVE_INSTANCES).map_err(|e| match e {
        ProgramError::Exec(m) => ProgramError::Exec(format!("{m}: max-live is not simulated beyond that")),
        e => e,
    })?;
    simulate_in(program, params, &ord)
}

fn simulate_in<'a>(program: &'a Program, params: &[i64], ord: &crate::order::Ordered) -> Result<Vec<LiveReport>> {
    if ord.n_ranks() >= MULTI as usize {
        return Err(ProgramError::Exec(format!("{} distinct times: max-live is not simulated beyond {}", ord.n_ranks(), MULTI - 1)));
    }
    let sparams: Vec<Vec<i64>> = program.statements.iter().map(|s| crate::order::statement_params(program, s, params)).collect::<Result<_>>()?;
    // By array name order, as the reports are.
    let mut names: Vec<&str> = program.statements.iter().flat_map(|s| s.writes.iter().map(|a| a.array.as_str())).collect();
    names.sort_unstable();
    names.dedup();
    let id = |name: &str| names.binary_search(&name).ok();
    // Per statement: its writes and reads of written arrays, at the parameters.
    type Accs<'a> = Vec<(AccessAt<'a>, usize)>;
    let accs: Vec<(Accs<'a>, Accs<'a>)> = program
        .statements
        .iter()
        .zip(&sparams)
        .map(|(s, sp)| {
            let m = s.domain.space().n_dim();
            let of = |list: &'a [crate::model::Access]| -> Accs<'a> {
                list.iter().filter_map(|a| id(&a.array).map(|k| (AccessAt::new(a, sp, m), k))).collect()
            };
            (of(&s.writes), of(&s.reads))
        })
        .collect();
    // The instances, in enumeration order: `visit(rank, statement, iteration)`.
    type Visit<'v> = dyn FnMut(u32, usize, &[i64]) -> FResult<()> + 'v;
    let replay = |visit: &mut Visit<'_>| -> Result<()> {
        for k in 0..ord.len() {
            let (si, it, r) = ord.instance(program, k);
            visit(r, si, it)?;
        }
        Ok(())
    };
    let mut cell: Vec<i64> = Vec::new();
    // Pass 1: the box of each array's written cells, and its number of values.
    let mut boxes: Vec<Option<(Vec<i64>, Vec<i64>)>> = vec![None; names.len()];
    let mut n_writes: Vec<u128> = vec![0; names.len()];
    // Arrays written with several numbers of subscripts (hashed).
    let mut mixed: Vec<bool> = vec![false; names.len()];
    replay(&mut |_, si, it| {
        for (w, k) in &accs[si].0 {
            if w.happens_at(it)? {
                w.cell_into(it, &mut cell)?;
                n_writes[*k] += 1;
                match &mut boxes[*k] {
                    Some((lo, hi)) if lo.len() == cell.len() => {
                        for d in 0..cell.len() {
                            lo[d] = lo[d].min(cell[d]);
                            hi[d] = hi[d].max(cell[d]);
                        }
                    }
                    b @ None => *b = Some((cell.clone(), cell.clone())),
                    Some(_) => mixed[*k] = true,
                }
            }
        }
        Ok(())
    })?;
    let mut values: Vec<ArrayValues> = names
        .iter()
        .zip(&boxes)
        .zip(&n_writes)
        .zip(&mixed)
        .map(|(((name, b), &nw), &mixed)| {
            let dense = b.as_ref().filter(|_| !mixed).and_then(|(lo, hi)| {
                let ext: Vec<i64> = lo.iter().zip(hi).map(|(l, h)| i64::try_from(*h as i128 - *l as i128 + 1).ok()).collect::<Option<_>>()?;
                let n: u128 = ext.iter().map(|&e| e.max(0) as u128).fold(1u128, |a, b| a.saturating_mul(b));
                (n <= (nw * DENSE_CELLS_PER_WRITE).max(DENSE_CELLS_MIN) && n <= DENSE_CELLS_MAX).then(|| (lo.clone(), ext, n as usize))
            });
            let (index, n) = match dense {
                Some((lo, ext, n)) => (CellIndex::Dense { lo, ext }, n),
                None => (CellIndex::Sparse { ids: FxMap::default(), cells: Vec::new() }, 0),
            };
            ArrayValues { name: name.to_string(), index, first: vec![NONE; n], last: vec![NONE; n], multi: FxMap::default() }
        })
        .collect();
    // Pass 2: writes. Per cell its values in write order, each with the rank of its last
    // read.
    replay(&mut |r, si, it| {
        for (w, k) in &accs[si].0 {
            if !w.happens_at(it)? {
                continue;
            }
            w.cell_into(it, &mut cell)?;
            let a = &mut values[*k];
            let c = match a.index.get(&cell) {
                Some(c) => c,
                None => match &mut a.index {
                    CellIndex::Sparse { ids, cells } => {
                        let c = a.first.len();
                        ids.insert(cell.clone(), c as u32);
                        cells.push(cell.clone());
                        a.first.push(NONE);
                        a.last.push(NONE);
                        c
                    }
                    // The box holds every written cell (pass 1).
                    CellIndex::Dense { .. } => {
                        return Err(polyalloc_formulation::Error::Limit(format!("cell {}{cell:?} outside the box of its written cells", a.name)))
                    }
                },
            };
            match a.first[c] {
                NONE => a.first[c] = r,
                MULTI => a.multi.entry(c as u32).or_default().push((r, None)),
                w0 => {
                    a.multi.insert(c as u32, vec![(w0, None), (r, None)]);
                    a.first[c] = MULTI;
                }
            }
        }
        Ok(())
    })?;
    values.retain(|a| a.first.iter().any(|&f| f != NONE));
    for a in values.iter_mut() {
        let mut cells: Vec<u32> = a.multi.keys().copied().collect();
        cells.sort_unstable();
        for c in cells {
            let Some(vals) = a.multi.get_mut(&c) else { continue };
            vals.sort_unstable();
            if let Some(w) = vals.windows(2).find(|w| w[0].0 == w[1].0) {
                let at = ord.time_of_rank(w[0].0);
                a.index.cell(c as usize, &mut cell);
                return Err(ProgramError::Invalid(format!(
                    "cell {}{cell:?} is written twice at time {at:?}: the value it holds after that time is not defined",
                    a.name
                )));
            }
        }
    }
    // Pass 3: reads. The value read at `t` is the last one written strictly before `t`.
    let ids: Vec<Option<usize>> = names.iter().map(|n| values.iter().position(|a| a.name == *n)).collect();
    replay(&mut |r, si, it| {
        for (ra, k) in &accs[si].1 {
            let Some(a) = ids[*k].map(|k| &mut values[k]) else { continue };
            if !ra.happens_at(it)? {
                continue;
            }
            ra.cell_into(it, &mut cell)?;
            let Some(c) = a.index.get(&cell) else { continue };
            match a.first[c] {
                NONE => {} // never written
                MULTI => {
                    let Some(vals) = a.multi.get_mut(&(c as u32)) else { continue };
                    let k = vals.partition_point(|(w, _)| *w < r);
                    if k == 0 {
                        continue; // read before the first write: the cell's input value
                    }
                    let v = &mut vals[k - 1];
                    if v.1.is_none_or(|l| r > l) {
                        v.1 = Some(r);
                    }
                }
                w => {
                    if w < r && (a.last[c] == NONE || r > a.last[c]) {
                        a.last[c] = r;
                    }
                }
            }
        }
        Ok(())
    })?;
    let n_ranks = ord.n_ranks();
    let mut out = Vec::new();
    for a in values {
        let array = a.name;
        // The live-out sets of the array, with their parameters' values.
        let mut lo_sets: Vec<(&Set, SetAt<'_>)> = Vec::new();
        for s in program.live_out.iter().filter(|s| s.space().output.name.as_deref() == Some(array.as_str())) {
            let sparams: Vec<i64> = s
                .space()
                .params
                .iter()
                .map(|p| {
                    program
                        .params
                        .iter()
                        .position(|q| q == p)
                        .map(|i| params[i])
                        .ok_or_else(|| ProgramError::Invalid(format!("unknown parameter `{p}`")))
                })
                .collect::<Result<_>>()?;
            lo_sets.push((s, SetAt::new(s, &sparams)));
        }
        // Events per rank: (frees, writes, dead-after).
        let mut ev: Vec<[u32; 3]> = vec![[0; 3]; n_ranks];
        let mut n_values = 0;
        let mut n_cells = 0;
        for c in 0..a.first.len() {
            let vals: &[(u32, Option<u32>)] = match a.first[c] {
                NONE => continue,
                MULTI => match a.multi.get(&(c as u32)) {
                    Some(v) => v,
                    None => continue,
                },
                w => &[(w, if a.last[c] == NONE { None } else { Some(a.last[c]) })],
            };
            n_cells += 1;
            let mut live_out = false;
            if !lo_sets.is_empty() {
                a.index.cell(c, &mut cell);
                for (s, set) in &lo_sets {
                    if s.space().n_dim() == cell.len() && set.contains(&cell)? {
                        live_out = true;
                        break;
                    }
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
        out.push(LiveReport { array, max_live: best, at_time: at, cells_written: n_cells, values_written: n_values });
    }
    Ok(out)
}
