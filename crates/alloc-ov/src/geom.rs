//! Exact polyhedral helpers of the occupancy-vector method: constraint rows, affine
//! substitution, and the Minkowski generators (vertices and rays) that the **vertex
//! method** (Thies et al. 2007, Sec. 3.2.4, Theorem 2) evaluates a bilinear constraint at.
//!
//! Rows use the layout of `polyalloc-formulation`: column 0 is the constant, then the
//! parameters, then the dimensions; a row `r` means `r . (1, y) >= 0` (inequality) or
//! `= 0` (equality). All arithmetic is exact (`i128` with checked operations).

use crate::OvError;
use polyalloc_formulation::{BasicSet, Space, Tuple};

/// A conjunction of affine constraints over `ncols` columns (`[const, y...]`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rows {
    /// Rows `r . (1, y) = 0`.
    pub eqs: Vec<Vec<i64>>,
    /// Rows `r . (1, y) >= 0`.
    pub ineqs: Vec<Vec<i64>>,
}

impl Rows {
    /// Appends every row of `other` (same width).
    pub fn extend(&mut self, other: &Rows) {
        self.eqs.extend(other.eqs.iter().cloned());
        self.ineqs.extend(other.ineqs.iter().cloned());
    }
}

pub(crate) fn ovf(what: &str) -> OvError {
    OvError::Overflow(what.to_string())
}

fn to_i64(x: i128, what: &str) -> Result<i64, OvError> {
    i64::try_from(x).map_err(|_| ovf(what))
}

/// `row` over `[const, params (np), dims']` with the dims replaced by the affine rows
/// `g` over `[const, params, y...]` (`ncols` columns): the composed row over `ncols`.
pub fn subst(row: &[i64], np: usize, g: &[Vec<i64>], ncols: usize) -> Result<Vec<i64>, OvError> {
    let mut out = vec![0i128; ncols];
    out[0] = row[0] as i128;
    for p in 0..np {
        out[1 + p] += row[1 + p] as i128;
    }
    for (k, gk) in g.iter().enumerate() {
        let c = row[1 + np + k] as i128;
        if c == 0 {
            continue;
        }
        for (o, x) in out.iter_mut().zip(gk) {
            *o = o.checked_add(c.checked_mul(*x as i128).ok_or_else(|| ovf("substitution"))?).ok_or_else(|| ovf("substitution"))?;
        }
    }
    out.into_iter().map(|x| to_i64(x, "substitution")).collect()
}

/// Pads a row over `[const, params]` (a context row) to `ncols` columns.
pub fn pad(row: &[i64], ncols: usize) -> Vec<i64> {
    let mut r = row.to_vec();
    r.resize(ncols, 0);
    r
}

/// The unit row of column `col` over `ncols` columns.
pub fn unit(col: usize, ncols: usize) -> Vec<i64> {
    let mut r = vec![0; ncols];
    r[col] = 1;
    r
}

/// A rational point `num / den` (`den > 0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatPoint {
    pub num: Vec<i128>,
    pub den: i128,
}

/// The Minkowski representation of a pointed polyhedron: vertices and extreme rays.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Generators {
    pub vertices: Vec<RatPoint>,
    pub rays: Vec<Vec<i128>>,
}

use polyalloc_formulation::int::gcd_i128 as gcd128;

/// Simplified rows (integer tightening, duplicates, redundancy removed by the exact
/// Fourier–Motzkin test of `polyalloc-formulation`), or `None` when rationally empty.
pub fn simplify(rows: &Rows, ncols: usize) -> Result<Option<Rows>, OvError> {
    let names: Vec<String> = (1..ncols).map(|k| format!("y{k}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let space = Space::set(&[], Tuple::anonymous(&refs));
    let mut b = BasicSet::universe(space);
    for r in &rows.eqs {
        b.add_eq_row(r.clone())?;
    }
    for r in &rows.ineqs {
        b.add_ineq_row(r.clone())?;
    }
    b.simplify()?;
    if b.is_marked_empty() || b.is_rationally_empty()? {
        return Ok(None);
    }
    b.remove_redundant()?;
    if b.is_marked_empty() {
        return Ok(None);
    }
    Ok(Some(Rows { eqs: b.equalities().to_vec(), ineqs: b.inequalities().to_vec() }))
}

/// Solves the square-or-tall homogeneous/inhomogeneous system `M y = rhs` (rows of `M`
/// over `n` unknowns) by fraction-free elimination. Returns `(rank, solution)` where the
/// solution is `Some` only when the system is consistent and of full column rank.
fn solve_exact(m: &[Vec<i128>], rhs: &[i128], n: usize) -> Result<(usize, Option<RatPoint>), OvError> {
    let rows = m.len();
    let mut a: Vec<Vec<i128>> = m
        .iter()
        .zip(rhs)
        .map(|(r, b)| {
            let mut v = r.clone();
            v.push(*b);
            v
        })
        .collect();
    let mut piv_cols = Vec::new();
    let mut r = 0;
    for c in 0..n {
        let Some(p) = (r..rows).find(|&i| a[i][c] != 0) else { continue };
        a.swap(r, p);
        for i in 0..rows {
            if i == r || a[i][c] == 0 {
                continue;
            }
            let (f, g) = (a[r][c], a[i][c]);
            let pivot_row = a[r].clone();
            for (x, y) in a[i].iter_mut().zip(&pivot_row) {
                *x = x.checked_mul(f).and_then(|x| x.checked_sub(y.checked_mul(g)?)).ok_or_else(|| ovf("vertex enumeration"))?;
            }
            let gg = a[i].iter().fold(0, |acc, &x| gcd128(acc, x));
            if gg > 1 {
                a[i].iter_mut().for_each(|x| *x /= gg);
            }
        }
        piv_cols.push(c);
        r += 1;
        if r == rows {
            break;
        }
    }
    let rank = r;
    // Consistency: zero rows must have zero rhs.
    for row in a.iter().skip(rank) {
        if row[..n].iter().all(|&x| x == 0) && row[n] != 0 {
            return Ok((rank, None));
        }
    }
    if rank < n {
        return Ok((rank, None));
    }
    // Diagonal system: a[i][piv_i] y_piv = a[i][n]; common denominator.
    let mut den: i128 = 1;
    for i in 0..n {
        let d = a[i][piv_cols[i]];
        let g = gcd128(den, d);
        den = (den / g).checked_mul(d.abs()).ok_or_else(|| ovf("vertex enumeration"))?;
    }
    let mut num = vec![0i128; n];
    for i in 0..n {
        let d = a[i][piv_cols[i]];
        num[piv_cols[i]] = a[i][n].checked_mul(den / d).ok_or_else(|| ovf("vertex enumeration"))?;
    }
    let g = num.iter().fold(den, |acc, &x| gcd128(acc, x));
    if g > 1 {
        num.iter_mut().for_each(|x| *x /= g);
        den /= g;
    }
    Ok((rank, Some(RatPoint { num, den })))
}

fn rank_of(m: &[Vec<i128>], n: usize) -> Result<usize, OvError> {
    let rhs = vec![0i128; m.len()];
    Ok(solve_exact(m, &rhs, n)?.0)
}

/// The 1-dimensional null space of `m` (rank `n - 1`) as a primitive integer vector.
fn null_vector(m: &[Vec<i128>], n: usize) -> Result<Option<Vec<i128>>, OvError> {
    // Fix each coordinate to 1 in turn: solve m y = 0 with y_c = 1.
    for c in 0..n {
        let mut mm: Vec<Vec<i128>> = m.to_vec();
        let mut rhs = vec![0i128; m.len()];
        let mut fix = vec![0i128; n];
        fix[c] = 1;
        mm.push(fix);
        rhs.push(1);
        if let (_, Some(p)) = solve_exact(&mm, &rhs, n)? {
            let mut v = p.num;
            let g = v.iter().fold(0, |acc, &x| gcd128(acc, x));
            if g > 1 {
                v.iter_mut().for_each(|x| *x /= g);
            }
            return Ok(Some(v));
        }
    }
    Ok(None)
}

fn combinations(n: usize, k: usize, f: &mut dyn FnMut(&[usize]) -> Result<(), OvError>) -> Result<(), OvError> {
    fn rec(start: usize, n: usize, k: usize, idx: &mut Vec<usize>, f: &mut dyn FnMut(&[usize]) -> Result<(), OvError>) -> Result<(), OvError> {
        if idx.len() == k {
            return f(idx);
        }
        for i in start..n {
            if n - i < k - idx.len() {
                break;
            }
            idx.push(i);
            rec(i + 1, n, k, idx, f)?;
            idx.pop();
        }
        Ok(())
    }
    let mut idx = Vec::with_capacity(k);
    rec(0, n, k, &mut idx, f)
}

fn dot(row: &[i64], p: &RatPoint) -> Result<i128, OvError> {
    let mut s = (row[0] as i128).checked_mul(p.den).ok_or_else(|| ovf("vertex check"))?;
    for (c, x) in row[1..].iter().zip(&p.num) {
        s = s.checked_add((*c as i128).checked_mul(*x).ok_or_else(|| ovf("vertex check"))?).ok_or_else(|| ovf("vertex check"))?;
    }
    Ok(s)
}

fn dot_lin(row: &[i64], r: &[i128]) -> Result<i128, OvError> {
    let mut s: i128 = 0;
    for (c, x) in row[1..].iter().zip(r) {
        s = s.checked_add((*c as i128).checked_mul(*x).ok_or_else(|| ovf("ray check"))?).ok_or_else(|| ovf("ray check"))?;
    }
    Ok(s)
}

/// Vertices and extreme rays of the rational polyhedron `rows` over `ncols` columns
/// (`None` when it is empty), by enumeration of active constraint sets after
/// redundancy removal. A polyhedron containing a line (not pointed) is reported as
/// [`OvError::Unsupported`]: program domains bounded by their parameters never are.
pub fn generators(rows: &Rows, ncols: usize) -> Result<Option<Generators>, OvError> {
    let Some(rows) = simplify(rows, ncols)? else { return Ok(None) };
    let n = ncols - 1;
    let lin = |r: &Vec<i64>| -> Vec<i128> { r[1..].iter().map(|&x| x as i128).collect() };
    let eq_lin: Vec<Vec<i128>> = rows.eqs.iter().map(lin).collect();
    let in_lin: Vec<Vec<i128>> = rows.ineqs.iter().map(lin).collect();
    let mut all = eq_lin.clone();
    all.extend(in_lin.iter().cloned());
    if rank_of(&all, n)? < n {
        return Err(OvError::Unsupported(format!(
            "the vertex method needs a pointed polyhedron; this one contains a line ({} equalities, {} inequalities over {n} variables)",
            rows.eqs.len(),
            rows.ineqs.len()
        )));
    }
    let re = rank_of(&eq_lin, n)?;
    let k = n - re;
    let mut gens = Generators::default();
    let m = rows.ineqs.len();
    // Vertices: k active inequalities with the equalities determine a point.
    combinations(m, k, &mut |idx| {
        let mut mm = eq_lin.clone();
        let mut rhs: Vec<i128> = rows.eqs.iter().map(|r| -(r[0] as i128)).collect();
        for &i in idx {
            mm.push(in_lin[i].clone());
            rhs.push(-(rows.ineqs[i][0] as i128));
        }
        if let (_, Some(p)) = solve_exact(&mm, &rhs, n)? {
            let mut ok = true;
            for r in &rows.ineqs {
                if dot(r, &p)? < 0 {
                    ok = false;
                    break;
                }
            }
            if ok && !gens.vertices.contains(&p) {
                gens.vertices.push(p);
            }
        }
        Ok(())
    })?;
    // Extreme rays: k - 1 active inequalities leave a line of the recession cone.
    if k >= 1 {
        combinations(m, k - 1, &mut |idx| {
            let mut mm = eq_lin.clone();
            for &i in idx {
                mm.push(in_lin[i].clone());
            }
            if rank_of(&mm, n)? != n - 1 {
                return Ok(());
            }
            let Some(r) = null_vector(&mm, n)? else { return Ok(()) };
            for cand in [r.clone(), r.iter().map(|x| -x).collect::<Vec<_>>()] {
                let mut ok = true;
                for row in &rows.ineqs {
                    if dot_lin(row, &cand)? < 0 {
                        ok = false;
                        break;
                    }
                }
                if ok && !gens.rays.contains(&cand) {
                    gens.rays.push(cand);
                }
            }
            Ok(())
        })?;
    }
    Ok(Some(gens))
}

/// `row . (1, y)` at a vertex, scaled by its (positive) denominator.
pub fn eval_at_vertex(row: &[i64], p: &RatPoint) -> Result<i128, OvError> {
    dot(row, p)
}

/// The linear part of `row` on a ray.
pub fn eval_on_ray(row: &[i64], r: &[i128]) -> Result<i128, OvError> {
    dot_lin(row, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_has_four_vertices_and_no_ray() {
        // 1 <= x <= 3, 1 <= y <= 2 (columns [1, x, y]).
        let rows = Rows { eqs: vec![], ineqs: vec![vec![-1, 1, 0], vec![3, -1, 0], vec![-1, 0, 1], vec![2, 0, -1]] };
        let g = generators(&rows, 3).unwrap().unwrap();
        let mut v: Vec<Vec<i128>> = g.vertices.iter().map(|p| p.num.iter().map(|x| x / p.den).collect()).collect();
        v.sort();
        assert_eq!(v, vec![vec![1, 1], vec![1, 2], vec![3, 1], vec![3, 2]]);
        assert!(g.rays.is_empty());
    }

    #[test]
    fn parametric_interval_has_rays() {
        // columns [1, n, i]: 1 <= i <= n, n >= 2: vertices (n, i) = (2, 1), (2, 2);
        // rays (1, 0) and (1, 1).
        let rows = Rows { eqs: vec![], ineqs: vec![vec![-1, 0, 1], vec![0, 1, -1], vec![-2, 1, 0]] };
        let g = generators(&rows, 3).unwrap().unwrap();
        let mut v: Vec<Vec<i128>> = g.vertices.iter().map(|p| p.num.clone()).collect();
        v.sort();
        assert_eq!(v, vec![vec![2, 1], vec![2, 2]]);
        let mut r = g.rays.clone();
        r.sort();
        assert_eq!(r, vec![vec![1, 0], vec![1, 1]]);
    }

    #[test]
    fn rational_vertex_and_line() {
        // 2x >= 1, 2x <= 1 + ... : x = 1/2 exactly from 2x - 1 = 0 and 0 <= y <= 1.
        let rows = Rows { eqs: vec![vec![-1, 2, 0]], ineqs: vec![vec![0, 0, 1], vec![1, 0, -1]] };
        // Integer tightening makes 2x = 1 empty over the integers.
        assert!(generators(&rows, 3).unwrap().is_none());
        let line = Rows { eqs: vec![], ineqs: vec![vec![0, 0, 1]] };
        assert!(matches!(generators(&line, 3), Err(OvError::Unsupported(_))));
    }
}
