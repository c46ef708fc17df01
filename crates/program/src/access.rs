//! Access relations as affine functions on the statement's domain.
//!
//! A compiler's access relation is not always written as a function. Polly, for an
//! array reached through a pointer to rows (`float (*bx)[768]`) at a shifted row,
//! prints the linearised address split back into rows with a floor division:
//!
//! ```text
//! { S[i0, i1] -> bx[o0, 768 + 768i0 + i1 - 768o0] : 768i0 + i1 < 768o0 <= 768 + 768i0 + i1 }
//! ```
//!
//! On the statement's domain (`0 <= i1 <= 767`) this is `bx[i0 + 1, i1]`.
//! `as_function` recovers that form: an output fixed by an equality with a unit
//! coefficient is already a function; an output `o` bounded by `L <= c o <= U` with
//! `U - L` a constant below `c` is the floor division `ceil(L / c)`, which is affine on
//! the domain when the part of `L` that `c` does not divide stays within one multiple
//! of `c` there (decided exactly on the domain's rational hull: its integer points lie
//! inside it). What the bounds say beyond the outputs becomes the access's guard, and
//! guard rows the domain already implies are dropped. Anything else is left as it is,
//! and the program model reports the output that is not a function.

use crate::error::Result;
use polyalloc_formulation::{BasicSet, Set, Space, Tuple};

/// An equivalent form of the relation piece `piece` (its parameters those of
/// `domain`) on the points of `domain`, in which every output is fixed by an
/// equality with a unit coefficient when the floor divisions described in the module
/// documentation allow it; otherwise `piece` unchanged.
pub(crate) fn as_function(piece: &BasicSet, domain: &Set) -> Result<BasicSet> {
    let sp = piece.space().clone();
    let (np, ni, no) = (sp.n_param(), sp.n_in(), sp.n_out());
    // Coefficients of a compiler's accesses are small; beyond 2^31 the arithmetic below
    // could overflow, and the relation is left as it is (then refused if it is not a
    // function of the plain form).
    const BIG: i64 = 1 << 31;
    if piece.equalities().iter().chain(piece.inequalities()).flatten().any(|v| v.unsigned_abs() > BIG as u64) {
        return Ok(piece.clone());
    }
    let mut b = piece.clone();
    b.simplify_locals()?;
    if b.n_local() > 0 || b.is_marked_empty() {
        return Ok(piece.clone());
    }
    let out_col = |k: usize| 1 + np + ni + k;
    let mut known = vec![false; no];
    let mut progress = true;
    while progress && known.iter().any(|k| !k) {
        progress = false;
        // Outputs fixed by a unit equality over the inputs and known outputs.
        for k in 0..no {
            if known[k] {
                continue;
            }
            let col = out_col(k);
            let fixed = b.equalities().iter().find(|r| r[col].abs() == 1 && (0..no).all(|j| j == k || known[j] || r[out_col(j)] == 0));
            if let Some(r) = fixed.cloned() {
                // Substitute o_k = expr in every other row, keep the defining equality.
                let sign = r[col];
                let mut expr: Vec<i64> = r.iter().map(|v| -v * sign).collect();
                expr[col] = 0;
                let mut rest = b.clone();
                rest.substitute_col(col, &expr)?;
                b = with_definition(&rest, col, &expr)?;
                known[k] = true;
                progress = true;
            }
        }
        // An output between two bounds that differ by less than its coefficient.
        for k in 0..no {
            if known[k] {
                continue;
            }
            let col = out_col(k);
            let only_k = |r: &Vec<i64>| (0..no).all(|j| j == k || known[j] || r[out_col(j)] == 0);
            let lows: Vec<&Vec<i64>> = b.inequalities().iter().filter(|r| r[col] > 0 && only_k(r)).collect();
            let ups: Vec<&Vec<i64>> = b.inequalities().iter().filter(|r| r[col] < 0 && only_k(r)).collect();
            let mut found = None;
            'pairs: for lo in &lows {
                for up in &ups {
                    let c = lo[col];
                    if -up[col] != c {
                        continue;
                    }
                    // lo: c o + l(x) >= 0, up: -c o + u(x) >= 0; u + l constant.
                    if (1..lo.len()).any(|j| j != col && lo[j].checked_add(up[j]) != Some(0)) {
                        continue;
                    }
                    let Some(width) = lo[0].checked_add(up[0]) else { continue };
                    if !(0..c).contains(&width) {
                        continue;
                    }
                    // c o >= L with L = -l(x): o = ceil(L / c) = q(x) + ceil(r(x) / c),
                    // q the part of L that c divides.
                    let l: Vec<i64> = lo.iter().map(|v| -v).collect();
                    let mut q = vec![0i64; l.len()];
                    let mut r = vec![0i64; l.len()];
                    for j in 0..l.len() {
                        if j == col {
                            continue;
                        }
                        q[j] = l[j].div_euclid(c);
                        r[j] = l[j].rem_euclid(c);
                    }
                    // The non-constant part of r over the inputs only (known outputs
                    // are substituted away, parameters must not appear).
                    if (1..1 + np).any(|j| r[j] != 0) {
                        continue;
                    }
                    let Some((rmin, rmax)) = range_on_domain(&r, np, ni, domain)? else { continue };
                    let kappa = ceil_div(rmin, c);
                    if ceil_div(rmax, c) != kappa {
                        continue;
                    }
                    let mut expr = q.clone();
                    let Some(e0) = q[0].checked_add(kappa) else { continue };
                    expr[0] = e0;
                    expr[col] = 0;
                    found = Some(expr);
                    break 'pairs;
                }
            }
            if let Some(expr) = found {
                let mut rest = b.clone();
                rest.substitute_col(col, &expr)?;
                b = with_definition(&rest, col, &expr)?;
                known[k] = true;
                progress = true;
            }
        }
    }
    if known.iter().any(|k| !k) {
        return Ok(piece.clone());
    }
    drop_implied_by_domain(&b, np, ni, domain)
}

/// The range `[min, max]` of an affine expression over a statement's domain space on
/// the points of `domain` (rational bounds, integer-tightened: every integer point lies
/// within them); `None` when it is unbounded or depends on the parameters.
pub fn range_on(expr: &polyalloc_formulation::AffExpr, domain: &Set) -> Result<Option<(i64, i64)>> {
    let sp = domain.space();
    if expr.coeffs.len() != sp.n_cols() || expr.coeffs[1..1 + sp.n_param()].iter().any(|&v| v != 0) {
        return Ok(None);
    }
    range_on_domain(&expr.coeffs, sp.n_param(), sp.n_dim(), domain)
}

fn ceil_div(a: i64, c: i64) -> i64 {
    // In 128 bits: `-a` of `i64::MIN` does not fit 64; the quotient does (c >= 1).
    (-((-(a as i128)).div_euclid(c as i128))) as i64
}

/// `rest` (where column `col` no longer appears) with the equality `col = expr`.
fn with_definition(rest: &BasicSet, col: usize, expr: &[i64]) -> Result<BasicSet> {
    let mut out = rest.clone();
    let mut eq = expr.to_vec();
    eq[col] = -1;
    out.add_eq_row(eq)?;
    Ok(out)
}

/// The rational range `[min, max]` (integer-tightened) of the affine row `r` (over the
/// columns `[1, params, inputs, ...]`, parameters with zero coefficients) on every
/// piece of `domain`; `None` when it is unbounded or depends on the parameters.
fn range_on_domain(r: &[i64], np: usize, ni: usize, domain: &Set) -> Result<Option<(i64, i64)>> {
    let mut lo = i64::MAX;
    let mut hi = i64::MIN;
    for d in domain.pieces() {
        if d.n_local() > 0 || d.space().n_dim() != ni || d.space().n_param() != np {
            return Ok(None);
        }
        // [1, P, x, t] with t = r(x).
        let names: Vec<String> = (0..ni).map(|j| format!("x{j}")).chain(std::iter::once("t".to_string())).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let prefs: Vec<&str> = d.space().params.iter().map(String::as_str).collect();
        let mut b = BasicSet::universe(Space::set(&prefs, Tuple::anonymous(&refs)));
        for (eq, rows) in [(true, d.equalities()), (false, d.inequalities())] {
            for row in rows {
                let mut x = row.clone();
                x.push(0);
                if eq {
                    b.add_eq_row(x)?;
                } else {
                    b.add_ineq_row(x)?;
                }
            }
        }
        let mut t = r[..1 + np + ni].to_vec();
        t.push(-1);
        b.add_eq_row(t)?;
        let p = b.fm_project_out(0, ni)?;
        if p.is_marked_empty() {
            continue;
        }
        if p.equalities().iter().chain(p.inequalities()).flatten().any(|v| v.unsigned_abs() > (1u64 << 40)) {
            return Ok(None);
        }
        let (mut plo, mut phi) = (None::<i64>, None::<i64>);
        for row in p.equalities() {
            if row[1..1 + np].iter().any(|&v| v != 0) {
                return Ok(None);
            }
            let c = row[1 + np];
            if c != 0 && row[0] % c == 0 {
                let v = -row[0] / c;
                plo = Some(plo.map_or(v, |x| x.max(v)));
                phi = Some(phi.map_or(v, |x| x.min(v)));
            }
        }
        for row in p.inequalities() {
            if row[1..1 + np].iter().any(|&v| v != 0) {
                return Ok(None);
            }
            let c = row[1 + np];
            if c > 0 {
                let v = ceil_div(-row[0], c);
                plo = Some(plo.map_or(v, |x| x.max(v)));
            } else if c < 0 {
                let v = (row[0]).div_euclid(-c);
                phi = Some(phi.map_or(v, |x| x.min(v)));
            }
        }
        let (Some(a), Some(z)) = (plo, phi) else { return Ok(None) };
        lo = lo.min(a);
        hi = hi.max(z);
    }
    if lo > hi {
        return Ok(None);
    }
    Ok(Some((lo, hi)))
}

/// Drops the inequalities over the inputs only that every point of `domain` satisfies
/// (decided on the rational hull of each domain piece: sound).
fn drop_implied_by_domain(b: &BasicSet, np: usize, ni: usize, domain: &Set) -> Result<BasicSet> {
    let mut out = b.clone();
    let inputs_only = |r: &Vec<i64>| r[1 + np + ni..].iter().all(|&v| v == 0);
    let rows: Vec<Vec<i64>> = out.inequalities().to_vec();
    let mut keep = Vec::new();
    for row in rows {
        let implied = inputs_only(&row)
            && domain.pieces().iter().all(|d| {
                if d.n_local() > 0 || d.space().n_dim() != ni || d.space().n_param() != np {
                    return false;
                }
                // d and row <= -1 has no rational point.
                let mut neg: Vec<i64> = row[..1 + np + ni].iter().map(|v| -v).collect();
                neg[0] -= 1;
                let mut e = d.clone();
                e.add_ineq_row(neg).is_ok() && e.is_rationally_empty().unwrap_or(false)
            });
        if !implied {
            keep.push(row);
        }
    }
    let eqs = out.equalities().to_vec();
    let mut fresh = BasicSet::universe(out.space().clone());
    for e in eqs {
        fresh.add_eq_row(e)?;
    }
    for r in keep {
        fresh.add_ineq_row(r)?;
    }
    out = fresh;
    Ok(out)
}
