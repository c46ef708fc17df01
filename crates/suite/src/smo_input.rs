//! Reader of the SMO tool's input format (`*.smo.input`).
//!
//! The public SMO tool (Bhaskaracharya; C++ on isl and GLPK, MIT licence; the tool of
//! Bhaskaracharya et al. 2016) reads a conflict-set specification, line by line (`src/main.cpp` and
//! `src/ConflictSpec.cpp` of the tool):
//!
//! 1. the array space, an isl basic set over the input tuple (`[N0] -> { [x0, x1] : ... }`);
//! 2. the same space over the output tuple (`[N0] -> { [y0, y1] : ... }`);
//! 3. the names of the output variables (`y0 y1`);
//! 4. the number of statements `S` (each statement writes its own array);
//! 5. the number of conflict polyhedra `K`;
//! 6. `K` times: the indices `i j` of the statements (arrays) the polyhedron relates
//!    (`0 <= i, j < S`), then the polyhedron, an isl basic relation
//!    (`[N0] -> { [x0, x1] -> [y0, y1] : ... }`) between a cell `x` of array `i` and a
//!    cell `y` of array `j`.
//!
//! Blank lines are skipped; `#` starts a comment that runs to the end of the line (the
//! tool skips lines that start with `#`; a comment after the content is accepted here
//! too). The parameters are those of the isl sets; every line may use only those of the
//! array space. As the tool does, every polyhedron is intersected with the array space
//! on both sides, and the polyhedra keep their identity (one conflict polyhedron each,
//! in file order: SMO credits satisfaction per polyhedron). Dimensions are positional:
//! the cells are named after the array space's tuple, the output cells after line 3 (or
//! fresh names `x0_2`, ... when those collide with the input names or the parameters).
//!
//! The result is an [`Example`] of the bench-suite model:
//!
//! * one statement: one array `A` whose conflict set (half form) is the union of the
//!   polyhedra (every one `0 0`);
//! * `S > 1` statements: arrays `A0`, ..., `A{S-1}` (the tool's names), each with the
//!   data space of the file and as its conflict set the `i i` polyhedra (none: an empty
//!   conflict set), and an `inter_array` section ([`crate::inter`]) with the `i j`
//!   polyhedra, `i != j`, grouped by pair in order of first appearance.
//!
//! The id is the file name without `.smo.input`. The file gives no context (the tool
//! has none) and no instances; the instances are chosen as in the bench-suite
//! (bench-suite/README.md, section 5): with every parameter equal to `k`, the largest
//! `k <= 32` at which the array space has at most 1100 cells, and `k = 4` when smaller.
//!
//! A file the reader cannot take is an error naming the file, the line and the column
//! and what was expected there ([`SuiteError::Text`]), never a partial example.

use crate::inter::{InterRelation, InterSection, SECTION};
use crate::{ArraySpec, Example, Source, SuiteError};
use polyalloc_formulation::{BasicSet, Error as FormError, Set, Space, Tuple};
use std::collections::BTreeMap;
use std::path::Path;

/// The file name suffix of the format.
pub const EXTENSION: &str = ".smo.input";

/// Most statements (arrays) a file may declare.
pub const MAX_STATEMENTS: usize = 10_000;

/// Largest number of cells of the array space at the largest instance chosen.
const MAX_CELLS: usize = 1100;
/// Largest parameter value tried for the instances.
const MAX_PARAM: i64 = 32;

/// True for a file named `*.smo.input`.
pub fn is_smo_input(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.len() > EXTENSION.len() && n.ends_with(EXTENSION))
}

/// The content lines of a file: (1-based line number, text before any `#`).
struct Lines<'a> {
    file: &'a Path,
    lines: Vec<(usize, &'a str)>,
    pos: usize,
    n_lines: usize,
}

fn first_column(text: &str) -> usize {
    text.chars().take_while(|c| c.is_whitespace()).count() + 1
}

/// 1-based character column of the byte offset `at` of `text`.
fn column_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].chars().count() + 1
}

/// Byte offset of the first occurrence of the identifier `word` in `text` (not as part of
/// a longer identifier).
fn find_word(text: &str, word: &str) -> Option<usize> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word)
        .map(|(at, _)| at)
        .find(|&at| !text[..at].chars().next_back().is_some_and(ident) && !text[at + word.len()..].chars().next().is_some_and(ident))
}

fn is_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl<'a> Lines<'a> {
    fn new(file: &'a Path, text: &'a str) -> Lines<'a> {
        let mut lines = Vec::new();
        let mut n_lines = 0;
        for (k, raw) in text.lines().enumerate() {
            n_lines = k + 1;
            let content = raw.split('#').next().unwrap_or("").trim_end();
            if !content.trim().is_empty() {
                lines.push((k + 1, content));
            }
        }
        Lines { file, lines, pos: 0, n_lines }
    }

    fn err(&self, line: usize, column: usize, message: impl Into<String>) -> SuiteError {
        SuiteError::Text { file: self.file.to_path_buf(), line, column, message: message.into() }
    }

    fn next(&mut self, expected: &str) -> Result<(usize, &'a str), SuiteError> {
        match self.lines.get(self.pos) {
            Some(&l) => {
                self.pos += 1;
                Ok(l)
            }
            None => Err(self.err(self.n_lines + 1, 1, format!("expected {expected}, found the end of the file"))),
        }
    }

    /// A line holding one integer at least `min`.
    fn count(&mut self, expected: &str, min: usize) -> Result<usize, SuiteError> {
        let (line, text) = self.next(expected)?;
        let col = first_column(text);
        match text.trim().parse::<usize>() {
            Ok(v) if v >= min => Ok(v),
            Ok(v) => Err(self.err(line, col, format!("expected {expected}, found {v}"))),
            Err(_) => Err(self.err(line, col, format!("expected {expected}, found `{}`", text.trim()))),
        }
    }

    /// A line holding an isl set or relation with at most one piece (a basic set).
    fn isl(&mut self, expected: &str) -> Result<(usize, &'a str, Set), SuiteError> {
        let (line, text) = self.next(expected)?;
        let set = Set::parse(text).map_err(|e| match e {
            FormError::Parse(p) => self.err(line + p.line - 1, p.column, format!("{expected}: expected {}, found {}", p.expected, p.found)),
            other => self.err(line, first_column(text), format!("{expected}: {other}")),
        })?;
        if set.n_pieces() > 1 {
            return Err(self.err(
                line,
                first_column(text),
                format!("expected {expected}, an isl basic set (one conjunction of constraints); found a union of {} pieces", set.n_pieces()),
            ));
        }
        Ok((line, text, set))
    }

    /// Every parameter of `set` must be one of `params`.
    fn check_params(&self, line: usize, text: &str, set: &Set, params: &[String]) -> Result<(), SuiteError> {
        match set.space().params.iter().find(|p| !params.contains(p)) {
            None => Ok(()),
            Some(p) => Err(self.err(
                line,
                find_word(text, p).map_or(first_column(text), |at| column_of(text, at)),
                format!(
                    "parameter `{p}` is not a parameter of the array space ({})",
                    if params.is_empty() { "none".into() } else { params.join(", ") }
                ),
            )),
        }
    }
}

/// The only piece of a set read by [`Lines::isl`] (the empty set: a marked-empty piece).
fn the_piece(set: &Set) -> BasicSet {
    set.pieces().first().cloned().unwrap_or_else(|| BasicSet::empty(set.space().clone()))
}

/// `b` (over the parameters `params`, its dims at `0..n`, then locals) placed into
/// `target` with its dimensions from column `1 + np + at` (a relation's input or
/// output tuple).
fn lift(b: &BasicSet, target: &Space, at: usize) -> Result<BasicSet, FormError> {
    let np = target.n_param();
    let nd = b.space().n_dim();
    let first_local = target.n_cols();
    b.place_into(target, b.n_local(), &|c| {
        let j = c - 1 - np;
        if j < nd {
            1 + np + at + j
        } else {
            first_local + (j - nd)
        }
    })
}

/// Parameter values for the instances: every parameter equal to `k`, for the largest
/// `k <= MAX_PARAM` where the space has between 1 and `MAX_CELLS` cells, and 4.
fn instances(space: &Set, params: &[String]) -> Vec<BTreeMap<String, i64>> {
    let at = |k: i64| -> BTreeMap<String, i64> { params.iter().map(|p| (p.clone(), k)).collect() };
    if params.is_empty() {
        return vec![BTreeMap::new()];
    }
    // Cells at k (`None`: more than MAX_CELLS, or unbounded). Larger k only has more
    // cells, so the first k over the limit is found by bisection (a count costs a
    // scanner's projections: counting every k up to 32 was half of reading the file).
    let mut memo: BTreeMap<i64, Option<usize>> = BTreeMap::new();
    let mut cells = |k: i64| -> Option<usize> { *memo.entry(k).or_insert_with(|| space.count_points(&vec![k; params.len()], MAX_CELLS).ok()) };
    let (mut lo, mut hi) = (1, MAX_PARAM + 1); // cells(lo - 1) within the limit; hi: over it, or past the range
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if cells(mid).is_some() {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let Some(largest) = (1..lo).rev().find(|&k| cells(k).is_some_and(|c| c > 0)) else { return Vec::new() };
    let mut ks = vec![largest];
    if largest > 4 && cells(4).is_some_and(|c| c > 0) {
        ks.insert(0, 4);
    }
    ks.into_iter().map(at).collect()
}

/// Reads a `*.smo.input` file's text into an example; `path` names the file in errors
/// and gives the id.
pub fn read(text: &str, path: &Path) -> Result<Example, SuiteError> {
    let mut r = Lines::new(path, text);
    // 1-2. The array space, over the input and over the output tuple.
    let space_what = "the array space (an isl set such as `[N0] -> { [x0, x1] : 0 <= x0 < N0 and ... }`)";
    let (l1, t1, xset) = r.isl(space_what)?;
    if xset.space().is_map() {
        return Err(r.err(l1, first_column(t1), format!("expected {space_what}, found a relation")));
    }
    let n = xset.space().n_dim();
    if n == 0 {
        return Err(r.err(l1, first_column(t1), "the array space has no dimension"));
    }
    if xset.has_no_pieces() {
        return Err(r.err(l1, first_column(t1), "the array space is empty"));
    }
    let params = xset.space().params.clone();
    let image_what = format!("the array space over the output variables (an isl set of {n} dimensions)");
    let (l2, t2, yset) = r.isl(&image_what)?;
    if yset.space().is_map() || yset.space().n_dim() != n {
        return Err(r.err(
            l2,
            first_column(t2),
            format!(
                "expected {image_what}, found {}",
                if yset.space().is_map() { "a relation".to_string() } else { format!("{} dimensions", yset.space().n_dim()) }
            ),
        ));
    }
    r.check_params(l2, t2, &yset, &params)?;
    // 3. The output variable names.
    let (l3, t3) = r.next(&format!("the names of the {n} output variables"))?;
    let names: Vec<(usize, &str)> = t3.split_whitespace().map(|w| (column_of(t3, w.as_ptr() as usize - t3.as_ptr() as usize), w)).collect();
    if names.len() != n {
        return Err(r.err(l3, first_column(t3), format!("expected the names of the {n} output variables, found {} name(s)", names.len())));
    }
    if let Some((col, w)) = names.iter().find(|(_, w)| !is_identifier(w)) {
        return Err(r.err(l3, *col, format!("expected an output variable name (a letter or `_`, then letters, digits, `_`), found `{w}`")));
    }
    // 4-5. The counts.
    let stmts_line = r.lines.get(r.pos).copied();
    let n_stmts = r.count("the number of statements (a positive integer)", 1)?;
    if n_stmts > MAX_STATEMENTS {
        let (line, text) = stmts_line.unwrap_or((0, ""));
        return Err(r.err(line, first_column(text), format!("{n_stmts} statements: at most {MAX_STATEMENTS} are read (one array each)")));
    }
    let n_polys = r.count("the number of conflict polyhedra (a non-negative integer)", 0)?;
    // 6. The polyhedra.
    let mut polys = Vec::new();
    for k in 0..n_polys {
        let which = format!("conflict polyhedron {} of {n_polys}", k + 1);
        let (lh, th) = r.next(&format!("the statement indices of {which} (two integers such as `0 1`)"))?;
        let words: Vec<(usize, &str)> = th.split_whitespace().map(|w| (column_of(th, w.as_ptr() as usize - th.as_ptr() as usize), w)).collect();
        if words.len() != 2 {
            return Err(r.err(
                lh,
                first_column(th),
                format!("expected the statement indices of {which} (two integers such as `0 1`), found `{}`", th.trim()),
            ));
        }
        let mut ij = [0usize; 2];
        for (slot, (col, w)) in ij.iter_mut().zip(&words) {
            *slot = match w.parse::<usize>() {
                Ok(v) if v < n_stmts => v,
                Ok(v) => {
                    return Err(r.err(
                        lh,
                        *col,
                        format!(
                            "statement index {v} of {which} is out of range: the file declares {n_stmts} statement(s), indices 0 to {}",
                            n_stmts - 1
                        ),
                    ))
                }
                Err(_) => return Err(r.err(lh, *col, format!("expected a statement index of {which} (a non-negative integer), found `{w}`"))),
            };
        }
        let what = format!("{which}, an isl relation such as `[N0] -> {{ [x0] -> [y0] : ... }}` between {n}-dimensional cells");
        let (lp, tp, rel) = r.isl(&what)?;
        let sp = rel.space();
        if !sp.is_map() || sp.n_in() != n || sp.n_out() != n {
            return Err(r.err(lp, first_column(tp), format!("expected {what}, found `{sp}`")));
        }
        r.check_params(lp, tp, &rel, &params)?;
        polys.push((ij[0], ij[1], lp, the_piece(&rel)));
    }
    if let Some(&(line, text)) = r.lines.get(r.pos) {
        return Err(r.err(
            line,
            first_column(text),
            format!("expected the end of the file after the {n_polys} conflict polyhedra it declares, found `{}`", text.trim()),
        ));
    }
    // The count agrees with the content: the last statement is named by a polyhedron
    // (a statement after every one the polyhedra name would be an array of nothing).
    let named = polys.iter().map(|(i, j, _, _)| (*i).max(*j) + 1).max().unwrap_or(1);
    if n_stmts > named {
        let (line, text) = stmts_line.unwrap_or((0, ""));
        return Err(r.err(
            line,
            first_column(text),
            format!("the file declares {n_stmts} statements, but its conflict polyhedra name only statements 0 to {}", named - 1),
        ));
    }
    build(path, &params, &xset, &yset, names.iter().map(|(_, w)| w.to_string()).collect(), n_stmts, polys)
        .map_err(|e| r.err(l1, 1, format!("building the conflict sets: {e}")))
}

/// The example of a read file.
fn build(
    path: &Path,
    params: &[String],
    xset: &Set,
    yset: &Set,
    out_names: Vec<String>,
    n_stmts: usize,
    polys: Vec<(usize, usize, usize, BasicSet)>,
) -> Result<Example, FormError> {
    let pnames: Vec<&str> = params.iter().map(String::as_str).collect();
    let dims = xset.space().output.dims.clone();
    let taken = |s: &String| dims.contains(s) || params.contains(s);
    let mut ydims = out_names;
    if ydims.iter().enumerate().any(|(k, y)| taken(y) || ydims[..k].contains(y)) {
        ydims = dims.iter().map(|d| format!("{d}_2")).collect();
    }
    let names: Vec<String> = if n_stmts == 1 { vec!["A".into()] } else { (0..n_stmts).map(|s| format!("A{s}")).collect() };
    let dref: Vec<&str> = dims.iter().map(String::as_str).collect();
    let yref: Vec<&str> = ydims.iter().map(String::as_str).collect();
    let rel_space = |a: usize, b: usize| Space::map(&pnames, Tuple::new(names[a].clone(), &dref), Tuple::new(names[b].clone(), &yref));
    let x0 = the_piece(xset).align_params(params)?;
    let y0 = the_piece(yset);
    let n = dims.len();
    // Each polyhedron, intersected with the array space on both sides (as the tool does).
    let mut pieces: Vec<(usize, usize, BasicSet)> = Vec::new();
    for (a, b, _, k) in polys {
        let target = rel_space(a, b);
        let k = k.align_params(params)?.with_space(target.clone())?;
        let piece = lift(&x0, &target, 0)?.intersect(&lift(&y0, &target, n)?)?.intersect(&k)?;
        pieces.push((a, b, piece));
    }
    let mut arrays = BTreeMap::new();
    for (s, name) in names.iter().enumerate() {
        let space = Set::from_basic(x0.with_space(Space::set(&pnames, Tuple::new(name.clone(), &dref)))?);
        let own: Vec<BasicSet> = pieces.iter().filter(|(a, b, _)| *a == s && *b == s).map(|(_, _, p)| p.clone()).collect();
        // No polyhedron of its own: an empty conflict set (its one piece has no point).
        let conflicts = if own.is_empty() { Set::from_basic(BasicSet::empty(rel_space(s, s))) } else { Set::from_pieces(rel_space(s, s), own)? };
        arrays.insert(
            name.clone(),
            ArraySpec {
                space: space.to_string(),
                conflicts: Some(conflicts.to_string()),
                conflicts_form: Some("half".into()),
                extra: BTreeMap::from([("conflicts_source".to_string(), serde_json::Value::String("smo-tool".into()))]),
            },
        );
    }
    let mut extra = BTreeMap::new();
    if n_stmts > 1 {
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for (a, b, _) in &pieces {
            if a != b && !pairs.contains(&(*a, *b)) {
                pairs.push((*a, *b));
            }
        }
        let mut conflicts = Vec::new();
        for (a, b) in pairs {
            let ps: Vec<BasicSet> = pieces.iter().filter(|(x, y, _)| (*x, *y) == (a, b)).map(|(_, _, p)| p.clone()).collect();
            conflicts.push(InterRelation {
                from: names[a].clone(),
                to: names[b].clone(),
                relation: Set::from_pieces(rel_space(a, b), ps)?.to_string(),
            });
        }
        let section = InterSection { arrays: names.clone(), conflicts };
        extra.insert(SECTION.to_string(), serde_json::to_value(&section).map_err(|e| FormError::Program(e.to_string()))?);
    }
    let file_name = path.file_name().and_then(|f| f.to_str()).unwrap_or("");
    let id = file_name.strip_suffix(EXTENSION).unwrap_or(file_name).to_string();
    let n_polys = pieces.len();
    Ok(Example {
        title: format!(
            "{id}: SMO tool input, {n_stmts} statement{} and {n_polys} conflict polyhedr{}",
            if n_stmts == 1 { "" } else { "s" },
            if n_polys == 1 { "on" } else { "a" }
        ),
        id,
        source: Source { paper: "smo-tool".into(), location: path.display().to_string() },
        params: params.to_vec(),
        context: None,
        arrays,
        program: None,
        instances: instances(&Set::from_basic(x0), params),
        paper: Vec::new(),
        note: Some("read from the SMO tool's input format (crates/suite/src/smo_input.rs)".into()),
        extra,
        file: path.to_path_buf(),
    })
}
