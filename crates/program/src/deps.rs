//! Dependence relations from accesses (Pugh 1991, Sec. 3, "Computing dependence relations").
//!
//! For two accesses to one array, `(a_q)⁻¹ ∘ a_p` relates an iteration of `s_p` to the
//! iterations of `s_q` touching the same cell; restricting it to pairs where the source
//! runs first in the original order (the lexicographic order of the original
//! multi-dimensional schedule) gives the dependence relation `s_p[x] δ s_q[y]`. Flow
//! (write then read), anti (read then write) and output (write then write)
//! dependences are memory-based, like Pugh's tables. Broadcast "dependences" relate
//! two distinct instances reading the same cell of an array marked as broadcast, in
//! either order (the ordering restriction "is ignored for broadcast and reduction
//! dependencies"). Empty pieces are dropped with the solver (parameters range over the
//! program's context). Reduction "dependences" (arrays marked as reductions) relate two
//! distinct updates of one cell, in either order, and replace the ordered pairs
//! between updaters of that array.

use crate::error::Result;
use crate::model::{Access, Program};
use polyalloc_formulation::{AffExpr, BasicSet, Map, Set, Space, Tuple};
use polyalloc_ilp::Solver;

/// Kind of a dependence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DepKind {
    /// Write then read.
    Flow,
    /// Read then write.
    Anti,
    /// Write then write.
    Output,
    /// Two reads of the same cell (only for arrays marked as broadcast): `T(x) ≠ T(y)`.
    Broadcast,
    /// Two compatible updates of the same cell of an array marked as a reduction
    /// (`a[i] := a[i] + b[j]`): either order, but not simultaneously, `T(x) ≠ T(y)`.
    Reduction,
}

impl DepKind {
    /// `flow`, `anti`, `output`, `broadcast`, `reduction`.
    pub fn name(self) -> &'static str {
        match self {
            DepKind::Flow => "flow",
            DepKind::Anti => "anti",
            DepKind::Output => "output",
            DepKind::Broadcast => "broadcast",
            DepKind::Reduction => "reduction",
        }
    }

    /// True for the kinds that order their instances (`T(x) < T(y)`).
    pub fn orders(self) -> bool {
        !matches!(self, DepKind::Broadcast | DepKind::Reduction)
    }
    /// True for the kinds that only require different times and may be ignored when
    /// broadcasts are not respected (broadcasts); reductions are always respected.
    pub fn optional(self) -> bool {
        matches!(self, DepKind::Broadcast)
    }
    /// Name as in the bench-suite files (`dependence`, `broadcast`, `reduction`).
    pub fn file_kind(self) -> &'static str {
        match self {
            DepKind::Broadcast => "broadcast",
            DepKind::Reduction => "reduction",
            _ => "dependence",
        }
    }
}

/// A dependence `s_p[x] δ s_q[y]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependence {
    /// An identifier (`"1"`, `"B1"`, or `flow a s2->s1` for computed ones).
    pub id: String,
    /// Kind.
    pub kind: DepKind,
    /// Source statement index.
    pub source: usize,
    /// Target statement index.
    pub target: usize,
    /// The relation from source iterations to target iterations, intersected with both
    /// statement domains.
    pub relation: Map,
}

/// The space `S_p[x] -> S_q[y]` of two statements (output dims renamed when the
/// names clash).
pub(crate) fn pair_space(params: &[String], p: &Tuple, q: &Tuple) -> Space {
    let pp: Vec<&str> = params.iter().map(String::as_str).collect();
    let mut q2 = q.clone();
    q2.dims = q.dims.iter().map(|d| if p.dims.contains(d) { format!("{d}2") } else { d.clone() }).collect();
    Space::map(&pp, p.clone(), q2)
}

/// The row of `sign * e` in a relation space with `np` parameters (named `params`),
/// `e` being over a statement space `es` whose `nd` dims go to columns `1 + np + offset..`.
#[allow(clippy::too_many_arguments)]
fn aff_row(e: &AffExpr, es: &Space, params: &[String], nd: usize, ncols: usize, offset: usize, sign: i64) -> Vec<i64> {
    let np = params.len();
    let mut r = vec![0; ncols];
    r[0] = sign * e.coeffs[0];
    for (i, p) in es.params.iter().enumerate() {
        if let Some(j) = params.iter().position(|x| x == p) {
            r[1 + j] += sign * e.coeffs[1 + i];
        }
    }
    let enp = es.n_param();
    for j in 0..nd {
        r[1 + np + offset + j] = sign * e.coeffs[1 + enp + j];
    }
    r
}

fn add_aff(r: &mut [i64], s: &[i64]) {
    for (a, b) in r.iter_mut().zip(s) {
        *a += *b;
    }
}

/// `D_p × D_q` (with access guards) as pieces of the pair space.
fn domains_product(prog: &Program, p: usize, q: usize, ga: &Option<BasicSet>, gb: &Option<BasicSet>) -> Result<(Space, Vec<BasicSet>)> {
    let sp_ = &prog.statements[p];
    let sq = &prog.statements[q];
    let space = pair_space(&prog.params, &sp_.domain.space().output, &sq.domain.space().output);
    let np = space.n_param();
    let ni = space.n_in();
    let mut out = Vec::new();
    let with_guard = |d: &Set, g: &Option<BasicSet>| -> Result<Set> {
        match g {
            Some(g) => Ok(d.intersect(&Set::from_basic(g.clone()))?),
            None => Ok(d.clone()),
        }
    };
    let dp = with_guard(&sp_.domain, ga)?;
    let dq = with_guard(&sq.domain, gb)?;
    for a in dp.pieces() {
        for b in dq.pieces() {
            let nla = a.n_local();
            let nl = nla + b.n_local();
            let base = space.n_cols();
            let na = a.space().n_dim();
            let pa = a.place_into(&space, nl, &|c| {
                if c < 1 + np + na {
                    c
                } else {
                    base + (c - 1 - np - na)
                }
            })?;
            let nb = b.space().n_dim();
            let pb = b.place_into(&space, nl, &|c| {
                if c < 1 + np + nb {
                    c + ni
                } else {
                    base + nla + (c - 1 - np - nb)
                }
            })?;
            out.push(pa.conjoin(&pb)?);
        }
    }
    Ok((space, out))
}

/// The pairs `x -> y` of two accesses to the same cell, with `x` before `y` in the
/// original order (`ordered`), or all distinct pairs (`!ordered`).
fn access_pairs(prog: &Program, p: usize, a: &Access, q: usize, b: &Access, ordered: bool) -> Result<Map> {
    let (space, pieces) = domains_product(prog, p, q, &a.guard, &b.guard)?;
    let (ni, no) = (space.n_in(), space.n_out());
    let params = space.params.clone();
    let es_p = prog.statements[p].domain.space().clone();
    let es_q = prog.statements[q].domain.space().clone();
    let mut out = Set::empty(space.clone());
    if a.index.len() != b.index.len() {
        return Ok(out);
    }
    let theta_p = &prog.statements[p].schedule;
    let theta_q = &prog.statements[q].schedule;
    let levels = theta_p.len().min(theta_q.len());
    for piece in pieces {
        let ncols = piece.n_cols();
        let mut same = piece.clone();
        for (ea, eb) in a.index.iter().zip(&b.index) {
            let mut r = aff_row(ea, &es_p, &params, ni, ncols, 0, 1);
            add_aff(&mut r, &aff_row(eb, &es_q, &params, no, ncols, ni, -1));
            same.add_eq_row(r)?;
        }
        same.simplify()?;
        if same.is_marked_empty() {
            continue;
        }
        if !ordered && p != q {
            // Different statements: every pair counts, whatever the order.
            out.add_piece(same)?;
            continue;
        }
        // Order: theta_p(x) < theta_q(y) lexicographically (or >, for unordered pairs of
        // one statement, the union of both gives x != y).
        let dirs: &[i64] = if ordered { &[1] } else { &[1, -1] };
        for &dir in dirs {
            for l in 0..levels {
                let mut b = same.clone();
                for m in 0..l {
                    let mut r = aff_row(&theta_q[m], &es_q, &params, no, ncols, ni, 1);
                    add_aff(&mut r, &aff_row(&theta_p[m], &es_p, &params, ni, ncols, 0, -1));
                    b.add_eq_row(r)?;
                }
                // dir * (theta_q[l](y) - theta_p[l](x)) >= 1
                let mut r = aff_row(&theta_q[l], &es_q, &params, no, ncols, ni, dir);
                add_aff(&mut r, &aff_row(&theta_p[l], &es_p, &params, ni, ncols, 0, -dir));
                r[0] -= 1;
                b.add_ineq_row(r)?;
                b.simplify()?;
                out.add_piece(b)?;
            }
        }
    }
    Ok(out)
}

/// Options of [`analyze`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DepOptions {
    /// Arrays whose read-read pairs are broadcast "dependences".
    pub broadcast_arrays: Vec<String>,
    /// Arrays updated by reductions (Pugh 1991, Sec. 3, "Reduction dependencies"): between
    /// two statements that both write the array (its updaters), the flow, anti and
    /// output pairs on it are replaced by unordered reduction pairs of the writes;
    /// pairs with statements that only read it stay ordered.
    pub reduction_arrays: Vec<String>,
}

/// Memory-based dependences of `prog` (flow, anti, output, and broadcast for the
/// marked arrays), one [`Dependence`] per pair of accesses that has any, empty pieces
/// dropped through `solver` under the program's context.
pub fn analyze(prog: &Program, opts: &DepOptions, solver: &dyn Solver) -> Result<Vec<Dependence>> {
    let ctx = Some(&prog.context);
    let mut out = Vec::new();
    let n = prog.statements.len();
    for p in 0..n {
        for q in 0..n {
            let sp_ = &prog.statements[p];
            let sq = &prog.statements[q];
            let mut pairs: Vec<(DepKind, &Access, &Access, &str, &str)> = Vec::new();
            for a in &sp_.writes {
                for b in &sq.reads {
                    pairs.push((DepKind::Flow, a, b, "W", "R"));
                }
                for b in &sq.writes {
                    pairs.push((DepKind::Output, a, b, "W", "W"));
                }
            }
            for a in &sp_.reads {
                for b in &sq.writes {
                    pairs.push((DepKind::Anti, a, b, "R", "W"));
                }
                if p <= q && opts.broadcast_arrays.contains(&a.array) {
                    for b in &sq.reads {
                        pairs.push((DepKind::Broadcast, a, b, "R", "R"));
                    }
                }
            }
            let updates = |k: usize, arr: &str| prog.statements[k].writes.iter().any(|w| w.array == arr);
            let mut pairs: Vec<(DepKind, &Access, &Access, &str, &str)> = pairs
                .into_iter()
                .filter(|(_, a, _, _, _)| !(opts.reduction_arrays.contains(&a.array) && updates(p, &a.array) && updates(q, &a.array)))
                .collect();
            if p <= q {
                for a in sp_.writes.iter().filter(|a| opts.reduction_arrays.contains(&a.array)) {
                    for b in &sq.writes {
                        pairs.push((DepKind::Reduction, a, b, "U", "U"));
                    }
                }
            }
            for (kind, a, b, ta, tb) in pairs {
                if a.array != b.array {
                    continue;
                }
                let rel = access_pairs(prog, p, a, q, b, kind.orders())?;
                let rel = rel.drop_empty_pieces(solver, ctx)?;
                if rel.has_no_pieces() {
                    continue;
                }
                let fmt_acc = |x: &Access, s: &Space| -> String {
                    let idx: Vec<String> = x.index.iter().map(|e| e.to_string_in(s)).collect();
                    format!("{}[{}]", x.array, idx.join(", "))
                };
                let id = format!(
                    "{kind:?} {} {} {} -> {} {} {}",
                    sp_.name,
                    ta,
                    fmt_acc(a, sp_.domain.space()),
                    sq.name,
                    tb,
                    fmt_acc(b, sq.domain.space())
                )
                .to_lowercase();
                out.push(Dependence { id, kind, source: p, target: q, relation: rel });
            }
        }
    }
    Ok(out)
}
