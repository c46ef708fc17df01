//! The executor: runs a program for concrete parameters under its original order and
//! under another order (a schedule, or the trace of rearranged loops) and storage
//! mapping, and compares every value read and every live-out value.
//!
//! This is the end-to-end proof used by every method of polyalloc: a schedule is legal
//! and a storage mapping is safe on an instance iff the transformed run reads exactly
//! the values the original run reads, and leaves the same live-out values.
//!
//! * The program is a [`Program`] (statements with domains, the
//!   original schedule as multi-dimensional affine time, write and read accesses with
//!   guards, live-out cells). Each statement gets a [`Body`], a Rust closure from the
//!   values it reads to the values it writes; [`hash_body`] is a default whose result
//!   depends on every input and on the instance, so that any reordering that changes a
//!   value read is detected.
//! * An order is a [`Trace`]: a sequence of steps, each a set of instances executed
//!   *in parallel* (a `forall`, or the statements scheduled at one moment). Within a
//!   step every instance reads the memory as it was before the step, then all writes
//!   happen; two writes to one storage location in a step are reported. The original
//!   order is the lexicographic order of the original schedule (one instance per step).
//! * Storage: by default every array cell has its own location. A
//!   [`polyalloc_formulation::ModularMapping`] per array (from any allocator) folds
//!   cells onto locations; a read of a cell not yet written in the run reads the
//!   array's initial value (an input), a later read reads the location. When the
//!   program gives the array a fold region ([`Program::fold_regions`]), only the cells
//!   inside it are folded; the others keep a location of their own.
//! * Comparison: every read of every instance (by statement, iteration and read
//!   index), and every live-out cell (all written cells of unmapped arrays and, of a
//!   mapped array, its written cells outside its fold region; the program's `live_out`
//!   cells of mapped arrays) at the end.
//!
//! Values are `i64`; bodies should use wrapping arithmetic.
//!
//! ```
//! use polyalloc_formulation::ModularMapping;
//! use polyalloc_program::{Program, Statement};
//! use polyalloc_program::exec::{Executor, Storage};
//!
//! // Bhaskaracharya et al. 2016, Fig. 2: A[t, i] = f(A[t, i - 1], A[t - 1, i]) under the schedule (t, i).
//! let mut p = Program::new("[N] -> { : N >= 2 }")?;
//! p.add_statement(Statement::parse(
//!     "[N] -> { S[t, i] : 1 <= t <= N and 1 <= i <= N }",
//!     "[N] -> { S[t, i] -> [t, i] }",
//!     &["[N] -> { S[t, i] -> A[t, i] }"],
//!     &["[N] -> { S[t, i] -> A[t, i - 1] }", "[N] -> { S[t, i] -> A[t - 1, i] }"],
//! )?)?;
//! p.add_live_out("[N] -> { A[t, i] : 1 <= t <= N and 1 <= i <= N and (i = N or t = N) }")?;
//! let exec = Executor::with_hash_bodies(p);
//! let params = [5];
//! // The original order with the SMO mapping of Bhaskaracharya et al. 2016, Sec. 3.1: 2N - 1 cells suffice.
//! let mut storage = Storage::new();
//! storage.insert("A".into(), ModularMapping::parse("[N] -> { A[t, i] -> A[(i - t) mod (2N - 1)] }")?);
//! let report = exec.compare(&params, &exec.original_trace(&params)?, &storage)?;
//! assert!(report.ok(), "{}", report.summary());
//! // A wavefront schedule t + i (all instances of an anti-diagonal in parallel).
//! let report = exec.compare_schedule(&params, &|_, it| Ok(vec![it[0] + it[1]]), &Storage::new())?;
//! assert!(report.ok());
//! // Running each row t in parallel breaks the dependence on A[t, i - 1].
//! let report = exec.compare_schedule(&params, &|_, it| Ok(vec![it[0]]), &Storage::new())?;
//! assert!(!report.ok());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::compiled::{self, AccessAt, SetAt};
use crate::error::{ProgramError, Result};
use crate::model::{set_contains, Program};
use polyalloc_formulation::{ModularMapping, Set};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

/// Statement instances (over all statements) a trace of the executor holds at most. A
/// comparison keeps each instance several times (two traces, the coverage set, the
/// reads of both runs): about 1.5 kB an instance at the peak (Song et al. 2005's method, which runs
/// the executor itself, then verifies: 1,000,000 instances took 1.5 GB and 31 s), so
/// at most about 0.4 GB here. It was 2,000,000 per statement: 2.9 GB for two
/// statements, and no bound at all for more statements.
pub const INSTANCE_LIMIT: usize = 250_000;

/// Statement instances [`Executor::compare_placed`] runs at most: its order is counted
/// first and stored as one flat enumeration, a few words an instance.
pub const PLACED_INSTANCE_LIMIT: usize = 8_000_000;

/// Every instance of every statement of `program` at `params`, statement by statement
/// (domain order), at most `limit` in all: more is [`ProgramError::Exec`], counted
/// before the statement's points are stored.
pub fn all_instances(program: &Program, params: &[i64], limit: usize) -> Result<Vec<Instance>> {
    let mut out: Vec<Instance> = Vec::new();
    for (k, s) in program.statements.iter().enumerate() {
        let left = limit - out.len();
        let points = match s.domain.enumerate(params, left) {
            Ok(p) => p,
            Err(polyalloc_formulation::Error::TooManyPoints(_)) => {
                return Err(ProgramError::Exec(format!("more than {limit} statement instances at {params:?}: not executed beyond that")))
            }
            Err(e) => return Err(e.into()),
        };
        out.extend(points.into_iter().map(|it| (k, it)));
    }
    Ok(out)
}

/// What a body sees: the parameters and the iteration.
#[derive(Clone, Copy, Debug)]
pub struct Ctx<'a> {
    /// Statement index in the program.
    pub stmt: usize,
    /// Parameter values.
    pub params: &'a [i64],
    /// Iteration vector.
    pub iter: &'a [i64],
}

/// A statement body: from the values read (one per read access, in order; `None` when
/// the access's guard excludes this iteration) to the values written (one per write
/// access, in order).
pub type Body = Box<dyn Fn(&Ctx<'_>, &[Option<i64>]) -> Vec<i64> + Send + Sync>;

fn mix(mut h: u64, v: u64) -> u64 {
    h ^= v.wrapping_add(0x9E37_79B9_7F4A_7C15).wrapping_add(h << 6).wrapping_add(h >> 2);
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 31)
}

/// A body whose written values hash the statement, the write index and every value
/// read (not the iteration: two instances reading the same values write the same
/// values, as real code does; the iteration is mixed in only through `salt_iter`).
pub fn hash_body(n_writes: usize, salt_iter: bool) -> Body {
    Box::new(move |ctx, reads| {
        let mut out = Vec::with_capacity(n_writes);
        hash_values(ctx, reads, n_writes, salt_iter, &mut out);
        out
    })
}

/// The values [`hash_body`] writes, into `out` (cleared first).
#[inline]
fn hash_values(ctx: &Ctx<'_>, reads: &[Option<i64>], n_writes: usize, salt_iter: bool, out: &mut Vec<i64>) {
    let mut h = mix(0x1234_5678, ctx.stmt as u64);
    if salt_iter {
        for &v in ctx.iter {
            h = mix(h, v as u64);
        }
    }
    for r in reads {
        h = mix(h, r.map_or(0xDEAD_BEEF, |v| v as u64));
    }
    out.clear();
    out.extend((0..n_writes).map(|w| mix(h, w as u64 + 1) as i64));
}

/// The initial value of an array cell (an input of the program).
pub fn initial_value(array: &str, cell: &[i64]) -> i64 {
    initial_value_after(name_hash(array), cell)
}

/// The part of [`initial_value`] that depends on the array only.
fn name_hash(array: &str) -> u64 {
    let mut h = 0xABCDu64;
    for b in array.bytes() {
        h = mix(h, b as u64);
    }
    h
}

/// [`initial_value`] from the array's [`name_hash`].
fn initial_value_after(mut h: u64, cell: &[i64]) -> i64 {
    for &v in cell {
        h = mix(h, v as u64);
    }
    h as i64
}

/// A cell of an array (at most [`CellKey::MAX_DIMS`] dimensions) as a hash key without
/// allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct CellKey {
    array: u32,
    n: u8,
    c: [i64; CellKey::MAX_DIMS],
}

impl CellKey {
    const MAX_DIMS: usize = 8;
    /// The error of a cell of more than [`CellKey::MAX_DIMS`] dimensions.
    #[inline]
    fn check(cell: &[i64]) -> Result<()> {
        if cell.len() > Self::MAX_DIMS {
            return Err(ProgramError::Invalid(format!("an array of {} dimensions (at most {} are run)", cell.len(), Self::MAX_DIMS)));
        }
        Ok(())
    }
    fn new(array: u32, cell: &[i64]) -> Result<CellKey> {
        Self::check(cell)?;
        let mut c = [0; Self::MAX_DIMS];
        c[..cell.len()].copy_from_slice(cell);
        Ok(CellKey { array, n: cell.len() as u8, c })
    }
    fn cell(&self) -> &[i64] {
        &self.c[..self.n as usize]
    }
}

/// Cells of one storage array in a run: dense over the box of the cells the run
/// touches when it has at most [`DENSE_CELLS`] cells, else hashed.
enum Store {
    Dense { lo: Vec<i64>, ext: Vec<i64>, vals: Vec<i64>, set: Vec<u64> },
    Sparse(crate::model::FxMap<CellKey, i64>),
}

/// The row-major index of `cell` in the box of lower corner `lo` and extents `ext`
/// (`None` outside it): the dense index of the executor's stores and of max-live.
#[inline]
pub(crate) fn box_index(lo: &[i64], ext: &[i64], cell: &[i64]) -> Option<usize> {
    if cell.len() != lo.len() {
        return None;
    }
    let mut idx: usize = 0;
    for ((c, l), e) in cell.iter().zip(lo).zip(ext) {
        let d = *c as i128 - *l as i128;
        if d < 0 || d >= *e as i128 {
            return None;
        }
        idx = idx * (*e as usize) + d as usize;
    }
    Some(idx)
}

/// The extents of the box `lo..=hi` and its number of cells, `None` when an extent
/// does not fit an `i64`.
fn box_extents(lo: &[i64], hi: &[i64]) -> Option<(Vec<i64>, u128)> {
    let ext: Vec<i64> = lo.iter().zip(hi).map(|(l, h)| i64::try_from(*h as i128 - *l as i128 + 1).ok()).collect::<Option<_>>()?;
    let n = ext.iter().map(|&e| e.max(0) as u128).fold(1u128, |a, b| a.saturating_mul(b));
    Some((ext, n))
}

/// Most cells of a storage array kept dense by [`Executor::compare_placed`].
const DENSE_CELLS: u128 = 1 << 26;

/// The memory of a run: one [`Store`] per storage array.
struct Mem {
    stores: Vec<Store>,
}

impl Mem {
    /// Boxes per storage array (`None`: never touched).
    fn new(boxes: &[Option<(Vec<i64>, Vec<i64>)>]) -> Mem {
        let stores = boxes
            .iter()
            .map(|b| match b.as_ref().and_then(|(lo, hi)| box_extents(lo, hi).map(|(ext, n)| (lo, ext, n))) {
                Some((lo, ext, n)) if n <= DENSE_CELLS => {
                    Store::Dense { lo: lo.clone(), ext, vals: vec![0; n as usize], set: vec![0; (n as usize).div_ceil(64)] }
                }
                _ => Store::Sparse(Default::default()),
            })
            .collect();
        Mem { stores }
    }
    #[inline]
    fn slot(lo: &[i64], ext: &[i64], cell: &[i64]) -> Option<usize> {
        box_index(lo, ext, cell)
    }
    /// The slot of `cell` in the dense store of storage array `a` (`None`: outside its
    /// box, or a hashed store).
    #[inline]
    fn dense_slot(&self, a: u32, cell: &[i64]) -> Option<usize> {
        match &self.stores[a as usize] {
            Store::Dense { lo, ext, .. } => Self::slot(lo, ext, cell),
            Store::Sparse(_) => None,
        }
    }
    /// The value at slot `k` of the dense store of storage array `a` (a slot of
    /// [`Mem::dense_slot`]), `None` when not written.
    #[inline]
    fn get_slot(&self, a: u32, k: usize) -> Result<Option<i64>> {
        match &self.stores[a as usize] {
            Store::Dense { vals, set, .. } => Ok((set[k / 64] >> (k % 64) & 1 == 1).then(|| vals[k])),
            Store::Sparse(_) => Err(ProgramError::Exec(format!("slot {k} of a hashed store"))),
        }
    }
    /// Writes `v` at slot `k` of the dense store of storage array `a`.
    #[inline]
    fn insert_slot(&mut self, a: u32, k: usize, v: i64) -> Result<()> {
        match &mut self.stores[a as usize] {
            Store::Dense { vals, set, .. } => {
                vals[k] = v;
                set[k / 64] |= 1 << (k % 64);
                Ok(())
            }
            Store::Sparse(_) => Err(ProgramError::Exec(format!("slot {k} of a hashed store"))),
        }
    }
    /// The cell at slot `k` of the dense store of storage array `a`, into `out`.
    fn cell_of_slot(&self, a: u32, k: usize, out: &mut Vec<i64>) {
        out.clear();
        if let Store::Dense { lo, ext, .. } = &self.stores[a as usize] {
            out.resize(lo.len(), 0);
            let mut r = k as i64;
            for d in (0..lo.len()).rev() {
                out[d] = lo[d] + r % ext[d];
                r /= ext[d];
            }
        }
    }
    /// The value of `cell` of storage array `a`, `None` when not written.
    #[inline]
    fn get_at(&self, a: u32, cell: &[i64]) -> Result<Option<i64>> {
        match &self.stores[a as usize] {
            Store::Dense { lo, ext, vals, set } => Ok(Self::slot(lo, ext, cell).and_then(|k| (set[k / 64] >> (k % 64) & 1 == 1).then(|| vals[k]))),
            Store::Sparse(m) => Ok(m.get(&CellKey::new(a, cell)?).copied()),
        }
    }
    /// Writes `v` to `cell` of storage array `a`.
    #[inline]
    fn insert_at(&mut self, a: u32, cell: &[i64], v: i64) -> Result<()> {
        match &mut self.stores[a as usize] {
            Store::Dense { lo, ext, vals, set } => {
                let k = Self::slot(lo, ext, cell).ok_or_else(|| ProgramError::Exec(format!("cell {cell:?} outside the run's box")))?;
                vals[k] = v;
                set[k / 64] |= 1 << (k % 64);
            }
            Store::Sparse(m) => {
                m.insert(CellKey::new(a, cell)?, v);
            }
        }
        Ok(())
    }
    fn get(&self, key: &CellKey) -> Option<i64> {
        match &self.stores[key.array as usize] {
            Store::Dense { lo, ext, vals, set } => {
                let k = Self::slot(lo, ext, key.cell())?;
                (set[k / 64] >> (k % 64) & 1 == 1).then(|| vals[k])
            }
            Store::Sparse(m) => m.get(key).copied(),
        }
    }
    /// Every written cell of the store of storage array `a`.
    fn keys_of(a: u32, st: &Store) -> Vec<CellKey> {
        let mut out = Vec::new();
        match st {
            Store::Dense { lo, ext, set, .. } => {
                for (w, bits) in set.iter().enumerate() {
                    let mut b = *bits;
                    while b != 0 {
                        let k = w * 64 + b.trailing_zeros() as usize;
                        b &= b - 1;
                        let mut cell = vec![0i64; lo.len()];
                        let mut r = k as i64;
                        for d in (0..lo.len()).rev() {
                            cell[d] = lo[d] + r % ext[d];
                            r /= ext[d];
                        }
                        if let Ok(key) = CellKey::new(a, &cell) {
                            out.push(key);
                        }
                    }
                }
            }
            Store::Sparse(m) => out.extend(m.keys().copied()),
        }
        out
    }
}

/// Where the cells of one placed array go in a placed run, computed once per cell (a
/// placement is a function of the cell), over the box of the cells the program
/// accesses: after the first pass, each cell's location in the transformed run's
/// memory.
struct PlaceCache {
    lo: Vec<i64>,
    ext: Vec<i64>,
    /// The cells whose placement is known (first pass).
    seen: Vec<u64>,
    /// Per cell: `storage id << 40 | slot` in the transformed run's dense memory, or
    /// [`UNCACHED`].
    code: Vec<u64>,
}

/// A cell whose location is not cached (a hashed store): placed again at each access.
const UNCACHED: u64 = u64::MAX;

/// Most cells of a [`PlaceCache`] (9 bytes a cell), per instance of the run (with a
/// floor for small runs) and in all.
const CACHE_CELLS_PER_INSTANCE: u128 = 4;
const CACHE_CELLS_MIN: u128 = 1 << 16;
const CACHE_CELLS_MAX: u128 = 1 << 23;

/// Where a transformed program keeps a cell ([`Executor::compare_placed`]):
/// `place(array, cell, index)` writes the cell's index in its storage array into `index`
/// and returns that storage array's position in the run's list of storage arrays, or
/// `None` when the cell stays where it is. A function of the cell: a run asks it about
/// each cell once or twice, not at every access.
pub type PlaceFn<'a> = &'a dyn Fn(&str, &[i64], &mut Vec<i64>) -> Result<Option<usize>>;

/// A time function: statement index and iteration to a time vector (compared
/// lexicographically).
pub type TimeFn<'a> = &'a dyn Fn(usize, &[i64]) -> Result<Vec<i64>>;

/// One statement instance: statement index and iteration vector.
pub type Instance = (usize, Vec<i64>);

/// An execution order: steps executed in sequence, the instances of one step in parallel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The steps.
    pub steps: Vec<Vec<Instance>>,
}

impl Trace {
    /// Number of instances.
    pub fn len(&self) -> usize {
        self.steps.iter().map(Vec::len).sum()
    }
    /// True when no instance is executed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A difference between the original run and the transformed run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// A read returned another value.
    Read { stmt: String, iter: Vec<i64>, read: usize, array: String, cell: Vec<i64>, expected: i64, got: i64 },
    /// A live-out cell has another final value.
    LiveOut { array: String, cell: Vec<i64>, expected: i64, got: i64 },
    /// An instance of the domain is not executed.
    Missing { stmt: String, iter: Vec<i64> },
    /// An instance is executed twice, or is not in its statement's domain.
    Spurious { stmt: String, iter: Vec<i64>, why: String },
    /// Two instances of one parallel step write the same storage location.
    WriteConflict { array: String, location: Vec<i64>, step: usize },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Read { stmt, iter, read, array, cell, expected, got } => {
                write!(f, "{stmt}{iter:?} read #{read} of {array}{cell:?}: expected {expected}, got {got}")
            }
            Mismatch::LiveOut { array, cell, expected, got } => {
                write!(f, "live-out {array}{cell:?}: expected {expected}, got {got}")
            }
            Mismatch::Missing { stmt, iter } => write!(f, "{stmt}{iter:?} is never executed"),
            Mismatch::Spurious { stmt, iter, why } => write!(f, "{stmt}{iter:?}: {why}"),
            Mismatch::WriteConflict { array, location, step } => {
                write!(f, "step {step}: two writes to location {location:?} of {array}")
            }
        }
    }
}

/// The outcome of a comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExecReport {
    /// Instances executed by the original run.
    pub instances: usize,
    /// Steps of the transformed run.
    pub steps: usize,
    /// Reads compared.
    pub reads_compared: usize,
    /// Live-out cells compared.
    pub live_out_compared: usize,
    /// Number of mismatches found.
    pub n_mismatches: usize,
    /// The first mismatches (at most [`ExecReport::KEEP`]).
    pub mismatches: Vec<Mismatch>,
}

impl ExecReport {
    /// Mismatches kept in the report.
    pub const KEEP: usize = 20;
    /// True when the transformed run computed exactly what the original computes.
    pub fn ok(&self) -> bool {
        self.n_mismatches == 0
    }
    fn push(&mut self, m: Mismatch) {
        self.n_mismatches += 1;
        if self.mismatches.len() < Self::KEEP {
            self.mismatches.push(m);
        }
    }
    /// One line: `ok: 120 instances, 300 reads, 40 live-out` or the first mismatch.
    pub fn summary(&self) -> String {
        let base = format!(
            "{} instances in {} steps, {} reads and {} live-out values compared",
            self.instances, self.steps, self.reads_compared, self.live_out_compared
        );
        match self.mismatches.first() {
            None => format!("ok: {base}"),
            Some(m) => format!("FAILED ({} mismatches, first: {m}): {base}", self.n_mismatches),
        }
    }
}

/// Storage mappings by array name (arrays without one: one location per cell).
pub type Storage = BTreeMap<String, ModularMapping>;

/// A program with statement bodies, ready to run.
pub struct Executor {
    program: Program,
    bodies: Vec<Body>,
    reductions: Vec<String>,
    /// The bodies are [`hash_body`]s salted with the iteration (the placed runs compute
    /// their values without a call or an allocation).
    hash_bodies: bool,
}

impl fmt::Debug for Executor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Executor").field("program", &self.program).finish_non_exhaustive()
    }
}

/// A storage location: the array, whether the cell is folded by the array's mapping,
/// and the mapped cell (folded) or the cell itself (not folded).
type Location = (String, bool, Vec<i64>);

struct Memory<'s> {
    storage: &'s Storage,
    regions: &'s [Set],
    params: &'s [i64],
    cells: HashMap<Location, i64>,
    written: HashSet<(String, Vec<i64>)>,
}

/// True when `cell` of `array` is folded by a mapping of the array: every cell, or the
/// cells of its fold region when the program gives one.
fn in_fold_region(regions: &[Set], params: &[i64], array: &str, cell: &[i64]) -> Result<bool> {
    match regions.iter().find(|s| s.space().output.name.as_deref() == Some(array)) {
        Some(r) if r.space().n_dim() == cell.len() => Ok(set_contains(r, params, cell)?),
        Some(r) => Err(ProgramError::Invalid(format!("the fold region of `{array}` has {} dimensions, the array {}", r.space().n_dim(), cell.len()))),
        None => Ok(true),
    }
}

impl<'s> Memory<'s> {
    fn location(&self, array: &str, cell: &[i64]) -> Result<Location> {
        match self.storage.get(array) {
            Some(m) if in_fold_region(self.regions, self.params, array, cell)? => Ok((array.to_string(), true, m.apply(self.params, cell)?)),
            _ => Ok((array.to_string(), false, cell.to_vec())),
        }
    }
    fn read(&self, array: &str, cell: &[i64]) -> Result<i64> {
        if !self.written.contains(&(array.to_string(), cell.to_vec())) {
            return Ok(initial_value(array, cell));
        }
        let loc = self.location(array, cell)?;
        self.cells.get(&loc).copied().ok_or_else(|| ProgramError::Exec(format!("location of written cell {array}{cell:?} holds no value")))
    }
}

impl Executor {
    /// A program with one body per statement (in statement order).
    pub fn new(program: Program, bodies: Vec<Body>) -> Result<Executor> {
        if bodies.len() != program.statements.len() {
            return Err(ProgramError::Invalid(format!("{} bodies for {} statements", bodies.len(), program.statements.len())));
        }
        Ok(Executor { program, bodies, reductions: vec![], hash_bodies: false })
    }

    /// Marks arrays updated by reductions (Pugh 1991, Sec. 3): the intermediate values that
    /// updaters of such an array read are not compared (any order of the updates is
    /// allowed), only the final values. The bodies must then be order-independent
    /// updates (e.g. wrapping additions), which [`hash_body`] is not.
    pub fn with_reduction_arrays(mut self, arrays: Vec<String>) -> Executor {
        self.reductions = arrays;
        self
    }

    /// A program whose bodies are all [`hash_body`] (salted with the iteration, so that
    /// every written value is distinct).
    pub fn with_hash_bodies(program: Program) -> Executor {
        let bodies = program.statements.iter().map(|s| hash_body(s.writes.len(), true)).collect();
        Executor { program, bodies, reductions: vec![], hash_bodies: true }
    }

    /// The program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Statement index by name.
    pub fn statement_index(&self, name: &str) -> Option<usize> {
        self.program.statements.iter().position(|s| s.name == name)
    }

    /// Every instance of every statement, statement by statement (domain order).
    pub fn instances(&self, params: &[i64]) -> Result<Vec<Instance>> {
        all_instances(&self.program, params, INSTANCE_LIMIT)
    }

    /// Groups the instances by a time vector (lexicographic order); instances with
    /// equal times form one parallel step.
    pub fn trace_by(&self, params: &[i64], time: TimeFn<'_>) -> Result<Trace> {
        let mut keyed: BTreeMap<Vec<i64>, Vec<Instance>> = BTreeMap::new();
        for (k, it) in self.instances(params)? {
            let t = time(k, &it)?;
            keyed.entry(t).or_default().push((k, it));
        }
        Ok(Trace { steps: keyed.into_values().collect() })
    }

    /// The original order: the lexicographic order of the statements' schedules. Two
    /// instances with the same original time are an input error.
    pub fn original_trace(&self, params: &[i64]) -> Result<Trace> {
        let tr = self.trace_by(params, &|k, it| self.program.statements[k].schedule.iter().map(|e| Ok(e.eval(params, it)?)).collect())?;
        if let Some(step) = tr.steps.iter().find(|s| s.len() > 1) {
            return Err(ProgramError::Invalid(format!(
                "the original schedule maps {} instances to one time (e.g. {}{:?})",
                step.len(),
                self.program.statements[step[0].0].name,
                step[0].1
            )));
        }
        Ok(tr)
    }

    /// Runs `trace` with `storage`; returns the value of every read (by instance and
    /// read index) and the final memory.
    #[allow(clippy::type_complexity)]
    fn run_raw<'s>(
        &'s self,
        params: &'s [i64],
        trace: &Trace,
        storage: &'s Storage,
        report: &mut ExecReport,
    ) -> Result<(HashMap<(usize, Vec<i64>, usize), i64>, Memory<'s>)> {
        let mut mem = Memory { storage, regions: &self.program.fold_regions, params, cells: HashMap::new(), written: HashSet::new() };
        let mut reads_seen = HashMap::new();
        for (si, step) in trace.steps.iter().enumerate() {
            // Runs at large instances are long: the run's time budget stops them.
            polyalloc_ilp::budget::check()?;
            let mut pending: Vec<(String, Vec<i64>, i64)> = Vec::new();
            for (k, it) in step {
                let st = self.program.statements.get(*k).ok_or_else(|| ProgramError::Exec(format!("statement #{k}")))?;
                let mut vals = Vec::with_capacity(st.reads.len());
                for (ri, a) in st.reads.iter().enumerate() {
                    if a.happens_at(params, it)? {
                        let cell = a.cell_at(params, it)?;
                        let v = mem.read(&a.array, &cell)?;
                        reads_seen.insert((*k, it.clone(), ri), v);
                        vals.push(Some(v));
                    } else {
                        vals.push(None);
                    }
                }
                let ctx = Ctx { stmt: *k, params, iter: it };
                let outs = (self.bodies[*k])(&ctx, &vals);
                if outs.len() != st.writes.len() {
                    return Err(ProgramError::Exec(format!("the body of {} returned {} values for {} writes", st.name, outs.len(), st.writes.len())));
                }
                for (a, v) in st.writes.iter().zip(outs) {
                    if a.happens_at(params, it)? {
                        pending.push((a.array.clone(), a.cell_at(params, it)?, v));
                    }
                }
            }
            let mut locs: HashSet<Location> = HashSet::new();
            for (array, cell, v) in pending {
                let loc = mem.location(&array, &cell)?;
                if step.len() > 1 && !locs.insert(loc.clone()) {
                    report.push(Mismatch::WriteConflict { array: array.clone(), location: loc.2.clone(), step: si });
                }
                mem.cells.insert(loc, v);
                mem.written.insert((array, cell));
            }
        }
        Ok((reads_seen, mem))
    }

    /// Runs the original order and `trace` (with `storage`) and compares them.
    pub fn compare(&self, params: &[i64], trace: &Trace, storage: &Storage) -> Result<ExecReport> {
        let mut report = ExecReport::default();
        let original = self.original_trace(params)?;
        report.instances = original.len();
        report.steps = trace.steps.len();
        // Coverage: every instance exactly once, nothing else.
        let mut expected: HashSet<Instance> = original.steps.iter().flatten().cloned().collect();
        for step in &trace.steps {
            for inst in step {
                if !expected.remove(inst) {
                    let name = self.program.statements.get(inst.0).map_or("?".to_string(), |s| s.name.clone());
                    let in_domain = match self.program.statements.get(inst.0) {
                        Some(s) => s.domain.contains(params, &inst.1)?,
                        None => false,
                    };
                    let why = if in_domain { "executed more than once" } else { "not in the statement's domain" };
                    report.push(Mismatch::Spurious { stmt: name, iter: inst.1.clone(), why: why.into() });
                }
            }
        }
        let mut missing: Vec<&Instance> = expected.iter().collect();
        missing.sort();
        for inst in missing {
            report.push(Mismatch::Missing { stmt: self.program.statements[inst.0].name.clone(), iter: inst.1.clone() });
        }
        let plain = Storage::new();
        let mut scratch = ExecReport::default();
        let (orig_reads, orig_mem) = self.run_raw(params, &original, &plain, &mut scratch)?;
        let (new_reads, new_mem) = self.run_raw(params, trace, storage, &mut report)?;
        let mut keys: Vec<&(usize, Vec<i64>, usize)> = orig_reads.keys().collect();
        keys.sort();
        for key in keys {
            let st = &self.program.statements[key.0];
            let arr = &st.reads[key.2].array;
            if self.reductions.contains(arr) && st.writes.iter().any(|w| &w.array == arr) {
                continue;
            }
            let expected = orig_reads[key];
            if let Some(&got) = new_reads.get(key) {
                report.reads_compared += 1;
                if got != expected {
                    let st = &self.program.statements[key.0];
                    let a = &st.reads[key.2];
                    report.push(Mismatch::Read {
                        stmt: st.name.clone(),
                        iter: key.1.clone(),
                        read: key.2,
                        array: a.array.clone(),
                        cell: a.cell_at(params, &key.1)?,
                        expected,
                        got,
                    });
                }
            }
        }
        // Live-out values.
        let mut written: Vec<&(String, Vec<i64>)> = orig_mem.written.iter().collect();
        written.sort();
        for (array, cell) in written {
            let live = if storage.contains_key(array) && in_fold_region(&self.program.fold_regions, params, array, cell)? {
                let mut any = false;
                for s in &self.program.live_out {
                    if s.space().output.name.as_deref() == Some(array.as_str()) && s.space().n_dim() == cell.len() && s.contains(params, cell)? {
                        any = true;
                        break;
                    }
                }
                any
            } else {
                true
            };
            if !live {
                continue;
            }
            let expected = orig_mem.read(array, cell)?;
            let got = if new_mem.written.contains(&(array.clone(), cell.clone())) { new_mem.read(array, cell)? } else { initial_value(array, cell) };
            report.live_out_compared += 1;
            if got != expected {
                report.push(Mismatch::LiveOut { array: array.clone(), cell: cell.clone(), expected, got });
            }
        }
        Ok(report)
    }

    /// Runs the instances ordered by multi-dimensional affine schedules, one per
    /// statement (each over its statement's domain space, as
    /// [`Statement::schedule`](crate::Statement::schedule)), with `storage`, and compares with
    /// the original order.
    pub fn compare_affine(&self, params: &[i64], schedules: &[Vec<polyalloc_formulation::AffExpr>], storage: &Storage) -> Result<ExecReport> {
        if schedules.len() != self.program.statements.len() {
            return Err(ProgramError::Invalid(format!("{} schedules for {} statements", schedules.len(), self.program.statements.len())));
        }
        self.compare_schedule(params, &|k, it| schedules[k].iter().map(|e| Ok(e.eval(params, it)?)).collect(), storage)
    }

    /// Runs the instances ordered by `time` (equal times in parallel) with `storage` and
    /// compares with the original order.
    pub fn compare_schedule(&self, params: &[i64], time: TimeFn<'_>, storage: &Storage) -> Result<ExecReport> {
        let tr = self.trace_by(params, time)?;
        self.compare(params, &tr, storage)
    }

    /// Runs the original order twice in step, with one location per cell and with the
    /// cells placed by `place` as a compiled program keeps them, and compares them.
    ///
    /// This models memory as a compiled program has it, which a program rewritten in
    /// place needs: a location holds what was last written to it and, before any
    /// write, its input value, the initial value of the cell at that index of that
    /// array ([`initial_value`]); so a cell's input value is lost when another value is
    /// placed on it first, and a location of a new array (a storage array that is not a
    /// program array) holds garbage until written. `place(array, cell)` gives the
    /// storage array and index of a cell of an array in `placed`, for every cell the
    /// program accesses (`None`: the cell stays where it is); the other arrays keep
    /// every cell where it is.
    ///
    /// Compared: every value read; at the end, every written cell of an array not in
    /// `placed`, and every live-out cell (the program's `live_out`) of an array in
    /// `placed` that either run wrote, read at its own place (where the code after the
    /// program reads it).
    pub fn compare_placed(&self, params: &[i64], placed: &[String], storages: &[String], place: PlaceFn<'_>) -> Result<ExecReport> {
        let ord = crate::order::Ordered::build(&self.program, params, None, PLACED_INSTANCE_LIMIT)?;
        self.compare_placed_in(params, placed, storages, place, &ord)
    }

    /// [`Executor::compare_placed`] in the order `ord` of the program's schedules at
    /// `params`, built once for several runs or simulations of programs with the same
    /// statements (see [`crate::order::Ordered::is_of`]; another order is an error).
    pub fn compare_placed_in<'s>(
        &'s self,
        params: &[i64],
        placed: &[String],
        storages: &[String],
        place: PlaceFn<'_>,
        ord: &crate::order::Ordered,
    ) -> Result<ExecReport> {
        let mut report = ExecReport::default();
        if !ord.is_of(&self.program, params) {
            return Err(ProgramError::Invalid("placed run: the order was built for other statements or parameters".into()));
        }
        if ord.len() > PLACED_INSTANCE_LIMIT {
            return Err(ProgramError::Exec(format!("more than {PLACED_INSTANCE_LIMIT} statement instances at {params:?}")));
        }
        if let Some((a, _)) = ord.first_tie() {
            let (si, it, _) = ord.instance(&self.program, a);
            return Err(ProgramError::Invalid(format!(
                "the original schedule maps several instances to one time (e.g. {}{it:?})",
                self.program.statements[si].name
            )));
        }
        report.instances = ord.len();
        report.steps = ord.len();
        // Storage names: the program's arrays, then the run's other storage arrays.
        let mut names: Vec<String> = Vec::new();
        for s in &self.program.statements {
            for a in s.writes.iter().chain(&s.reads) {
                if !names.contains(&a.array) {
                    names.push(a.array.clone());
                }
            }
        }
        let n_program = names.len();
        let storage_ids: Vec<u32> = storages
            .iter()
            .map(|n| match names.iter().position(|x| x == n) {
                Some(k) => k as u32,
                None => {
                    names.push(n.clone());
                    (names.len() - 1) as u32
                }
            })
            .collect();
        let hashes: Vec<u64> = names.iter().map(|n| name_hash(n)).collect();
        let id_of = |n: &str| names.iter().position(|x| x == n).unwrap_or(0) as u32;
        let sparams: Vec<Vec<i64>> =
            self.program.statements.iter().map(|s| crate::order::statement_params(&self.program, s, params)).collect::<Result<_>>()?;
        // Per statement and access (reads, then writes): the access at the parameters,
        // the array's id, and whether it is placed.
        type Accs<'a> = Vec<(AccessAt<'a>, u32, bool)>;
        let accs: Vec<(Accs<'_>, Accs<'_>)> = self
            .program
            .statements
            .iter()
            .zip(&sparams)
            .map(|(s, sp)| {
                let m = s.domain.space().n_dim();
                let f = |a: &'s crate::model::Access| (AccessAt::new(a, sp, m), id_of(&a.array), placed.contains(&a.array));
                (s.reads.iter().map(f).collect(), s.writes.iter().map(f).collect())
            })
            .collect();
        let read = |mem: &Mem, key: &CellKey| -> i64 { mem.get(key).unwrap_or_else(|| initial_value_after(hashes[key.array as usize], key.cell())) };
        // Where a cell of a placed array goes: `Some(storage id)` with its index in
        // `index`, `None` when it stays.
        let locate = |array: &str, cell: &[i64], index: &mut Vec<i64>| -> Result<Option<u32>> {
            index.clear();
            match place(array, cell, index)? {
                Some(k) => {
                    let sid =
                        *storage_ids.get(k).ok_or_else(|| ProgramError::Exec(format!("storage #{k} of {} storage arrays", storage_ids.len())))?;
                    CellKey::check(index)?;
                    Ok(Some(sid))
                }
                None => Ok(None),
            }
        };
        // The box of every storage array's touched cells, for dense memories.
        let mut boxes: Vec<Option<(Vec<i64>, Vec<i64>)>> = vec![None; names.len()];
        let mut grow = |a: u32, c: &[i64]| match &mut boxes[a as usize] {
            Some((lo, hi)) if lo.len() == c.len() => {
                for d in 0..c.len() {
                    lo[d] = lo[d].min(c[d]);
                    hi[d] = hi[d].max(c[d]);
                }
            }
            b @ None => *b = Some((c.to_vec(), c.to_vec())),
            Some(_) => {}
        };
        // The placement of each cell of a placed array, once: over the box of the cells
        // the program accesses (from the rows' ends; no cache when that fails or the
        // box is large).
        let mut caches: Vec<Option<PlaceCache>> = (0..names.len()).map(|_| None).collect();
        if names.len() < 1 << 23 {
            let mut pboxes: Vec<Option<(Vec<i64>, Vec<i64>)>> = vec![None; names.len()];
            let mut usable = vec![true; names.len()];
            for (si, s) in self.program.statements.iter().enumerate() {
                let (reads, writes) = &accs[si];
                for (a, id, _) in reads.iter().chain(writes).filter(|(_, _, p)| *p) {
                    let (b, u) = (&mut pboxes[*id as usize], &mut usable[*id as usize]);
                    let mut grow_p = |c: &[i64]| match b {
                        Some((lo, hi)) if lo.len() == c.len() => {
                            for d in 0..c.len() {
                                lo[d] = lo[d].min(c[d]);
                                hi[d] = hi[d].max(c[d]);
                            }
                        }
                        None => *b = Some((c.to_vec(), c.to_vec())),
                        Some(_) => *u = false,
                    };
                    if compiled::for_each_box_cell(&s.domain, &sparams[si], &[a], usize::MAX - 1, &mut grow_p).is_err() {
                        *u = false;
                    }
                }
            }
            let most = (CACHE_CELLS_PER_INSTANCE * ord.len() as u128).clamp(CACHE_CELLS_MIN, CACHE_CELLS_MAX);
            for (id, b) in pboxes.into_iter().enumerate() {
                let Some((lo, hi)) = b.filter(|_| usable[id]) else { continue };
                let Some((ext, n)) = box_extents(&lo, &hi) else { continue };
                if n <= most {
                    caches[id] = Some(PlaceCache { lo, ext, seen: vec![0; (n as usize).div_ceil(64)], code: Vec::new() });
                }
            }
        }
        let mut cell: Vec<i64> = Vec::new();
        let mut index: Vec<i64> = Vec::new();
        for k in 0..ord.len() {
            if k % 4096 == 0 {
                polyalloc_ilp::budget::check()?;
            }
            let (si, it, _) = ord.instance(&self.program, k);
            let (reads, writes) = &accs[si];
            for (a, id, is_placed) in reads.iter().chain(writes) {
                if !a.happens_at(it)? {
                    continue;
                }
                a.cell_into(it, &mut cell)?;
                CellKey::check(&cell)?;
                grow(*id, &cell);
                if *is_placed {
                    // A cell already placed: its location is in its storage's box.
                    if let Some(c) = &mut caches[*id as usize] {
                        if let Some(k) = Mem::slot(&c.lo, &c.ext, &cell) {
                            if c.seen[k / 64] >> (k % 64) & 1 == 1 {
                                continue;
                            }
                            c.seen[k / 64] |= 1 << (k % 64);
                        }
                    }
                }
                match if *is_placed { locate(&a.access().array, &cell, &mut index)? } else { None } {
                    Some(sid) => grow(sid, &index),
                    None => grow(*id, &cell),
                }
            }
        }
        let mut orig = Mem::new(&boxes);
        let mut new = Mem::new(&boxes);
        // Each placed cell's location in the transformed run's memory.
        for (id, c) in caches.iter_mut().enumerate() {
            let Some(c) = c else { continue };
            let n = c.ext.iter().map(|&e| e.max(0) as usize).product::<usize>();
            c.code = vec![UNCACHED; n];
            for (w, bits) in c.seen.iter().enumerate() {
                let mut b = *bits;
                while b != 0 {
                    let k = w * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    cell.clear();
                    cell.resize(c.lo.len(), 0);
                    let mut r = k as i64;
                    for d in (0..c.lo.len()).rev() {
                        cell[d] = c.lo[d] + r % c.ext[d];
                        r /= c.ext[d];
                    }
                    let (sid, at) = match locate(&names[id], &cell, &mut index)? {
                        Some(sid) => (sid, new.dense_slot(sid, &index)),
                        None => (id as u32, new.dense_slot(id as u32, &cell)),
                    };
                    if let Some(at) = at {
                        c.code[k] = (sid as u64) << 40 | at as u64;
                    }
                }
            }
            c.seen = Vec::new();
        }
        // The location of a cell of a placed array in the transformed run: from the
        // cache, `None` when it is not cached.
        let cached = |id: u32, cell: &[i64]| -> Option<(u32, usize)> {
            let c = caches[id as usize].as_ref()?;
            let code = *c.code.get(Mem::slot(&c.lo, &c.ext, cell)?)?;
            (code != UNCACHED).then_some(((code >> 40) as u32, (code & ((1 << 40) - 1)) as usize))
        };
        let mut vo = Vec::new();
        let mut vn = Vec::new();
        let (mut oo, mut on): (Vec<i64>, Vec<i64>) = (Vec::new(), Vec::new());
        for (done, &k) in ord.in_time_order().iter().enumerate() {
            if done % 4096 == 0 {
                polyalloc_ilp::budget::check()?;
            }
            let (si, it, _) = ord.instance(&self.program, k as usize);
            let st = &self.program.statements[si];
            let sp = &sparams[si];
            let (reads, writes) = &accs[si];
            vo.clear();
            vn.clear();
            for (ri, (a, id, is_placed)) in reads.iter().enumerate() {
                if !a.happens_at(it)? {
                    vo.push(None);
                    vn.push(None);
                    continue;
                }
                a.cell_into(it, &mut cell)?;
                CellKey::check(&cell)?;
                let o = orig.get_at(*id, &cell)?.unwrap_or_else(|| initial_value_after(hashes[*id as usize], &cell));
                let n = match if *is_placed { cached(*id, &cell) } else { None } {
                    Some((nid, at)) => match new.get_slot(nid, at)? {
                        Some(v) => v,
                        None => {
                            new.cell_of_slot(nid, at, &mut index);
                            initial_value_after(hashes[nid as usize], &index)
                        }
                    },
                    None => {
                        let (nid, ncell) = match if *is_placed { locate(&a.access().array, &cell, &mut index)? } else { None } {
                            Some(sid) => (sid, &index[..]),
                            None => (*id, &cell[..]),
                        };
                        new.get_at(nid, ncell)?.unwrap_or_else(|| initial_value_after(hashes[nid as usize], ncell))
                    }
                };
                report.reads_compared += 1;
                if o != n {
                    report.push(Mismatch::Read {
                        stmt: st.name.clone(),
                        iter: it.to_vec(),
                        read: ri,
                        array: a.access().array.clone(),
                        cell: cell.clone(),
                        expected: o,
                        got: n,
                    });
                }
                vo.push(Some(o));
                vn.push(Some(n));
            }
            let ctx = Ctx { stmt: si, params: sp, iter: it };
            if self.hash_bodies {
                hash_values(&ctx, &vo, st.writes.len(), true, &mut oo);
                hash_values(&ctx, &vn, st.writes.len(), true, &mut on);
            } else {
                oo = (self.bodies[si])(&ctx, &vo);
                on = (self.bodies[si])(&ctx, &vn);
            }
            if oo.len() != st.writes.len() || on.len() != st.writes.len() {
                return Err(ProgramError::Exec(format!("the body of {} returned {} values for {} writes", st.name, oo.len(), st.writes.len())));
            }
            for ((a, id, is_placed), (&o, &n)) in writes.iter().zip(oo.iter().zip(&on)) {
                if a.happens_at(it)? {
                    a.cell_into(it, &mut cell)?;
                    CellKey::check(&cell)?;
                    orig.insert_at(*id, &cell, o)?;
                    if let Some((nid, at)) = if *is_placed { cached(*id, &cell) } else { None } {
                        new.insert_slot(nid, at, n)?;
                        continue;
                    }
                    match if *is_placed { locate(&a.access().array, &cell, &mut index)? } else { None } {
                        Some(sid) => new.insert_at(sid, &index, n)?,
                        None => new.insert_at(*id, &cell, n)?,
                    }
                }
            }
        }
        // Final values where the code after the program reads them: per storage array
        // (in order of id), every cell either run wrote, in order.
        let mut lo_sets: Vec<Vec<(&Set, SetAt<'_>)>> = (0..names.len()).map(|_| Vec::new()).collect();
        for s in &self.program.live_out {
            if let Some(k) = s.space().output.name.as_deref().and_then(|n| names.iter().position(|x| x == n)) {
                lo_sets[k].push((s, SetAt::new(s, params)));
            }
        }
        for a in 0..names.len() {
            let array = &names[a];
            let is_placed = placed.contains(array);
            // A program array not placed: every cell either run wrote. New storage
            // arrays are not read after the program.
            if !is_placed && a >= n_program {
                continue;
            }
            let mut compare = |key: CellKey| -> Result<()> {
                if is_placed {
                    let mut any = false;
                    for (s, set) in &lo_sets[a] {
                        if s.space().n_dim() == key.cell().len() && set.contains(key.cell())? {
                            any = true;
                            break;
                        }
                    }
                    if !any {
                        return Ok(());
                    }
                }
                let (e, g) = (read(&orig, &key), read(&new, &key));
                report.live_out_compared += 1;
                if e != g {
                    report.push(Mismatch::LiveOut { array: array.clone(), cell: key.cell().to_vec(), expected: e, got: g });
                }
                Ok(())
            };
            match (&orig.stores[a], &new.stores[a]) {
                (Store::Dense { lo, ext, set: so, .. }, Store::Dense { set: sn, .. }) => {
                    // The same box in both runs: the union of the written bits, in
                    // row-major (lexicographic) order.
                    for (w, (bo, bn)) in so.iter().zip(sn).enumerate() {
                        let mut b = bo | bn;
                        while b != 0 {
                            let k = w * 64 + b.trailing_zeros() as usize;
                            b &= b - 1;
                            cell.clear();
                            cell.resize(lo.len(), 0);
                            let mut r = k as i64;
                            for d in (0..lo.len()).rev() {
                                cell[d] = lo[d] + r % ext[d];
                                r /= ext[d];
                            }
                            compare(CellKey::new(a as u32, &cell)?)?;
                        }
                    }
                }
                (so, sn) => {
                    let mut keys: Vec<CellKey> = Vec::new();
                    for st in [so, sn] {
                        match st {
                            Store::Sparse(m) => keys.extend(m.keys().copied()),
                            Store::Dense { .. } => keys.extend(Mem::keys_of(a as u32, st)),
                        }
                    }
                    keys.sort();
                    keys.dedup();
                    for key in keys {
                        compare(key)?;
                    }
                }
            }
        }
        Ok(report)
    }
}
