//! The check of a folded SCoP before Polly sees it.
//!
//! Polly checks neither the legality nor the bounds of an imported access: a wrong
//! `mod 2` compiles and computes a wrong result. So every folding is checked here, at
//! the instance the program is compiled for, independently of the method that found
//! the mapping (which the facade's exact checker has already verified against the
//! conflict set):
//!
//! 1. **bounds**: every cell the SCoP accesses is placed inside its storage (the new
//!    array's sizes, or the box of the cells the original program accesses);
//! 2. **the folded set's text**: the symbolic set of folded cells of an in-place array
//!    agrees, cell by cell, with the cells the SCoP writes minus the live-out cells;
//! 3. **the run**: the one executor of polyalloc (`polyalloc_program::exec`) runs the
//!    program in its original order with one location per cell and with the cells
//!    placed, memory as a compiled program has it (a cell's input value is lost when
//!    another value is placed on it first, a new array holds garbage until written), and
//!    compares every value read and every live-out value at its place;
//! 4. **the relation text**: each access relation written for Polly, read back by the
//!    isl parser of `polyalloc-formulation`, contains the placed cell at every iteration
//!    (every iteration up to [`TEXT_POINTS`] per access, evenly spread beyond).

use crate::error::FoldError;
use crate::rewrite::{stmt_params, ArrayFold, Cells, Placement};
use polyalloc_formulation::Set;
use polyalloc_program::exec::{ExecReport, Executor};
use polyalloc_program::{Access, Program};

/// Iterations per access at which the written relation text is evaluated.
pub const TEXT_POINTS: usize = 2_000;

/// The place of a cell: `None` when it stays.
fn place_of(fold: &ArrayFold, cells: &Cells, cell: &[i64]) -> Option<(String, Vec<i64>)> {
    fold.place(cell, cells.folds(cell))
}

/// Checks 1 and 2 for one array: `Err(why)` names the first cell out of place.
pub fn static_checks(fold: &ArrayFold, cells: &Cells) -> Result<Result<(), String>, FoldError> {
    for c in cells.accessed_cells() {
        let Some((array, loc)) = place_of(fold, cells, &c) else { continue };
        let inside = match &fold.placement {
            Placement::NewArray { sizes, .. } => loc.len() == sizes.len() && loc.iter().zip(sizes).all(|(v, s)| 0 <= *v && v < s),
            Placement::InPlace { .. } => array == fold.memref && cells.bbox.contains(&loc),
        };
        if !inside {
            return Ok(Err(format!("cell {}{c:?} would be placed at {array}{loc:?}, outside its storage", fold.array)));
        }
        if let Placement::InPlace { folded, kept, .. } = &fold.placement {
            let f = cells.folds(&c);
            if polyalloc_program::set_contains(folded, &[], &c)? != f || polyalloc_program::set_contains(kept, &[], &c)? == f {
                return Ok(Err(format!(
                    "the folded cells' set disagrees with the cells the SCoP writes at {}{c:?} (folded: {f})",
                    fold.array
                )));
            }
        }
    }
    Ok(Ok(()))
}

/// Check 3: the program run with every fold of `folds` placed.
pub fn run_check(program: &Program, params: &[i64], folds: &[(&ArrayFold, &Cells)]) -> Result<ExecReport, FoldError> {
    let placed: Vec<String> = folds.iter().map(|(f, _)| f.array.clone()).collect();
    // Storage arrays: each folded array itself (its C name, the executor's), and the
    // new arrays (Polly's names, which no program array has).
    let mut storages: Vec<String> = placed.clone();
    for (f, _) in folds {
        if let Placement::NewArray { memref, .. } = &f.placement {
            storages.push(memref.clone());
        }
    }
    let place = |array: &str, cell: &[i64], index: &mut Vec<i64>| -> polyalloc_program::Result<Option<usize>> {
        let Some((f, c)) = folds.iter().find(|(f, _)| f.array == array) else { return Ok(None) };
        let Some((target, loc)) = place_of(f, c, cell) else { return Ok(None) };
        index.extend_from_slice(&loc);
        let name = if target == f.memref { f.array.as_str() } else { target.as_str() };
        Ok(storages.iter().position(|s| s == name))
    };
    // Only the folded arrays' accesses matter (storage of other arrays is unchanged, and
    // every written value is told apart by its instance): the statements without one
    // and the other arrays' accesses are left out, which makes the run shorter.
    let mut only = program.clone();
    for st in &mut only.statements {
        st.reads.retain(|a| placed.contains(&a.array));
        st.writes.retain(|a| placed.contains(&a.array));
    }
    only.statements.retain(|st| !st.reads.is_empty() || !st.writes.is_empty());
    only.live_out.retain(|s| s.space().output.name.as_ref().is_some_and(|n| placed.contains(n)));
    let exec = Executor::with_hash_bodies(only);
    Ok(exec.compare_placed(params, &placed, &storages, &place)?)
}

/// Check 4 for one access: `text` (the relation written for Polly) at the iterations of
/// the statement `s` holds exactly where the access places the cell. `Err(why)` names
/// the first iteration where it does not.
pub fn text_check(
    program: &Program,
    params: &[i64],
    s: &polyalloc_program::Statement,
    acc: &Access,
    fold: &ArrayFold,
    cells: &Cells,
    text: &str,
) -> Result<Result<(), String>, FoldError> {
    let rel = Set::parse(text).map_err(|e| FoldError::Input(format!("the relation written for Polly does not read back: {e}: {text}")))?;
    let rel_params = stmt_params(program, rel.space(), params)?;
    let sp = stmt_params(program, s.domain.space(), params)?;
    // Count the iterations, then visit every `step`-th one and the last.
    let mut total = 0usize;
    s.domain.for_each_point(&sp, &mut |_| {
        total += 1;
        Ok(total <= crate::rewrite::MAX_STATEMENT_INSTANCES)
    })?;
    let step = (total / TEXT_POINTS).max(1);
    let mut k = 0usize;
    let mut failure: Option<String> = None;
    let mut error: Option<FoldError> = None;
    s.domain.for_each_point(&sp, &mut |it| {
        let visit = k % step == 0 || k + 1 == total;
        k += 1;
        if !visit || !acc.happens_at(&sp, it)? {
            return Ok(true);
        }
        let cell = acc.cell_at(&sp, it)?;
        let loc = match place_of(fold, cells, &cell) {
            Some((_, loc)) => loc,
            None => cell.clone(),
        };
        let point: Vec<i64> = it.iter().chain(&loc).copied().collect();
        match rel.contains(&rel_params, &point) {
            Ok(true) => Ok(true),
            Ok(false) => {
                failure = Some(format!("{}{it:?}: the written relation does not send cell {cell:?} to {loc:?}: {text}", s.name));
                Ok(false)
            }
            Err(e) => {
                error = Some(e.into());
                Ok(false)
            }
        }
    })?;
    if let Some(e) = error {
        return Err(e);
    }
    if let Some(f) = failure {
        return Ok(Err(f));
    }
    Ok(Ok(()))
}
