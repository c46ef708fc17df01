//! The program model: statements with iteration domains, multi-dimensional affine
//! schedules, guarded affine accesses, and the array cells live after the program.

use crate::error::{ProgramError, Result};
use polyalloc_formulation::{AffExpr, BasicSet, Map, Set, Tuple};

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

impl Access {
    /// True when the access happens at iteration `iter` (its guard, if any, holds);
    /// `params` and `iter` are values of the statement's domain space. The one guard
    /// test of polyalloc: the executor, max-live and every simulation use it, through
    /// `compiled::AccessAt::happens_at` (its rows evaluated at fixed parameter values,
    /// falling back to this function; tests compare the two).
    pub fn happens_at(&self, params: &[i64], iter: &[i64]) -> polyalloc_formulation::Result<bool> {
        let Some(g) = &self.guard else { return Ok(true) };
        if g.n_local() == 0 {
            // Fast path: evaluate the rows directly (no existential variable to scan).
            let point: Vec<i64> = std::iter::once(1).chain(params.iter().copied()).chain(iter.iter().copied()).collect();
            let eval = |r: &Vec<i64>| -> i128 { r.iter().zip(&point).map(|(&a, &b)| a as i128 * b as i128).sum() };
            return Ok(g.equalities().iter().all(|r| eval(r) == 0) && g.inequalities().iter().all(|r| eval(r) >= 0));
        }
        Set::from_basic(g.clone()).contains(params, iter)
    }

    /// The cell accessed at iteration `iter`.
    pub fn cell_at(&self, params: &[i64], iter: &[i64]) -> polyalloc_formulation::Result<Vec<i64>> {
        self.index.iter().map(|e| e.eval(params, iter)).collect()
    }
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
        return Err(ProgramError::Invalid(format!("`{map}` is not a relation")));
    }
    let [piece] = map.pieces() else {
        return Err(ProgramError::Invalid(format!("`{map}` must be a single affine function (one piece)")));
    };
    if piece.n_local() > 0 {
        return Err(ProgramError::Invalid(format!("`{map}` must be affine (no existential variables)")));
    }
    let np = sp.n_param();
    let ni = sp.n_in();
    let no = sp.n_out();
    let mut eqs: Vec<Vec<i64>> = piece.equalities().to_vec();
    let mut pivots: Vec<Vec<i64>> = Vec::new();
    for j in 0..no {
        let col = 1 + np + ni + j;
        let Some(pos) = eqs.iter().position(|r| r[col].abs() == 1) else {
            return Err(ProgramError::Invalid(format!("output dimension {j} of `{map}` is not an affine function of the input")));
        };
        let mut r = eqs.remove(pos);
        if r[col] < 0 {
            r.iter_mut().for_each(|v| *v = -*v);
        }
        for e in eqs.iter_mut().chain(pivots.iter_mut()) {
            if e[col] != 0 {
                let k = e[col];
                *e = polyalloc_formulation::int::lin_comb(1, e, -k, &r)?;
            }
        }
        pivots.push(r);
    }
    let out: Vec<AffExpr> = pivots.iter().map(|r| AffExpr { coeffs: r[..1 + np + ni].iter().map(|v| -v).collect() }).collect();
    Ok((sp.output.clone(), out))
}

impl Statement {
    /// Builds a statement from isl text: the domain `[N] -> { S[t, i] : ... }`, the
    /// schedule `[N] -> { S[t, i] -> [t, i] }`, and accesses `{ S[t, i] -> A[t, i - 1] }`.
    pub fn parse(domain: &str, schedule: &str, writes: &[&str], reads: &[&str]) -> Result<Statement> {
        let domain = Set::parse(domain)?;
        let name = domain.space().output.name.clone().ok_or_else(|| ProgramError::Invalid("the domain tuple needs a statement name".into()))?;
        let dsp = domain.space().clone();
        let conv_map = |m: &Set, text: &str| -> Result<(Tuple, Vec<AffExpr>)> {
            let inp = m.space().input.clone().ok_or_else(|| ProgramError::Invalid(format!("`{text}` is not a relation")))?;
            if !inp.same_shape(&dsp.output) {
                return Err(ProgramError::Invalid(format!("`{text}` does not start from the domain `{}`", dsp.output)));
            }
            let (t, fs) = extract_function(m)?;
            // Re-express over the domain space (parameters aligned by name).
            let msp = m.space();
            let mut out = Vec::new();
            for f in fs {
                let mut a = AffExpr::zero(&dsp);
                a.coeffs[0] = f.coeffs[0];
                for (i, p) in msp.params.iter().enumerate() {
                    let j = dsp.param_index(p).ok_or_else(|| ProgramError::Invalid(format!("unknown parameter `{p}`")))?;
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
            // A union may name several arrays (`{ S[i] -> A[i]; S[i] -> B[i] }`): one
            // relation per array, each split into its pieces.
            for t in texts {
                for m in Set::parse_union(t)? {
                    for piece in m.pieces() {
                        // A relation that is a function only on the domain (Polly's
                        // floor divisions) in the form of one.
                        let piece = crate::access::as_function(&piece.align_params(&dsp.params)?, &domain)?;
                        let piece = &piece;
                        let one = Set::from_pieces(piece.space().clone(), vec![piece.clone()])?;
                        let (tuple, index) = conv_map(&one, t)?;
                        let array = tuple.name.ok_or_else(|| ProgramError::Invalid(format!("`{t}`: the array needs a name")))?;
                        let mut g = piece.domain()?.align_params(&dsp.params)?.with_space(dsp.clone())?;
                        g.simplify()?;
                        let guard = if g.n_local() == 0 && g.equalities().is_empty() && g.inequalities().is_empty() { None } else { Some(g) };
                        out.push(Access { array, index, guard });
                    }
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
    /// Fold regions, at most one set per array (`[N] -> { A[i] : 1 <= i <= N }`): the
    /// cells a storage mapping of that array folds. The executor stores the other cells
    /// of a folded array at a location of their own, as a transformed program that
    /// contracts only a region of an array does (Song et al. 2005, Sec. 5: the local region `R` becomes
    /// a small array `R'`, accesses outside it, e.g. `ZA(1, K)`, still go to `ZA`). An
    /// array without a fold region is folded entirely. Empty for most programs.
    pub fold_regions: Vec<Set>,
}

impl Program {
    /// A program with a parameter context such as `[N] -> { : N >= 1 }`.
    pub fn new(context: &str) -> Result<Program> {
        let c = BasicSet::parse(context)?;
        if c.space().n_dim() != 0 {
            return Err(ProgramError::Invalid("the context constrains parameters only: `[N] -> { : ... }`".into()));
        }
        Ok(Program { params: c.space().params.clone(), context: c, statements: vec![], live_out: vec![], fold_regions: vec![] })
    }
    /// Adds a statement (its parameters must be declared in the context, and every
    /// array it accesses must have as many subscripts as in every other access).
    pub fn add_statement(&mut self, s: Statement) -> Result<()> {
        for p in &s.domain.space().params {
            if !self.params.contains(p) {
                return Err(ProgramError::Invalid(format!("statement `{}` uses undeclared parameter `{p}`", s.name)));
            }
        }
        for a in s.writes.iter().chain(&s.reads) {
            let earlier = self
                .statements
                .iter()
                .chain(std::iter::once(&s))
                .find_map(|t| t.writes.iter().chain(&t.reads).find(|b| b.array == a.array && b.index.len() != a.index.len()).map(|b| (t, b)));
            if let Some((t, b)) = earlier {
                return Err(ProgramError::Invalid(format!(
                    "statement `{}` accesses `{}` with {} subscript{}, statement `{}` with {}: an array has one number of dimensions",
                    s.name,
                    a.array,
                    a.index.len(),
                    if a.index.len() == 1 { "" } else { "s" },
                    t.name,
                    b.index.len()
                )));
            }
        }
        self.statements.push(s);
        Ok(())
    }
    /// Declares live-out cells, of one array or of several (`{ A[i] : i = N; B[i, j] }`).
    pub fn add_live_out(&mut self, cells: &str) -> Result<()> {
        for s in Set::parse_union(cells)? {
            self.add_live_out_set(s)?;
        }
        Ok(())
    }

    /// Declares live-out cells of one named array.
    pub fn add_live_out_set(&mut self, s: Set) -> Result<()> {
        let sp = s.space();
        let Some(name) = sp.output.name.clone().filter(|_| !sp.is_map()) else {
            return Err(ProgramError::Invalid("live-out cells are a set of a named array".into()));
        };
        if let Some(p) = sp.params.iter().find(|p| !self.params.contains(p)) {
            return Err(ProgramError::Invalid(format!("the live-out set of `{name}` uses undeclared parameter `{p}`")));
        }
        // Over the program's parameters, in its order (the executor and max-live
        // evaluate it with the program's parameter values).
        let pieces = s.pieces().iter().map(|p| p.align_params(&self.params)).collect::<polyalloc_formulation::Result<Vec<_>>>()?;
        self.live_out.push(Set::from_pieces(sp.with_params(self.params.clone()), pieces)?);
        Ok(())
    }

    /// Restricts every access to `array`, and its live-out cells, to the cells of
    /// `space` (the array's declared cells): an access to a cell outside it is ignored,
    /// as the bench-suite format says (bench-suite README section 4: such a cell is an
    /// input from outside the modelled region, e.g. a neighbouring tile). Each access's
    /// guard gains the space's constraints on its subscripts, except those the domain
    /// and guard already imply (rationally), so an access inside the space keeps its
    /// guard. The space must be one convex piece (a union's pieces may overlap, and an
    /// access split over them would write a cell twice); an empty space drops every
    /// access to the array.
    pub fn restrict_to_space(&mut self, array: &str, space: &Set) -> Result<()> {
        let piece = match space.pieces() {
            [] => None,
            [p] => Some(p.clone()),
            ps => {
                return Err(ProgramError::Invalid(format!(
                    "the space of `{array}` is a union of {} pieces; a space the program accesses must be one convex piece",
                    ps.len()
                )))
            }
        };
        if let Some(p) = space.space().params.iter().find(|p| !self.params.contains(p)) {
            return Err(ProgramError::Invalid(format!("the space of `{array}` uses undeclared parameter `{p}`")));
        }
        for s in &mut self.statements {
            let dsp = s.domain.space().clone();
            let domain_pieces = s.domain.pieces().to_vec();
            let restrict = |a: &Access| -> Result<Option<Access>> {
                let Some(p) = &piece else { return Ok(None) };
                if p.space().n_dim() != a.index.len() {
                    return Err(ProgramError::Invalid(format!(
                        "`{array}` has {} dimensions (its space), statement `{}` accesses it with {} subscripts",
                        p.space().n_dim(),
                        s.name,
                        a.index.len()
                    )));
                }
                let p = p.align_params(&dsp.params).map_err(|_| {
                    ProgramError::Invalid(format!("the space of `{array}` uses a parameter that statement `{}` does not declare", s.name))
                })?;
                let (np, nd, nl) = (dsp.n_param(), p.space().n_dim(), p.n_local());
                let ni = dsp.n_dim();
                // A row of the space over [1, params, cells, locals] as a row over
                // [1, params, iterators, locals] of the domain, through the subscripts.
                let conv = |r: &[i64]| -> Result<Vec<i64>> {
                    let mut out = vec![0i64; 1 + np + ni + nl];
                    out[..1 + np].copy_from_slice(&r[..1 + np]);
                    for d in 0..nd {
                        let c = r[1 + np + d];
                        if c != 0 {
                            let idx = &a.index[d].coeffs;
                            for (o, &v) in out.iter_mut().zip(idx.iter()) {
                                *o = v
                                    .checked_mul(c)
                                    .and_then(|x| o.checked_add(x))
                                    .ok_or_else(|| ProgramError::Overflow("restricting an access to its array's space".into()))?;
                            }
                        }
                    }
                    out[1 + np + ni..].copy_from_slice(&r[1 + np + nd..]);
                    if out.contains(&i64::MIN) {
                        return Err(ProgramError::Overflow("restricting an access to its array's space".into()));
                    }
                    Ok(out)
                };
                let mut g = BasicSet::universe(dsp.clone());
                for _ in 0..nl {
                    g.add_local();
                }
                let mut added = false;
                for r in p.equalities() {
                    g.add_eq_row(conv(r)?)?;
                    added = true;
                }
                // Where the access happens (the domain's pieces within its guard), once
                // for all the space's rows; none with locals: a local's row is never
                // implied.
                let happens: Vec<BasicSet> = if nl == 0 {
                    domain_pieces
                        .iter()
                        .map(|d| match &a.guard {
                            Some(gd) => d.intersect(gd),
                            None => Ok(d.clone()),
                        })
                        .collect::<polyalloc_formulation::Result<_>>()?
                } else {
                    Vec::new()
                };
                for r in p.inequalities() {
                    let row = conv(r)?;
                    // Implied where the access happens when `row <= -1` is rationally
                    // empty there.
                    let implied = nl == 0 && {
                        let ovf = || ProgramError::Overflow("restricting an access to its array's space".into());
                        let mut neg: Vec<i64> = row.iter().map(|v| v.checked_neg().ok_or_else(ovf)).collect::<Result<_>>()?;
                        neg[0] = neg[0].checked_sub(1).ok_or_else(ovf)?;
                        let mut all = true;
                        for h in &happens {
                            let mut t = h.clone();
                            let mut n = neg.clone();
                            n.resize(t.n_cols(), 0);
                            t.add_ineq_row(n)?;
                            if !t.is_rationally_empty()? {
                                all = false;
                                break;
                            }
                        }
                        all
                    };
                    if !implied {
                        g.add_ineq_row(row)?;
                        added = true;
                    }
                }
                if !added {
                    return Ok(Some(a.clone()));
                }
                g.simplify()?;
                let guard = match &a.guard {
                    Some(old) => old.intersect(&g)?,
                    None => g,
                };
                Ok(Some(Access { array: a.array.clone(), index: a.index.clone(), guard: Some(guard) }))
            };
            // The accesses of a list with those to `array` restricted (or dropped).
            let restrict_all = |list: &[Access]| -> Result<Vec<Access>> {
                let mut out = Vec::with_capacity(list.len());
                for a in list {
                    if a.array != array {
                        out.push(a.clone());
                    } else if let Some(r) = restrict(a)? {
                        out.push(r);
                    }
                }
                Ok(out)
            };
            let (writes, reads) = (restrict_all(&s.writes)?, restrict_all(&s.reads)?);
            s.writes = writes;
            s.reads = reads;
        }
        // Live-out cells outside the space are no cells of the array.
        for lo in self.live_out.iter_mut().filter(|lo| lo.space().output.name.as_deref() == Some(array)) {
            let mut pieces = Vec::new();
            if let Some(p) = &piece {
                let p = p.align_params(&self.params)?.with_space(lo.space().clone()).map_err(|_| {
                    ProgramError::Invalid(format!("the live-out set of `{array}` and its space have different numbers of dimensions"))
                })?;
                for q in lo.pieces() {
                    pieces.push(q.intersect(&p)?);
                }
            }
            *lo = Set::from_pieces(lo.space().clone(), pieces)?;
        }
        Ok(())
    }

    /// Declares the fold region of an array (see [`Program::fold_regions`]): a set of
    /// cells of one named array, over the program's parameters; one per array.
    pub fn add_fold_region(&mut self, cells: Set) -> Result<()> {
        let sp = cells.space();
        let Some(name) = sp.output.name.clone().filter(|_| !sp.is_map()) else {
            return Err(ProgramError::Invalid("a fold region is a set of cells of a named array".into()));
        };
        if self.fold_region(&name).is_some() {
            return Err(ProgramError::Invalid(format!("array `{name}` already has a fold region")));
        }
        if let Some(p) = sp.params.iter().find(|p| !self.params.contains(p)) {
            return Err(ProgramError::Invalid(format!("the fold region of `{name}` uses undeclared parameter `{p}`")));
        }
        let pieces = cells.pieces().iter().map(|p| p.align_params(&self.params)).collect::<polyalloc_formulation::Result<Vec<_>>>()?;
        self.fold_regions.push(Set::from_pieces(sp.with_params(self.params.clone()), pieces)?);
        Ok(())
    }

    /// The fold region of `array`, if it has one.
    pub fn fold_region(&self, array: &str) -> Option<&Set> {
        self.fold_regions.iter().find(|s| s.space().output.name.as_deref() == Some(array))
    }

    pub fn array_dims(&self, array: &str) -> Result<usize> {
        for s in &self.statements {
            for a in s.writes.iter().chain(&s.reads) {
                if a.array == array {
                    return Ok(a.index.len());
                }
            }
        }
        Err(ProgramError::Invalid(format!("no access to array `{array}`")))
    }

    pub fn time_len(&self) -> usize {
        self.statements.iter().map(|s| s.schedule.len()).max().unwrap_or(0)
    }
}

/// True when `point` is in `set` at `params`; pieces without existential variables are
/// tested by evaluating their rows (the executor and max-live ask once per access or
/// cell).
pub fn set_contains(set: &Set, params: &[i64], point: &[i64]) -> polyalloc_formulation::Result<bool> {
    if set.pieces().iter().any(|p| p.n_local() > 0) {
        return set.contains(params, point);
    }
    let eval =
        |r: &Vec<i64>| -> i128 { r[0] as i128 + r[1..].iter().zip(params.iter().chain(point)).map(|(&a, &b)| a as i128 * b as i128).sum::<i128>() };
    Ok(set.pieces().iter().any(|p| p.equalities().iter().all(|r| eval(r) == 0) && p.inequalities().iter().all(|r| eval(r) >= 0)))
}

/// A fast hasher for the simulations' maps of cells (vectors of small integers; no
/// adversary: the keys come from the program itself): FxHash, as rustc uses.
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.hash = (self.hash.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_i64(&mut self, v: i64) {
        self.write_u64(v as u64);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64);
    }
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A hash map with [`FxHasher`].
pub type FxMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FxHasher>>;
