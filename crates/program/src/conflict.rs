//! Conflict sets computed from a program (Bhaskaracharya et al. 2016, Sec. 2.1, Def. 2.3 and Sec. 3.3.1;
//! Darte et al. 2015, Sec. 3.2): pairs of cells of one array that hold simultaneously live values
//! under the program's schedule.

use crate::error::{ProgramError, Result};
use crate::model::{Access, Program, Statement};
use polyalloc_formulation::{remove_contained, AffExpr, BasicSet, ConflictForm, ConflictSet, Error as FError, Set, Space};

/// Most conflict polyhedra the enumeration of [`Program::conflict_set`] may produce
/// (before the contained ones are dropped). Each costs a few kilobytes and every later
/// phase is at least quadratic in their number; a program past the limit is refused
/// with [`FError::TooManyPieces`] instead of exhausting memory (a program of 60
/// statements writing one array took 3.3 GB).
pub const MAX_CONFLICT_PIECES: usize = 10_000;

impl Program {
    /// The conflict set of `array` (half form: pairs `(x, y)` where `x` is written no
    /// later than `y`).
    ///
    /// Semantics (Bhaskaracharya et al. 2016, Def. 2.3): cells `x != y` conflict when `y` is written at a time
    /// when `x` holds a value that is still needed: `x` was written at or before that
    /// time and is read strictly later, or `x` is live-out. Reads happen before writes
    /// at the same logical time, so a cell whose last read is at time `T` may receive a
    /// write at `T`. Exact when every cell is written at most once (single
    /// assignment, as after the papers' total expansion); a cell written more than
    /// once counts as busy from each of its writes to every later read of it, a
    /// superset of its values' lifetimes, so a mapping valid for this set is valid for
    /// the program (bench-suite README section 4, tested in `tests/overwrite.rs`).
    /// Cells only read (inputs) are not part of the conflict set. Times are compared
    /// lexicographically, shorter schedules padded with zeros.
    ///
    /// Each piece is `{ x -> y : exists i_a, i_b, i_r : ... }` for one choice of writers,
    /// reader (or live-out set) and of the lexicographic cases; pieces with an empty
    /// rational relaxation are dropped and iteration variables are eliminated exactly
    /// when possible. Finally the pieces proved empty, duplicate or contained in another
    /// piece are dropped ([`remove_contained`], exact for every parameter value):
    /// the enumeration above yields many of them (235 pieces become 115 for
    /// ov-example3), and every piece costs the allocators' ILPs.
    ///
    /// Design choice: pieces are not *merged* ([`polyalloc_formulation::coalesce()`]) here. A merge keeps
    /// the integer points but may fill an integer gap between two pieces rationally, and
    /// the lattice method (Darte et al. 2015) works on the rational relaxation of the pieces: on
    /// ov-example3 merging (72 pieces) turned its `3 jmax kmax - jmax` cells into
    /// `3 jmax kmax - jmax + 3 kmax - 1`.
    pub fn conflict_set(&self, array: &str) -> Result<ConflictSet> {
        let mut cs = self.conflict_set_uncoalesced(array)?;
        cs.relation = remove_contained(&cs.relation)?;
        Ok(cs)
    }

    /// [`Program::conflict_set`] without the final coalescing: one piece per case of the
    /// enumeration (for measurements and for checking the coalescing).
    pub fn conflict_set_uncoalesced(&self, array: &str) -> Result<ConflictSet> {
        let n = self.array_dims(array)?;
        let params = self.params.clone();
        let np = params.len();
        let space = ConflictSet::pair_space(&params, array, n);
        let d = self.time_len();
        let mut writers = Vec::new();
        let mut readers = Vec::new();
        for s in &self.statements {
            for w in s.writes.iter().filter(|a| a.array == array) {
                writers.push((s, w));
            }
            for r in s.reads.iter().filter(|a| a.array == array) {
                readers.push((s, r));
            }
        }
        let mut result = Set::empty(space.clone());
        // Busy reasons: reads (with the strict time condition) and live-out sets.
        enum Busy<'a> {
            Read(&'a Statement, &'a Access),
            LiveOut(&'a BasicSet),
        }
        let mut busy: Vec<Busy> = readers.iter().map(|(s, r)| Busy::Read(s, r)).collect();
        for lo in &self.live_out {
            if lo.space().output.name.as_deref() == Some(array) {
                if lo.space().n_dim() != n {
                    return Err(ProgramError::Invalid(format!("live-out set of `{array}` has the wrong arity")));
                }
                for p in lo.pieces() {
                    busy.push(Busy::LiveOut(p));
                }
            }
        }
        let ctx = self.context.align_params(&params)?;
        for (sa, wa) in &writers {
            for (sb, wb) in &writers {
                for why in &busy {
                    for da in sa.domain.pieces() {
                        for db in sb.domain.pieces() {
                            let mut b = Builder::new(space.clone());
                            b.embed_params(&ctx)?;
                            let ia = b.embed_domain(da, &params)?;
                            let ib = b.embed_domain(db, &params)?;
                            b.access_eq(wa, &ia, np, &(0..n).map(|j| 1 + np + j).collect::<Vec<_>>(), &params)?;
                            b.access_eq(wb, &ib, np, &(0..n).map(|j| 1 + np + n + j).collect::<Vec<_>>(), &params)?;
                            let ta = b.time(sa, &ia, d, np)?;
                            let tb = b.time(sb, &ib, d, np)?;
                            let mut cases: Vec<Builder> = Vec::new();
                            match why {
                                Busy::Read(sr, r) => {
                                    for dr in sr.domain.pieces() {
                                        let mut b2 = b.clone();
                                        let ir = b2.embed_domain(dr, &params)?;
                                        b2.access_eq(r, &ir, np, &(0..n).map(|j| 1 + np + j).collect::<Vec<_>>(), &params)?;
                                        let tr = b2.time(sr, &ir, d, np)?;
                                        for c1 in lex_cases(&ta, &tb, true) {
                                            for c2 in lex_cases(&tb, &tr, false) {
                                                let mut b3 = b2.clone();
                                                b3.rows(&c1)?;
                                                b3.rows(&c2)?;
                                                cases.push(b3);
                                            }
                                        }
                                    }
                                }
                                Busy::LiveOut(lo) => {
                                    let mut b2 = b.clone();
                                    b2.embed_cells(lo, &params, n)?;
                                    for c1 in lex_cases(&ta, &tb, true) {
                                        let mut b3 = b2.clone();
                                        b3.rows(&c1)?;
                                        cases.push(b3);
                                    }
                                }
                            }
                            for c in cases {
                                // The enumeration is a product of statements, accesses
                                // and cases: the run's time budget stops it.
                                polyalloc_ilp::budget::check()?;
                                for piece in c.finish_distinct(n, np)? {
                                    result.add_piece(piece)?;
                                }
                                if result.n_pieces() > MAX_CONFLICT_PIECES {
                                    return Err(FError::TooManyPieces {
                                        what: format!("the conflict set of `{array}` computed from the program"),
                                        count: format!("more than {MAX_CONFLICT_PIECES}"),
                                        limit: MAX_CONFLICT_PIECES,
                                    }
                                    .into());
                                }
                            }
                        }
                    }
                }
            }
        }
        Ok(ConflictSet { array: array.to_string(), relation: result, form: ConflictForm::Half })
    }
}

/// Linear rows `(kind_is_eq, row over the builder's columns at the time of creation)`.
type Rows = Vec<(bool, Vec<i64>)>;

/// Lexicographic comparison cases of two time vectors given as builder columns: `a < b`
/// (strict) or `a <= b` (`allow_eq`). One case per disjunct.
fn lex_cases(a: &[Vec<i64>], b: &[Vec<i64>], allow_eq: bool) -> Vec<Rows> {
    let d = a.len();
    let mut out = Vec::new();
    for k in 0..=d {
        if k == d && !allow_eq {
            break;
        }
        let mut rows = Rows::new();
        for j in 0..k.min(d) {
            rows.push((true, sub(&b[j], &a[j])));
        }
        if k < d {
            let mut r = sub(&b[k], &a[k]);
            r[0] -= 1;
            rows.push((false, r));
        }
        out.push(rows);
    }
    out
}

fn sub(x: &[i64], y: &[i64]) -> Vec<i64> {
    let n = x.len().max(y.len());
    (0..n).map(|c| x.get(c).copied().unwrap_or(0) - y.get(c).copied().unwrap_or(0)).collect()
}

/// Incremental construction of one conflict piece: columns `[1, P, x, y, locals...]`.
#[derive(Clone)]
struct Builder {
    b: BasicSet,
}

impl Builder {
    fn new(space: Space) -> Builder {
        Builder { b: BasicSet::universe(space) }
    }
    fn push(&mut self, eq: bool, mut row: Vec<i64>) -> Result<()> {
        row.resize(self.b.n_cols(), 0);
        if eq {
            Ok(self.b.add_eq_row(row)?)
        } else {
            Ok(self.b.add_ineq_row(row)?)
        }
    }
    fn rows(&mut self, rows: &Rows) -> Result<()> {
        for (eq, r) in rows {
            self.push(*eq, r.clone())?;
        }
        Ok(())
    }
    /// Embeds `s` (aligned to `params`) mapping its dims to `dim_cols`; its locals become
    /// new locals.
    fn embed(&mut self, s: &BasicSet, params: &[String], dim_cols: &[usize]) -> Result<()> {
        let s = s.align_params(params)?;
        let np = params.len();
        let mut map: Vec<usize> = (0..1 + np).collect();
        map.extend_from_slice(dim_cols);
        for _ in 0..s.n_local() {
            map.push(self.b.add_local());
        }
        let n = self.b.n_cols();
        for (eq, rows) in [(true, s.equalities()), (false, s.inequalities())] {
            for r in rows {
                let mut o = vec![0; n];
                for (c, &v) in r.iter().enumerate() {
                    o[map[c]] += v;
                }
                self.push(eq, o)?;
            }
        }
        Ok(())
    }
    fn embed_params(&mut self, ctx: &BasicSet) -> Result<()> {
        let params = ctx.space().params.clone();
        self.embed(ctx, &params, &[])
    }
    /// New locals for the iterators of a domain piece, constrained to it.
    fn embed_domain(&mut self, dom: &BasicSet, params: &[String]) -> Result<Vec<usize>> {
        let cols: Vec<usize> = (0..dom.space().n_dim()).map(|_| self.b.add_local()).collect();
        self.embed(dom, params, &cols)?;
        Ok(cols)
    }
    /// Constrains the cells `x` (columns) to a set of array cells.
    fn embed_cells(&mut self, cells: &BasicSet, params: &[String], n: usize) -> Result<()> {
        let np = params.len();
        let cols: Vec<usize> = (0..n).map(|j| 1 + np + j).collect();
        self.embed(cells, params, &cols)
    }
    /// A row over the builder's columns for an affine expression over a statement space
    /// whose iterators sit at `iters`.
    fn aff_row(&self, a: &AffExpr, iters: &[usize], np: usize) -> Vec<i64> {
        let mut r = vec![0; self.b.n_cols()];
        r[0] = a.coeffs[0];
        r[1..1 + np].copy_from_slice(&a.coeffs[1..1 + np]);
        for (k, &c) in iters.iter().enumerate() {
            r[c] += a.coeffs[1 + np + k];
        }
        r
    }
    fn access_eq(&mut self, acc: &Access, iters: &[usize], np: usize, cells: &[usize], params: &[String]) -> Result<()> {
        for (j, f) in acc.index.iter().enumerate() {
            let mut r = self.aff_row(f, iters, np);
            r[cells[j]] -= 1;
            self.push(true, r)?;
        }
        if let Some(g) = &acc.guard {
            self.embed(g, params, iters)?;
        }
        Ok(())
    }
    /// The time vector rows (padded with zeros to `d`).
    fn time(&self, s: &Statement, iters: &[usize], d: usize, np: usize) -> Result<Vec<Vec<i64>>> {
        let mut out: Vec<Vec<i64>> = s.schedule.iter().map(|a| self.aff_row(a, iters, np)).collect();
        while out.len() < d {
            out.push(vec![0; self.b.n_cols()]);
        }
        Ok(out)
    }
    /// Simplifies; splits on `x != y` only when `x = y` is possible; drops empty pieces.
    fn finish_distinct(self, n: usize, np: usize) -> Result<Vec<BasicSet>> {
        let mut b = self.b;
        b.simplify()?;
        if b.is_marked_empty() || b.is_obviously_empty()? {
            return Ok(vec![]);
        }
        let mut same = b.clone();
        for j in 0..n {
            let mut r = vec![0; same.n_cols()];
            r[1 + np + j] = 1;
            r[1 + np + n + j] = -1;
            same.add_eq_row(r)?;
        }
        same.simplify()?;
        let mut variants = Vec::new();
        if same.is_marked_empty() || same.is_obviously_empty()? {
            variants.push(b);
        } else {
            for j in 0..n {
                for s in [1i64, -1] {
                    let mut v = b.clone();
                    let mut r = vec![0; v.n_cols()];
                    r[1 + np + j] = s;
                    r[1 + np + n + j] = -s;
                    r[0] = -1; // s*(x_j - y_j) >= 1
                    v.add_ineq_row(r)?;
                    variants.push(v);
                }
            }
        }
        let mut out = Vec::new();
        for mut v in variants {
            v.simplify_locals()?;
            if v.is_marked_empty() || v.is_obviously_empty()? {
                continue;
            }
            out.push(v);
        }
        Ok(out)
    }
}
