//! Programs (statements, schedules, accesses, live-out data) and conflict sets
//! (004 Sec. 2.1 Def. 2.3 and Sec. 3.3.1; 001 Sec. 3.2).

use crate::aff::AffExpr;
use crate::basic::BasicSet;
use crate::error::{Error, Result};
use crate::set::{Map, Set};
use crate::space::{Space, Tuple};

/// An affine access `S[i] -> A[f(i)]`: the array name and one affine index expression
/// per array dimension, over the statement's space (parameters and iterators), valid on
/// the iterations of an optional guard (`S[t, i] -> A[t, i - 1] : i >= 2` accesses only
/// where `i >= 2`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// The accessed array.
    pub array: String,
    /// Index expressions over the statement's domain space.
    pub index: Vec<AffExpr>,
    /// The iterations where the access happens (over the statement's domain space);
    /// `None`: every iteration of the domain.
    pub guard: Option<BasicSet>,
}

/// A statement: its iteration domain, its multi-dimensional affine schedule and its
/// write and read accesses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// The statement name (the domain tuple name).
    pub name: String,
    /// The iteration domain `[P] -> { S[i] : ... }`.
    pub domain: Set,
    /// The schedule `theta(i)`: one affine expression per time dimension.
    pub schedule: Vec<AffExpr>,
    /// Written array cells.
    pub writes: Vec<Access>,
    /// Read array cells.
    pub reads: Vec<Access>,
}

/// Extracts an affine function from a single-valued relation without locals: each
/// output dimension must be fixed by equalities with a unit coefficient.
fn extract_function(map: &Map) -> Result<(Tuple, Vec<AffExpr>)> {
    let sp = map.space();
    if !sp.is_map() {
        return Err(Error::WrongKind(format!("`{map}` is not a relation")));
    }
    let [piece] = map.pieces() else {
        return Err(Error::Program(format!("`{map}` must be a single affine function (one piece)")));
    };
    if piece.n_local() > 0 {
        return Err(Error::Program(format!("`{map}` must be affine (no existential variables)")));
    }
    let np = sp.n_param();
    let ni = sp.n_in();
    let no = sp.n_out();
    let mut eqs: Vec<Vec<i64>> = piece.equalities().to_vec();
    let mut pivots: Vec<Vec<i64>> = Vec::new();
    for j in 0..no {
        let col = 1 + np + ni + j;
        let Some(pos) = eqs.iter().position(|r| r[col].abs() == 1) else {
            return Err(Error::Program(format!("output dimension {j} of `{map}` is not an affine function of the input")));
        };
        let mut r = eqs.remove(pos);
        if r[col] < 0 {
            r.iter_mut().for_each(|v| *v = -*v);
        }
        for e in eqs.iter_mut().chain(pivots.iter_mut()) {
            if e[col] != 0 {
                let k = e[col];
                *e = crate::int::lin_comb(1, e, -k, &r)?;
            }
        }
        pivots.push(r);
    }
    let out: Vec<AffExpr> = pivots
        .iter()
        .map(|r| AffExpr { coeffs: r[..1 + np + ni].iter().map(|v| -v).collect() })
        .collect();
    Ok((sp.output.clone(), out))
}

impl Statement {
    /// Builds a statement from isl text: the domain `[N] -> { S[t, i] : ... }`, the
    /// schedule `[N] -> { S[t, i] -> [t, i] }`, and accesses `{ S[t, i] -> A[t, i - 1] }`.
    pub fn parse(domain: &str, schedule: &str, writes: &[&str], reads: &[&str]) -> Result<Statement> {
        let domain = Set::parse(domain)?;
        let name = domain
            .space()
            .output
            .name
            .clone()
            .ok_or_else(|| Error::Program("the domain tuple needs a statement name".into()))?;
        let dsp = domain.space().clone();
        let conv_map = |m: &Set, text: &str| -> Result<(Tuple, Vec<AffExpr>)> {
            let inp = m.space().input.clone().ok_or_else(|| Error::Program(format!("`{text}` is not a relation")))?;
            if !inp.same_shape(&dsp.output) {
                return Err(Error::Program(format!("`{text}` does not start from the domain `{}`", dsp.output)));
            }
            let (t, fs) = extract_function(m)?;
            // Re-express over the domain space (parameters aligned by name).
            let msp = m.space();
            let mut out = Vec::new();
            for f in fs {
                let mut a = AffExpr::zero(&dsp);
                a.coeffs[0] = f.coeffs[0];
                for (i, p) in msp.params.iter().enumerate() {
                    let j = dsp.param_index(p).ok_or_else(|| Error::UnknownName(p.clone()))?;
                    a.coeffs[1 + j] = f.coeffs[1 + i];
                }
                for d in 0..inp.len() {
                    a.coeffs[dsp.dim_col(d)] = f.coeffs[1 + msp.n_param() + d];
                }
                out.push(a);
            }
            Ok((t, out))
        };
        let (_, schedule) = conv_map(&Set::parse(schedule)?, schedule)?;
        // An access relation may have several pieces (`S[i] -> A[i - 1] : i >= 1; S[i] ->
        // A[i + 1]`): one access per piece, guarded by the piece's domain.
        let acc = |texts: &[&str]| -> Result<Vec<Access>> {
            let mut out = Vec::new();
            for t in texts {
                let m = Set::parse(t)?;
                for piece in m.pieces() {
                    let one = Set::from_pieces(m.space().clone(), vec![piece.clone()])?;
                    let (tuple, index) = conv_map(&one, t)?;
                    let array = tuple.name.ok_or_else(|| Error::Program(format!("`{t}`: the array needs a name")))?;
                    let mut g = piece.domain()?.align_params(&dsp.params)?.with_space(dsp.clone())?;
                    g.simplify()?;
                    let guard = if g.n_local() == 0 && g.equalities().is_empty() && g.inequalities().is_empty() {
                        None
                    } else {
                        Some(g)
                    };
                    out.push(Access { array, index, guard });
                }
            }
            Ok(out)
        };
        Ok(Statement { name, writes: acc(writes)?, reads: acc(reads)?, schedule, domain })
    }
}

/// A program: parameters with their context, statements, and the array cells live after
/// the program (live-out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Parameter names, in the order used for concrete values.
    pub params: Vec<String>,
    /// Constraints on the parameters (a zero-dimensional basic set).
    pub context: BasicSet,
    /// The statements.
    pub statements: Vec<Statement>,
    /// Live-out cells, one set per array (`[N] -> { A[t, i] : i = N or t = N }`).
    pub live_out: Vec<Set>,
}

impl Program {
    /// A program with a parameter context such as `[N] -> { : N >= 1 }`.
    pub fn new(context: &str) -> Result<Program> {
        let c = BasicSet::parse(context)?;
        if c.space().n_dim() != 0 {
            return Err(Error::Program("the context constrains parameters only: `[N] -> { : ... }`".into()));
        }
        Ok(Program { params: c.space().params.clone(), context: c, statements: vec![], live_out: vec![] })
    }
    /// Adds a statement (its parameters must be declared in the context).
    pub fn add_statement(&mut self, s: Statement) -> Result<()> {
        for p in &s.domain.space().params {
            if !self.params.contains(p) {
                return Err(Error::Program(format!("statement `{}` uses undeclared parameter `{p}`", s.name)));
            }
        }
        self.statements.push(s);
        Ok(())
    }
    /// Declares live-out cells.
    pub fn add_live_out(&mut self, cells: &str) -> Result<()> {
        let s = Set::parse(cells)?;
        if s.space().output.name.is_none() || s.space().is_map() {
            return Err(Error::Program("live-out cells are a set of a named array".into()));
        }
        self.live_out.push(s);
        Ok(())
    }

    fn array_dims(&self, array: &str) -> Result<usize> {
        for s in &self.statements {
            for a in s.writes.iter().chain(&s.reads) {
                if a.array == array {
                    return Ok(a.index.len());
                }
            }
        }
        Err(Error::Program(format!("no access to array `{array}`")))
    }

    fn time_len(&self) -> usize {
        self.statements.iter().map(|s| s.schedule.len()).max().unwrap_or(0)
    }

    /// The conflict set of `array` (half form: pairs `(x, y)` where `x` is written no
    /// later than `y`).
    ///
    /// Semantics (004 Def. 2.3): cells `x != y` conflict when `y` is written at a time
    /// when `x` holds a value that is still needed: `x` was written at or before that
    /// time and is read strictly later, or `x` is live-out. Reads happen before writes
    /// at the same logical time, so a cell whose last read is at time `T` may receive a
    /// write at `T`. The array must be written at most once per cell
    /// (single assignment, as after the papers' total expansion); cells only read
    /// (inputs) are not part of the conflict set. Times are compared
    /// lexicographically, shorter schedules padded with zeros.
    ///
    /// Each piece is `{ x -> y : exists i_a, i_b, i_r : ... }` for one choice of writers,
    /// reader (or live-out set) and of the lexicographic cases; pieces with an empty
    /// rational relaxation are dropped and iteration variables are eliminated exactly
    /// when possible. Finally the pieces proved empty, duplicate or contained in another
    /// piece are dropped ([`crate::remove_contained`], exact for every parameter value):
    /// the enumeration above yields many of them (235 pieces become 115 for
    /// ov-example3), and every piece costs the allocators' ILPs.
    ///
    /// Design choice: pieces are not *merged* ([`crate::coalesce()`]) here. A merge keeps
    /// the integer points but may fill an integer gap between two pieces rationally, and
    /// the lattice method (001) works on the rational relaxation of the pieces: on
    /// ov-example3 merging (72 pieces) turned its `3 jmax kmax - jmax` cells into
    /// `3 jmax kmax - jmax + 3 kmax - 1`.
    pub fn conflict_set(&self, array: &str) -> Result<ConflictSet> {
        let mut cs = self.conflict_set_uncoalesced(array)?;
        cs.relation = crate::coalesce::remove_contained(&cs.relation)?;
        Ok(cs)
    }

    /// [`Program::conflict_set`] without the final coalescing: one piece per case of the
    /// enumeration (for measurements and for checking the coalescing).
    pub fn conflict_set_uncoalesced(&self, array: &str) -> Result<ConflictSet> {
        let n = self.array_dims(array)?;
        let params = self.params.clone();
        let np = params.len();
        let dims_x: Vec<String> = (0..n).map(|j| format!("x{j}")).collect();
        let dims_y: Vec<String> = (0..n).map(|j| format!("y{j}")).collect();
        let xr: Vec<&str> = dims_x.iter().map(|s| s.as_str()).collect();
        let yr: Vec<&str> = dims_y.iter().map(|s| s.as_str()).collect();
        let pr: Vec<&str> = params.iter().map(|s| s.as_str()).collect();
        let space = Space::map(&pr, Tuple::new(array, &xr), Tuple::new(array, &yr));
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
                    return Err(Error::Program(format!("live-out set of `{array}` has the wrong arity")));
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
                                for piece in c.finish_distinct(n, np)? {
                                    result.add_piece(piece)?;
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
            self.b.add_eq_row(row)
        } else {
            self.b.add_ineq_row(row)
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

/// How a conflict relation lists its pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConflictForm {
    /// Each unordered pair at least once (004 Sec. 3.3.1 convention: `x` not written
    /// later than `y`); the symmetric closure is implied.
    Half,
    /// Both `(x, y)` and `(y, x)` are listed.
    Symmetric,
}

/// The conflict set `CS` of one array (004 Sec. 2.1, Def. 2.3): a relation
/// `A[x] -> A[y]` given as a union of conflict polyhedra (with local variables).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictSet {
    /// The array name.
    pub array: String,
    /// The conflict relation.
    pub relation: Map,
    /// Half or symmetric form.
    pub form: ConflictForm,
}

impl ConflictSet {
    /// Accepts an explicitly given conflict relation (e.g. as printed in 001 or 004).
    pub fn from_map(relation: Map, form: ConflictForm) -> Result<ConflictSet> {
        let sp = relation.space();
        let input = sp.input.as_ref().ok_or_else(|| Error::WrongKind("a conflict set is a relation A[x] -> A[y]".into()))?;
        if !input.same_shape(&sp.output) {
            return Err(Error::SpaceMismatch(format!("conflict relation between different arrays: `{sp}`")));
        }
        let array = input.name.clone().unwrap_or_default();
        Ok(ConflictSet { array, relation, form })
    }
    /// Parses an explicit conflict relation in isl notation.
    pub fn parse(text: &str, form: ConflictForm) -> Result<ConflictSet> {
        Self::from_map(Map::parse(text)?, form)
    }
    /// The relation with both orientations of every pair.
    pub fn symmetric(&self) -> Result<Map> {
        match self.form {
            ConflictForm::Symmetric => Ok(self.relation.clone()),
            ConflictForm::Half => self.relation.union(&self.relation.reverse()?),
        }
    }
    /// The set of conflicting differences `DS = { x - y : x conflicts with y }`
    /// (001 Sec. 3.2), symmetric with respect to 0.
    pub fn differences(&self) -> Result<Set> {
        self.symmetric()?.deltas()
    }
}
