//! Integer tuple relations and the operations of Pugh's Table 1 (Pugh 1991, Sec. 2, Appendix 1).
//!
//! A relation is a [`Map`] of the formulation crate (a union of basic relations with
//! parameters — Pugh's "symbolic constants" — and existential locals — his
//! "wildcards"). Most of Table 1 exists there already (union, intersection, inverse
//! = `reverse`, domain, range, composition, exact projection); this module adds what is
//! missing, in Pugh's notation and with his argument order:
//!
//! | Table 1 | here |
//! | --- | --- |
//! | `F ∘ G` (first `G`, then `F`) | [`compose`] (and [`then`] for the left-to-right order) |
//! | `F⁻¹` | [`inverse`] |
//! | `F ∪ G`, `F ∩ G` | [`union`], [`intersect`] |
//! | `I` | [`identity`] |
//! | `F*` | [`transitive_closure`] (`F* = I ∪ F⁺`) |
//! | `F \ S`, `F / S` | [`restrict_domain`], [`restrict_range`] |
//! | `F +̇ G`, `F -̇ G` | [`pointwise_sum`], [`pointwise_diff`] |
//! | `domain(F)`, `range(F)` | [`domain`], [`range`] |
//! | `∃ x ∈ S` | [`sample`] / [`is_empty`] (through any [`Solver`], parameters as variables) |
//!
//! Transitive closure (Appendix 1): exact closed form when the relation is a single
//! basic relation with a constant distance `t = s + c` (`C(F⁺) ≡ α = s + cβ ∧ β ≥ 0 ∧
//! t = α + c ∧ P[t→s+c] ∧ P[s→α, t→α+c]`); otherwise the bounded approximation
//! `F ∪ F∘F ∪ ... ∪ F^k` (`k = 4` in the paper), which may miss dependences (false
//! negatives) — acceptable where Pugh uses it, the nomination of candidate schedules,
//! because every final schedule is checked against the exact direct dependences.

use crate::error::{Result, SchedError};
use polyalloc_formulation::{BasicMap, BasicSet, Map, Sample, Set, Space, Tuple};
use polyalloc_ilp::Solver;

pub(crate) fn place(b: &BasicSet, target: &Space, n_local: usize, col: &dyn Fn(usize) -> usize) -> Result<BasicSet> {
    Ok(b.place_into(target, n_local, col)?)
}

pub(crate) fn conjoin(a: &BasicSet, b: &BasicSet) -> Result<BasicSet> {
    Ok(a.conjoin(b)?)
}

fn tuples(f: &Map) -> Result<(Tuple, Tuple)> {
    let sp = f.space();
    let input = sp.input.clone().ok_or_else(|| SchedError::Space(format!("`{f}` is not a relation")))?;
    Ok((input, sp.output.clone()))
}

/// Pugh's `F ∘ G`: first `G`, then `F` (`⟨x, z⟩ ∈ F ∘ G ⇔ ∃y: ⟨x, y⟩ ∈ G ∧ ⟨y, z⟩ ∈ F`).
pub fn compose(f: &Map, g: &Map) -> Result<Map> {
    then(g, f)
}

/// `f` then `g` (left-to-right composition, `g ∘ f` in Pugh's notation).
pub fn then(f: &Map, g: &Map) -> Result<Map> {
    Ok(f.compose(g)?)
}

/// `F⁻¹`.
pub fn inverse(f: &Map) -> Result<Map> {
    Ok(f.reverse()?)
}

/// `F ∪ G`.
pub fn union(f: &Map, g: &Map) -> Result<Map> {
    Ok(f.union(g)?)
}

/// `F ∩ G`.
pub fn intersect(f: &Map, g: &Map) -> Result<Map> {
    Ok(f.intersect(g)?)
}

/// `domain(F)`.
pub fn domain(f: &Map) -> Result<Set> {
    Ok(f.domain()?)
}

/// `range(F)`.
pub fn range(f: &Map) -> Result<Set> {
    Ok(f.range()?)
}

/// The identity relation `I` on the tuple `t` (`⟨x, x⟩`), with parameters `params`.
pub fn identity(params: &[String], t: &Tuple) -> Result<Map> {
    let p: Vec<&str> = params.iter().map(String::as_str).collect();
    let mut out_t = t.clone();
    out_t.dims = t.dims.iter().map(|d| format!("{d}_")).collect();
    let space = Space::map(&p, t.clone(), out_t);
    let mut b = BasicSet::universe(space.clone());
    let np = params.len();
    let n = t.len();
    for j in 0..n {
        let mut r = vec![0; b.n_cols()];
        r[1 + np + j] = 1;
        r[1 + np + n + j] = -1;
        b.add_eq_row(r)?;
    }
    Ok(Set::from_basic(b))
}

/// `F \ S`: `F` restricted to inputs in `S`.
pub fn restrict_domain(f: &Map, s: &Set) -> Result<Map> {
    let (input, _) = tuples(f)?;
    if !s.space().output.same_shape(&input) {
        return Err(SchedError::Space(format!("restricting `{}` to the domain `{}`", f.space(), s.space())));
    }
    restrict(f, s, 0)
}

/// `F / S`: `F` restricted to outputs in `S`.
pub fn restrict_range(f: &Map, s: &Set) -> Result<Map> {
    let (_, output) = tuples(f)?;
    if !s.space().output.same_shape(&output) {
        return Err(SchedError::Space(format!("restricting `{}` to the range `{}`", f.space(), s.space())));
    }
    restrict(f, s, f.space().n_in())
}

fn restrict(f: &Map, s: &Set, offset: usize) -> Result<Map> {
    let params = f.space().merged_params(&s.space().params);
    let sp = f.space().with_params(params);
    let mut out = Set::empty(sp.clone());
    for p in f.pieces() {
        let p = p.align_params(&sp.params)?;
        for q in s.pieces() {
            let np = sp.n_param();
            let base = sp.n_cols() + p.n_local();
            let nd = q.space().n_dim();
            let lifted = place(q, &sp, p.n_local() + q.n_local(), &|c| {
                if c < 1 + np + nd {
                    c + offset
                } else {
                    base + (c - 1 - np - nd)
                }
            })?;
            let mut pp = p.clone();
            for _ in 0..q.n_local() {
                pp.add_local();
            }
            let mut joined = conjoin(&pp, &lifted)?;
            joined.simplify_locals()?;
            out.add_piece(joined)?;
        }
    }
    Ok(out)
}

fn pointwise(f: &Map, g: &Map, sign: i64) -> Result<Map> {
    let (fi, fo) = tuples(f)?;
    let (gi, go) = tuples(g)?;
    if !fi.same_shape(&gi) || fo.len() != go.len() {
        return Err(SchedError::Space(format!("pointwise operation on `{}` and `{}`", f.space(), g.space())));
    }
    let params = f.space().merged_params(&g.space().params);
    let sp = f.space().with_params(params);
    let np = sp.n_param();
    let (ni, no) = (fi.len(), fo.len());
    let base = sp.n_cols();
    let mut out = Set::empty(sp.clone());
    for p in f.pieces() {
        for q in g.pieces() {
            // Locals: alpha (no), beta (no), p's locals, q's locals.
            let nl = 2 * no + p.n_local() + q.n_local();
            let pl = p.n_local();
            let a = place(p, &sp, nl, &|c| {
                if c < 1 + np + ni {
                    c
                } else if c < 1 + np + ni + no {
                    base + (c - 1 - np - ni)
                } else {
                    base + 2 * no + (c - 1 - np - ni - no)
                }
            })?;
            let b = place(q, &sp, nl, &|c| {
                if c < 1 + np + ni {
                    c
                } else if c < 1 + np + ni + no {
                    base + no + (c - 1 - np - ni)
                } else {
                    base + 2 * no + pl + (c - 1 - np - ni - no)
                }
            })?;
            let mut joined = conjoin(&a, &b)?;
            for j in 0..no {
                // t_j = alpha_j + sign * beta_j
                let mut r = vec![0; joined.n_cols()];
                r[1 + np + ni + j] = 1;
                r[base + j] = -1;
                r[base + no + j] = -sign;
                joined.add_eq_row(r)?;
            }
            joined.simplify_locals()?;
            out.add_piece(joined)?;
        }
    }
    Ok(out)
}

/// `F +̇ G`: `⟨x, y + z⟩` for `⟨x, y⟩ ∈ F`, `⟨x, z⟩ ∈ G`.
pub fn pointwise_sum(f: &Map, g: &Map) -> Result<Map> {
    pointwise(f, g, 1)
}

/// `F -̇ G`: `⟨x, y - z⟩` for `⟨x, y⟩ ∈ F`, `⟨x, z⟩ ∈ G`. With `G = D` the identity
/// restricted to the domain, `range(F -̇ D)` is the set of dependence distances (Sec. 4).
pub fn pointwise_diff(f: &Map, g: &Map) -> Result<Map> {
    pointwise(f, g, -1)
}

/// The set of distances `y - x` of a relation between tuples of equal arity:
/// Pugh's `dd = range(F -̇ D)` (Sec. 4, "Computing self-dependence distances").
pub fn distances(f: &Map) -> Result<Set> {
    Ok(f.deltas()?)
}

/// Intersects every piece with the parameter context (when given).
pub fn in_context(s: &Set, context: Option<&BasicSet>) -> Result<Set> {
    match context {
        Some(c) => Ok(s.intersect_params(c)?),
        None => Ok(s.clone()),
    }
}

/// `∃ x ∈ S`: a sample point (parameters included) or `None` when `S` is empty for
/// every parameter value of `context`.
pub fn sample(s: &Set, solver: &dyn Solver, context: Option<&BasicSet>) -> Result<Option<Sample>> {
    Ok(in_context(s, context)?.sample(solver)?)
}

/// Integer emptiness for every parameter value of `context`.
pub fn is_empty(s: &Set, solver: &dyn Solver, context: Option<&BasicSet>) -> Result<bool> {
    Ok(in_context(s, context)?.is_empty(solver)?)
}

/// Drops the pieces that are empty under `context` (keeps the space).
pub fn drop_empty(s: &Set, solver: &dyn Solver, context: Option<&BasicSet>) -> Result<Set> {
    Ok(s.drop_empty_pieces(solver, context)?)
}

/// The transitive closure `F⁺` and whether it is exact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Closure {
    /// `F⁺` (add [`identity`] for `F*`).
    pub plus: Map,
    /// True for the closed form of Appendix 1; false for the bounded approximation.
    pub exact: bool,
}

/// The constant distance `c` of a basic relation `t = s + c` (no locals, same tuple),
/// or `None`. Decided exactly: `c` is a sample of the distances, and the relation must
/// have no pair with `t_k - s_k ≠ c_k`.
pub fn constant_distance(f: &BasicMap, solver: &dyn Solver, context: Option<&BasicSet>) -> Result<Option<Vec<i64>>> {
    let sp = f.space();
    let Some(input) = sp.input.as_ref() else {
        return Ok(None);
    };
    if !input.same_shape(&sp.output) || f.n_local() > 0 {
        return Ok(None);
    }
    let one = Set::from_basic(f.clone());
    let Some(s) = sample(&distances(&one)?, solver, context)? else {
        return Ok(None);
    };
    let c = s.point;
    let np = sp.n_param();
    let n = input.len();
    for (k, &ck) in c.iter().enumerate() {
        for sign in [1i64, -1] {
            // sign * (t_k - s_k - c_k) >= 1
            let mut b = f.clone();
            let mut r = vec![0; b.n_cols()];
            r[1 + np + n + k] = sign;
            r[1 + np + k] = -sign;
            r[0] = -sign * ck - 1;
            b.add_ineq_row(r)?;
            b.simplify()?;
            if !is_empty(&Set::from_basic(b), solver, context)? {
                return Ok(None);
            }
        }
    }
    Ok(Some(c))
}

/// `F⁺` in closed form for a constant-distance basic relation (Appendix 1):
/// `{ s → t : ∃β ≥ 0, t = s + c(β + 1) ∧ P(s, s + c) ∧ P(t - c, t) }`.
pub fn closure_constant(f: &BasicMap, c: &[i64]) -> Result<Map> {
    let sp = f.space().clone();
    let np = sp.n_param();
    let n = sp.n_in();
    if c.len() != n || sp.n_out() != n || f.n_local() > 0 {
        return Err(SchedError::Space(format!("closure_constant needs t = s + c on `{sp}`")));
    }
    let mut out = BasicSet::universe(sp.clone());
    let beta = out.add_local();
    let ncols = out.n_cols();
    let ov = || crate::error::ovf("transitive closure");
    for k in 0..n {
        let mut r = vec![0; ncols];
        r[1 + np + n + k] = 1;
        r[1 + np + k] = -1;
        r[beta] = -c[k];
        r[0] = -c[k];
        out.add_eq_row(r)?;
    }
    let mut r = vec![0; ncols];
    r[beta] = 1;
    out.add_ineq_row(r)?;
    // P[t -> s + c] and P[s -> t - c].
    let subst = |row: &Vec<i64>, first: bool| -> Result<Vec<i64>> {
        let mut o = vec![0; ncols];
        o[..1 + np].copy_from_slice(&row[..1 + np]);
        for k in 0..n {
            let (a_s, a_t) = (row[1 + np + k], row[1 + np + n + k]);
            if first {
                // t_k = s_k + c_k
                o[1 + np + k] = a_s.checked_add(a_t).ok_or_else(ov)?;
                o[0] = o[0].checked_add(a_t.checked_mul(c[k]).ok_or_else(ov)?).ok_or_else(ov)?;
            } else {
                // s_k = t_k - c_k
                o[1 + np + n + k] = a_s.checked_add(a_t).ok_or_else(ov)?;
                o[0] = o[0].checked_sub(a_s.checked_mul(c[k]).ok_or_else(ov)?).ok_or_else(ov)?;
            }
        }
        Ok(o)
    };
    for first in [true, false] {
        for r in f.equalities() {
            out.add_eq_row(subst(r, first)?)?;
        }
        for r in f.inequalities() {
            out.add_ineq_row(subst(r, first)?)?;
        }
    }
    out.simplify_locals()?;
    Ok(Set::from_basic(out))
}

/// `F⁺`: exact when `F` is one constant-distance basic relation (Appendix 1), otherwise
/// the approximation `F ∪ F² ∪ ... ∪ F^depth` with empty pieces dropped.
pub fn transitive_closure(f: &Map, solver: &dyn Solver, context: Option<&BasicSet>, depth: usize) -> Result<Closure> {
    let f = drop_empty(f, solver, context)?;
    if let [p] = f.pieces() {
        if let Some(c) = constant_distance(p, solver, context)? {
            return Ok(Closure { plus: closure_constant(p, &c)?, exact: true });
        }
    }
    if f.has_no_pieces() {
        return Ok(Closure { plus: f, exact: true });
    }
    let mut acc = f.clone();
    let mut power = f.clone();
    for _ in 1..depth.max(1) {
        power = drop_empty(&then(&power, &f)?, solver, context)?;
        if power.has_no_pieces() {
            // F^k is empty, hence so is every higher power: the union is exact.
            return Ok(Closure { plus: acc, exact: true });
        }
        acc = acc.union(&power)?;
    }
    Ok(Closure { plus: acc, exact: false })
}
