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
use polyalloc_program::compiled;
use polyalloc_program::exec::{ExecReport, Executor};
use polyalloc_program::order::Ordered;
use polyalloc_program::{Access, Program};

/// Iterations per access at which the written relation text is evaluated.
pub const TEXT_POINTS: usize = 2_000;

/// The place of a cell: `None` when it stays.
fn place_of(fold: &ArrayFold, cells: &Cells, cell: &[i64]) -> Option<(String, Vec<i64>)> {
    fold.place(cell, cells.folds(cell))
}

/// Checks 1 and 2 for one array: `Err(why)` names the first cell out of place.
pub fn static_checks(fold: &ArrayFold, cells: &Cells) -> Result<Result<(), String>, FoldError> {
    let disagreement = match &fold.placement {
        Placement::InPlace { folded, kept, .. } => set_disagreement(&fold.array, folded, kept, cells)?,
        Placement::NewArray { .. } => None,
    };
    static_checks_with(fold, cells, disagreement.as_ref())
}

/// Check 2 of an in-place folding with the folded cells `folded` and the others
/// `kept`, the same for every placement of them: the first folded cell (in the order of
/// the accessed cells) where the sets say otherwise, its index in the box and why.
pub fn set_disagreement(array: &str, folded: &Set, kept: &Set, cells: &Cells) -> Result<Option<(usize, String)>, FoldError> {
    let (folded, kept) = (compiled::SetAt::new(folded, &[]), compiled::SetAt::new(kept, &[]));
    let mut first: Option<(usize, String)> = None;
    cells.for_each_accessed(|k, c| -> Result<bool, FoldError> {
        let f = cells.folds(c);
        if f && (folded.contains(c)? != f || kept.contains(c)? == f) {
            first = Some((k, format!("the folded cells' set disagrees with the cells the SCoP writes at {array}{c:?} (folded: {f})")));
            return Ok(false);
        }
        Ok(true)
    })?;
    Ok(first)
}

/// [`static_checks`] with check 2 given: `disagreement` is [`set_disagreement`] of the
/// placement's sets (`None` for a new array).
pub fn static_checks_with(fold: &ArrayFold, cells: &Cells, disagreement: Option<&(usize, String)>) -> Result<Result<(), String>, FoldError> {
    let array = fold.target();
    let mut loc: Vec<i64> = Vec::new();
    let mut failure: Option<String> = None;
    cells.for_each_accessed(|k, c| -> Result<bool, FoldError> {
        loc.clear();
        if !fold.locate_into(c, cells.folds(c), &mut loc) {
            return Ok(true);
        }
        let inside = match &fold.placement {
            Placement::NewArray { sizes, .. } => loc.len() == sizes.len() && loc.iter().zip(sizes).all(|(v, s)| 0 <= *v && v < s),
            Placement::InPlace { .. } => array == fold.memref && cells.bbox.contains(&loc),
        };
        if !inside {
            failure = Some(format!("cell {}{c:?} would be placed at {array}{loc:?}, outside its storage", fold.array));
            return Ok(false);
        }
        if let Some((_, why)) = disagreement.filter(|(at, _)| *at == k) {
            failure = Some(why.clone());
            return Ok(false);
        }
        Ok(true)
    })?;
    Ok(match failure {
        Some(why) => Err(why),
        None => Ok(()),
    })
}

/// Check 3: the program run with every fold of `folds` placed; in `order` when it is
/// the order of the statements run (see [`Ordered::is_of`]), else in an order built
/// for the run.
pub fn run_check(program: &Program, params: &[i64], folds: &[(&ArrayFold, &Cells)], order: Option<&Ordered>) -> Result<ExecReport, FoldError> {
    let placed: Vec<String> = folds.iter().map(|(f, _)| f.array.clone()).collect();
    // Storage arrays: each folded array itself (its C name, the executor's), and the
    // new arrays (Polly's names, which no program array has).
    let mut storages: Vec<String> = placed.clone();
    for (f, _) in folds {
        if let Placement::NewArray { memref, .. } = &f.placement {
            storages.push(memref.clone());
        }
    }
    // Per fold: the position of its storage array among `storages`.
    let positions: Vec<Option<usize>> = folds
        .iter()
        .map(|(f, _)| {
            let target = f.target();
            let name = if target == f.memref { f.array.as_str() } else { target };
            storages.iter().position(|s| s == name)
        })
        .collect();
    let place = |array: &str, cell: &[i64], index: &mut Vec<i64>| -> polyalloc_program::Result<Option<usize>> {
        let Some(k) = folds.iter().position(|(f, _)| f.array == array) else { return Ok(None) };
        let (f, c) = folds[k];
        if !f.locate_into(cell, c.folds(cell), index) {
            return Ok(None);
        }
        Ok(positions[k])
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
    Ok(match order.filter(|o| o.is_of(exec.program(), params)) {
        Some(o) => exec.compare_placed_in(params, &placed, &storages, &place, o)?,
        None => exec.compare_placed(params, &placed, &storages, &place)?,
    })
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
    // Membership exactly as `Set::contains` decides it, without rebuilding the set at
    // each point.
    let rel_at = compiled::SetAt::new(&rel, &rel_params);
    let sp = stmt_params(program, s.domain.space(), params)?;
    let mut failure: Option<String> = None;
    let mut error: Option<FoldError> = None;
    // One iteration: the written relation holds at the placed cell.
    let mut visit = |it: &[i64]| -> polyalloc_formulation::Result<bool> {
        if !acc.happens_at(&sp, it)? {
            return Ok(true);
        }
        let cell = acc.cell_at(&sp, it)?;
        let loc = match place_of(fold, cells, &cell) {
            Some((_, loc)) => loc,
            None => cell.clone(),
        };
        let point: Vec<i64> = it.iter().chain(&loc).copied().collect();
        match rel_at.contains(&point) {
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
    };
    for_each_sampled(&s.domain, &sp, crate::rewrite::MAX_STATEMENT_INSTANCES, TEXT_POINTS, &mut visit)?;
    if let Some(e) = error {
        return Err(e);
    }
    if let Some(f) = failure {
        return Ok(Err(f));
    }
    Ok(Ok(()))
}

/// Visits evenly spread points of `domain` at `params` (in the order of its points,
/// `f` false to stop): counted up to one past `limit`, every `total / points`-th point
/// (every point when fewer) and the last counted; row by row, without visiting the
/// others.
fn for_each_sampled(
    domain: &Set,
    params: &[i64],
    limit: usize,
    points: usize,
    f: &mut dyn FnMut(&[i64]) -> polyalloc_formulation::Result<bool>,
) -> polyalloc_formulation::Result<()> {
    let mut total = 0usize;
    compiled::for_each_row(domain, params, &mut |_, lo, hi| {
        total = total.saturating_add(compiled::row_len(lo, hi));
        Ok(total <= limit)
    })?;
    let total = total.min(limit.saturating_add(1));
    let step = (total / points.max(1)).max(1);
    let m = domain.space().n_dim();
    let mut k = 0usize;
    let mut point: Vec<i64> = Vec::with_capacity(m);
    compiled::for_each_row(domain, params, &mut |prefix, lo, hi| {
        let n = compiled::row_len(lo, hi);
        // The points `j` of this row (`k..k + n`) with `j % step == 0`, and the last
        // counted one, in order.
        let first = k.div_ceil(step) * step;
        let mut last = total.checked_sub(1).filter(|&l| k <= l && l < k + n && l % step != 0);
        let mut at = |j: usize| -> polyalloc_formulation::Result<bool> {
            point.clear();
            point.extend_from_slice(prefix);
            if m > 0 {
                point.push(lo + (j - k) as i64);
            }
            f(&point)
        };
        for j in (first..k + n).step_by(step) {
            if let Some(l) = last.filter(|&l| l < j) {
                last = None;
                if !at(l)? {
                    return Ok(false);
                }
            }
            if !at(j)? {
                return Ok(false);
            }
        }
        if let Some(l) = last {
            if !at(l)? {
                return Ok(false);
            }
        }
        k += n;
        Ok(true)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The points visited by counting and visiting every point (the former way).
    fn sampled_naively(domain: &Set, params: &[i64], limit: usize, points: usize) -> Vec<Vec<i64>> {
        let mut total = 0usize;
        domain
            .for_each_point(params, &mut |_| {
                total += 1;
                Ok(total <= limit)
            })
            .unwrap();
        let step = (total / points).max(1);
        let (mut k, mut out) = (0usize, Vec::new());
        domain
            .for_each_point(params, &mut |it| {
                if k % step == 0 || k + 1 == total {
                    out.push(it.to_vec());
                }
                k += 1;
                Ok(true)
            })
            .unwrap();
        out
    }

    #[test]
    fn sampled_points_are_those_of_a_count_and_a_visit_of_every_point() {
        let sets = [
            ("[N] -> { S[i, j] : 0 <= i < N and -N <= j <= i }", vec![9]),
            ("[N] -> { S[i, j, k] : -2 <= i <= 1 and 0 <= j < N and j <= k <= j + 3 }", vec![5]),
            ("{ S[i] : exists (q : i = 3q and -20 <= i <= 40) }", vec![]),
            ("{ S[] }", vec![]),
            ("{ S[i] : 0 <= i < 0 }", vec![]),
        ];
        for (text, params) in &sets {
            let domain = Set::parse(text).unwrap();
            for (limit, points) in [(1_000_000, 2_000), (1_000_000, 7), (1_000_000, 1), (40, 7), (13, 3), (0, 5), (1, 1)] {
                let mut got = Vec::new();
                for_each_sampled(&domain, params, limit, points, &mut |it| {
                    got.push(it.to_vec());
                    Ok(true)
                })
                .unwrap();
                assert_eq!(got, sampled_naively(&domain, params, limit, points), "{text}, limit {limit}, {points} points");
            }
        }
    }
}
