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
/// (`None` when it is empty), from the one generator enumeration of the workspace
/// (`BasicSet::generators` of `polyalloc-formulation`, the double description method)
/// after integer tightening and redundancy removal ([`simplify`]). A polyhedron
/// containing a line (not pointed) is reported as [`OvError::Unsupported`]: program
/// domains bounded by their parameters never are.
pub fn generators(rows: &Rows, ncols: usize) -> Result<Option<Generators>, OvError> {
    let Some(rows) = simplify(rows, ncols)? else { return Ok(None) };
    let n = ncols - 1;
    let names: Vec<String> = (1..ncols).map(|k| format!("y{k}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut b = BasicSet::universe(Space::set(&[], Tuple::anonymous(&refs)));
    for r in &rows.eqs {
        b.add_eq_row(r.clone())?;
    }
    for r in &rows.ineqs {
        b.add_ineq_row(r.clone())?;
    }
    let g = b.generators(polyalloc_formulation::generators::DEFAULT_RAY_LIMIT).ok_or_else(|| {
        OvError::Unsupported(format!("more than {} generators over {n} variables", polyalloc_formulation::generators::DEFAULT_RAY_LIMIT))
    })?;
    if !g.lines.is_empty() {
        return Err(OvError::Unsupported(format!(
            "the vertex method needs a pointed polyhedron; this one contains a line ({} equalities, {} inequalities over {n} variables)",
            rows.eqs.len(),
            rows.ineqs.len()
        )));
    }
    if g.vertices.is_empty() {
        return Ok(None);
    }
    let vertices = g.vertices.into_iter().map(|(den, num)| RatPoint { num: num.into_iter().map(i128::from).collect(), den: den.into() }).collect();
    let rays = g.rays.into_iter().map(|r| r.into_iter().map(i128::from).collect()).collect();
    Ok(Some(Generators { vertices, rays }))
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
