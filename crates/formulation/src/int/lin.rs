//! Exact integer linear algebra: Hermite normal form, unimodular completion of a
//! primitive vector or of a set of rows, inverse of a unimodular matrix, determinant
//! (the lattice heuristics, Darte et al. 2015, Sec. 4.1.2 and 4.2.2; the occupancy-vector mappings,
//! Thies et al. 2007, Sec. 3.3.2; Pugh's code generation, Pugh 1991, Sec. 5), and rank and orthogonal
//! complement (a new storage hyperplane out of the span of the previous ones, Bhaskaracharya et al. 2016
//! Sec. 3.4).
//!
//! Everything is computed in `i128` with checked arithmetic and returned in `i64`;
//! overflow is a [`LinAlgError::Overflow`], never a wrap.

#![allow(clippy::needless_range_loop)] // index loops read as the matrix formulas

/// A dense integer matrix, row-major.
pub type IMatrix = Vec<Vec<i64>>;

/// Why an integer linear-algebra operation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinAlgError {
    /// An intermediate value left the 128-bit range, or a result the 64-bit range.
    #[error("integer overflow in {0}")]
    Overflow(&'static str),
    /// Rows of unequal length, or a width that does not match.
    #[error("matrix shape: {0}")]
    Shape(String),
    /// The rows cannot be completed into a unimodular matrix (their lattice is not
    /// saturated, e.g. a vector with a common divisor, or they are dependent).
    #[error("rows {0:?} cannot be completed into a unimodular matrix")]
    NotPrimitive(IMatrix),
    /// The matrix is not square with determinant +-1.
    #[error("matrix {0:?} is not unimodular")]
    NotUnimodular(IMatrix),
}

type R<T> = Result<T, LinAlgError>;

fn to_i64(x: i128, what: &'static str) -> R<i64> {
    i64::try_from(x).map_err(|_| LinAlgError::Overflow(what))
}

fn widen(m: &[Vec<i64>], n: usize) -> R<Vec<Vec<i128>>> {
    m.iter()
        .map(|r| {
            if r.len() != n {
                Err(LinAlgError::Shape(format!("row of length {}, expected {n}", r.len())))
            } else {
                Ok(r.iter().map(|&x| x as i128).collect())
            }
        })
        .collect()
}

fn narrow(m: &[Vec<i128>], what: &'static str) -> R<IMatrix> {
    m.iter().map(|r| r.iter().map(|&x| to_i64(x, what)).collect()).collect()
}

/// Column echelon reduction `rows . V = L` by unimodular column operations: `L` is
/// lower echelon (row `r` has its pivot in the next free column, zero after it), with
/// positive pivots. Returns `(L, V, W)` with `W = V^{-1}`, and the pivot column of each
/// row (`None` for a row dependent on the previous ones).
struct ColumnEchelon {
    l: Vec<Vec<i128>>,
    v: Vec<Vec<i128>>,
    w: Vec<Vec<i128>>,
    pivots: Vec<Option<usize>>,
}

fn column_echelon(rows: &[Vec<i64>], n: usize) -> R<ColumnEchelon> {
    const W: &str = "column echelon form";
    let mut l = widen(rows, n)?;
    let id = |n: usize| -> Vec<Vec<i128>> { (0..n).map(|i| (0..n).map(|j| i128::from(i == j)).collect()).collect() };
    let (mut v, mut w) = (id(n), id(n));
    let mut pivots = Vec::with_capacity(rows.len());
    let mut c = 0usize;
    // Column ops on L and V; the inverse row ops on W.
    let sub_col = |l: &mut Vec<Vec<i128>>, v: &mut Vec<Vec<i128>>, w: &mut Vec<Vec<i128>>, a: usize, b: usize, q: i128| -> R<()> {
        // col_a -= q col_b ; W: row_b += q row_a
        for m in [l, v] {
            for r in m.iter_mut() {
                r[a] = r[a].checked_sub(q.checked_mul(r[b]).ok_or(LinAlgError::Overflow(W))?).ok_or(LinAlgError::Overflow(W))?;
            }
        }
        let ra = w[a].clone();
        for (x, y) in w[b].iter_mut().zip(ra) {
            *x = x.checked_add(q.checked_mul(y).ok_or(LinAlgError::Overflow(W))?).ok_or(LinAlgError::Overflow(W))?;
        }
        Ok(())
    };
    let swap_col = |l: &mut Vec<Vec<i128>>, v: &mut Vec<Vec<i128>>, w: &mut Vec<Vec<i128>>, a: usize, b: usize| {
        for m in [l, v] {
            for r in m.iter_mut() {
                r.swap(a, b);
            }
        }
        w.swap(a, b);
    };
    for r in 0..l.len() {
        if c >= n {
            pivots.push(None);
            continue;
        }
        // Euclid on the entries l[r][c..n].
        loop {
            let nz: Vec<usize> = (c..n).filter(|&j| l[r][j] != 0).collect();
            if nz.len() <= 1 {
                break;
            }
            let (mut best, mut bv) = (nz[0], l[r][nz[0]].abs());
            for &j in &nz[1..] {
                if l[r][j].abs() < bv {
                    best = j;
                    bv = l[r][j].abs();
                }
            }
            for &j in &nz {
                if j != best {
                    let q = l[r][j].div_euclid(l[r][best]);
                    sub_col(&mut l, &mut v, &mut w, j, best, q)?;
                }
            }
        }
        match (c..n).find(|&j| l[r][j] != 0) {
            None => pivots.push(None),
            Some(j) => {
                if j != c {
                    swap_col(&mut l, &mut v, &mut w, j, c);
                }
                if l[r][c] < 0 {
                    for m in [&mut l, &mut v] {
                        for row in m.iter_mut() {
                            row[c] = -row[c];
                        }
                    }
                    for x in w[c].iter_mut() {
                        *x = -*x;
                    }
                }
                pivots.push(Some(c));
                c += 1;
            }
        }
    }
    Ok(ColumnEchelon { l, v, w, pivots })
}

/// Row-style Hermite normal form: `(H, U)` with `U` unimodular (`m x m`) and `U A = H`,
/// `H` in row echelon form with positive pivots, the entries above each pivot reduced
/// into `[0, pivot)`, and the zero rows last.
pub fn hermite_normal_form(a: &[Vec<i64>]) -> R<(IMatrix, IMatrix)> {
    const W: &str = "Hermite normal form";
    let m = a.len();
    let n = a.first().map_or(0, Vec::len);
    // Row operations on A are column operations on A^T.
    let at: IMatrix = (0..n).map(|j| a.iter().map(|r| r.get(j).copied().unwrap_or(0)).collect()).collect();
    let _ = widen(a, n)?;
    let ce = column_echelon(&at, m)?;
    // H = (A^T V)^T = V^T A, U = V^T.
    let mut h: Vec<Vec<i128>> = (0..m).map(|i| (0..n).map(|j| ce.l[j][i]).collect()).collect();
    let mut u: Vec<Vec<i128>> = (0..m).map(|i| (0..m).map(|j| ce.v[j][i]).collect()).collect();
    // Pivot of row k of H: the column j of A^T's row j that got pivot k.
    let piv: Vec<(usize, usize)> = ce.pivots.iter().enumerate().filter_map(|(j, p)| p.map(|k| (k, j))).collect();
    for &(k, j) in &piv {
        let p = h[k][j];
        for i in 0..k {
            let q = h[i][j].div_euclid(p);
            if q != 0 {
                for hm in [&mut h, &mut u] {
                    let rk = hm[k].clone();
                    for (x, y) in hm[i].iter_mut().zip(rk) {
                        *x = x.checked_sub(q.checked_mul(y).ok_or(LinAlgError::Overflow(W))?).ok_or(LinAlgError::Overflow(W))?;
                    }
                }
            }
        }
    }
    Ok((narrow(&h, W)?, narrow(&u, W)?))
}

/// Completes `rows` (`k x n`, `k <= n`) into an `n x n` unimodular matrix whose first
/// `k` rows are `rows` (Darte et al. 2015, Sec. 4.1.2: "one iteration of the Hermite form
/// computation"). Fails when the rows do not generate a saturated lattice (e.g. a
/// single vector with a common divisor > 1, or dependent rows).
pub fn complete_unimodular(rows: &[Vec<i64>], n: usize) -> R<IMatrix> {
    const W: &str = "unimodular completion";
    if rows.len() > n {
        return Err(LinAlgError::NotPrimitive(rows.to_vec()));
    }
    let ce = column_echelon(rows, n)?;
    // rows = [L | 0] W with L k x k lower triangular; saturated iff every pivot is 1.
    for (r, p) in ce.pivots.iter().enumerate() {
        if *p != Some(r) || ce.l[r][r] != 1 {
            return Err(LinAlgError::NotPrimitive(rows.to_vec()));
        }
    }
    let k = rows.len();
    // M = [[L, 0], [0, I]] W: the first k rows are L W restricted = rows.
    let mut m: Vec<Vec<i128>> = Vec::with_capacity(n);
    for r in rows {
        m.push(r.iter().map(|&x| x as i128).collect());
    }
    for i in k..n {
        m.push(ce.w[i].clone());
    }
    narrow(&m, W)
}

/// The inverse of a unimodular matrix (an integer matrix).
pub fn inverse_unimodular(a: &[Vec<i64>]) -> R<IMatrix> {
    const W: &str = "inverse of a unimodular matrix";
    let n = a.len();
    let ce = column_echelon(a, n)?;
    // A V = L lower triangular with unit diagonal, so A^{-1} = V L^{-1}.
    for r in 0..n {
        if ce.pivots[r] != Some(r) || ce.l[r][r] != 1 {
            return Err(LinAlgError::NotUnimodular(a.to_vec()));
        }
    }
    // L^{-1} by forward substitution: X L = I  column by column is awkward; solve L X = I.
    let l = &ce.l;
    let mut x = vec![vec![0i128; n]; n];
    for col in 0..n {
        for i in 0..n {
            let mut s: i128 = i128::from(i == col);
            for j in 0..i {
                s = s.checked_sub(l[i][j].checked_mul(x[j][col]).ok_or(LinAlgError::Overflow(W))?).ok_or(LinAlgError::Overflow(W))?;
            }
            x[i][col] = s; // l[i][i] == 1
        }
    }
    let mut inv = vec![vec![0i128; n]; n];
    for i in 0..n {
        for j in 0..n {
            let mut s = 0i128;
            for k in 0..n {
                s = s.checked_add(ce.v[i][k].checked_mul(x[k][j]).ok_or(LinAlgError::Overflow(W))?).ok_or(LinAlgError::Overflow(W))?;
            }
            inv[i][j] = s;
        }
    }
    narrow(&inv, W)
}

/// Matrix product (checked).
pub fn mat_mul(a: &[Vec<i64>], b: &[Vec<i64>]) -> R<IMatrix> {
    const W: &str = "matrix product";
    let k = b.len();
    let n = b.first().map_or(0, Vec::len);
    let bw = widen(b, n)?;
    let aw = widen(a, k)?;
    let mut out = Vec::with_capacity(a.len());
    for r in &aw {
        let mut row = vec![0i128; n];
        for (t, &x) in r.iter().enumerate() {
            for (j, y) in row.iter_mut().enumerate() {
                *y = y.checked_add(x.checked_mul(bw[t][j]).ok_or(LinAlgError::Overflow(W))?).ok_or(LinAlgError::Overflow(W))?;
            }
        }
        out.push(row);
    }
    narrow(&out, W)
}

/// Transpose.
pub fn transpose(a: &[Vec<i64>]) -> IMatrix {
    let n = a.first().map_or(0, Vec::len);
    (0..n).map(|j| a.iter().map(|r| r[j]).collect()).collect()
}

/// Determinant by Bareiss fraction-free elimination (checked).
pub fn determinant(a: &[Vec<i64>]) -> R<i64> {
    const W: &str = "determinant";
    let n = a.len();
    let mut m = widen(a, n)?;
    let mut sign = 1i128;
    let mut prev = 1i128;
    for k in 0..n {
        if m[k][k] == 0 {
            match (k + 1..n).find(|&i| m[i][k] != 0) {
                None => return Ok(0),
                Some(i) => {
                    m.swap(i, k);
                    sign = -sign;
                }
            }
        }
        for i in k + 1..n {
            for j in k + 1..n {
                let t = m[i][j].checked_mul(m[k][k]).and_then(|x| x.checked_sub(m[i][k].checked_mul(m[k][j])?)).ok_or(LinAlgError::Overflow(W))?;
                m[i][j] = t / prev;
            }
        }
        prev = m[k][k];
    }
    to_i64(if n == 0 { 1 } else { sign * m[n - 1][n - 1] }, W)
}

/// Row-reduces `rows` (n columns) over the rationals with integer rows; returns the
/// reduced rows and the pivot column of each. `None` on overflow of `i128`.
fn row_echelon(rows: &[Vec<i64>], n: usize) -> Option<(Vec<Vec<i128>>, Vec<usize>)> {
    let mut m: Vec<Vec<i128>> = rows.iter().map(|r| r.iter().map(|&x| x as i128).collect()).collect();
    let mut pivots = Vec::new();
    let mut r = 0;
    for c in 0..n {
        let Some(p) = (r..m.len()).find(|&i| m[i][c] != 0) else { continue };
        m.swap(r, p);
        for i in 0..m.len() {
            if i != r && m[i][c] != 0 {
                let (a, b) = (m[r][c], m[i][c]);
                let pivot_row = m[r].clone();
                for (x, &y) in m[i].iter_mut().zip(&pivot_row) {
                    *x = x.checked_mul(a)?.checked_sub(y.checked_mul(b)?)?;
                }
                let g = m[i].iter().fold(0, |g, &x| super::gcd_i128(g, x));
                if g > 1 {
                    m[i].iter_mut().for_each(|x| *x /= g);
                }
            }
        }
        pivots.push(c);
        r += 1;
        if r == m.len() {
            break;
        }
    }
    m.truncate(r);
    Some((m, pivots))
}

/// Rank of the rows (`None` on arithmetic overflow).
pub fn rank(rows: &[Vec<i64>], n: usize) -> Option<usize> {
    row_echelon(rows, n).map(|(m, _)| m.len())
}

/// An integer basis (primitive rows) of `{ r in Q^n : r . h = 0 for every h in rows }`.
/// With no rows it is the canonical basis. `None` on arithmetic overflow.
pub fn orthogonal_complement(rows: &[Vec<i64>], n: usize) -> Option<Vec<Vec<i64>>> {
    let (m, pivots) = row_echelon(rows, n)?;
    let mut basis = Vec::new();
    for f in (0..n).filter(|c| !pivots.contains(c)) {
        // x_f = L, other free columns 0, pivot columns solved: m[k][p_k] x_p + m[k][f] L = 0.
        let l = m.iter().fold(1i128, |acc, row| {
            let p = row.iter().position(|&x| x != 0).map_or(1, |i| row[i]);
            let g = super::gcd_i128(acc, p);
            if g == 0 {
                acc
            } else {
                acc / g * p.abs()
            }
        });
        let mut x = vec![0i128; n];
        x[f] = l;
        for (k, row) in m.iter().enumerate() {
            let p = pivots[k];
            x[p] = -(row[f].checked_mul(l)?) / row[p];
        }
        let g = x.iter().fold(0, |g, &v| super::gcd_i128(g, v));
        let v: Option<Vec<i64>> = x.iter().map(|&v| i64::try_from(v / g.max(1)).ok()).collect();
        basis.push(v?);
    }
    Some(basis)
}

/// Every integer solution of `A x = b` (`A` is `m x n`): `None` when there is none,
/// else `(x0, B)` with `B` an `n x f` matrix of full column rank such that the integer
/// solutions are exactly `x0 + B z` for `z` in `Z^f` (the lattice of `A x = 0` is
/// generated by the columns of `B`). By a unimodular column echelon form `A V = L`:
/// `x = V y`, `L y = b` fixes the pivot coordinates of `y` by forward substitution (each
/// must be an integer) and leaves the others free. This is the exact equality
/// elimination of integer programming (isl, the Omega test): a solver then sees only
/// inequalities over fewer variables.
pub fn integer_solutions(a: &[Vec<i64>], b: &[i64], n: usize) -> R<Option<(Vec<i64>, IMatrix)>> {
    const W: &str = "integer solutions of equalities";
    if a.len() != b.len() {
        return Err(LinAlgError::Shape(format!("{} rows but {} right-hand sides", a.len(), b.len())));
    }
    let ce = column_echelon(a, n)?;
    let ov = || LinAlgError::Overflow(W);
    let mut y: Vec<i128> = vec![0; n];
    let mut fixed = vec![false; n];
    for (r, piv) in ce.pivots.iter().enumerate() {
        // sum_{j} L[r][j] y_j = b_r, with L[r][j] = 0 after the pivot column.
        let mut rest = b[r] as i128;
        for j in 0..n {
            if Some(j) != *piv && ce.l[r][j] != 0 {
                rest = rest.checked_sub(ce.l[r][j].checked_mul(y[j]).ok_or_else(ov)?).ok_or_else(ov)?;
            }
        }
        match piv {
            Some(c) => {
                let p = ce.l[r][*c];
                if rest % p != 0 {
                    return Ok(None);
                }
                y[*c] = rest / p;
                fixed[*c] = true;
            }
            None => {
                if rest != 0 {
                    return Ok(None);
                }
            }
        }
    }
    let mut x0 = vec![0i128; n];
    for i in 0..n {
        for j in 0..n {
            x0[i] = x0[i].checked_add(ce.v[i][j].checked_mul(y[j]).ok_or_else(ov)?).ok_or_else(ov)?;
        }
    }
    let free: Vec<usize> = (0..n).filter(|&j| !fixed[j]).collect();
    let basis: Vec<Vec<i128>> = (0..n).map(|i| free.iter().map(|&j| ce.v[i][j]).collect()).collect();
    let x0 = x0.into_iter().map(|v| to_i64(v, W)).collect::<R<Vec<i64>>>()?;
    Ok(Some((x0, narrow(&basis, W)?)))
}

/// Normalises the sign of a hyperplane: the last non-zero coefficient positive (a sign
/// change changes neither the validity nor the size of a modular mapping).
pub fn normalise_sign(h: &mut [i64]) {
    if h.iter().rev().find(|&&c| c != 0).is_some_and(|&c| c < 0) {
        h.iter_mut().for_each(|c| *c = -*c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(n: usize) -> IMatrix {
        (0..n).map(|i| (0..n).map(|j| i64::from(i == j)).collect()).collect()
    }

    /// `integer_solutions` against brute force: in a box, the integer solutions of
    /// `A x = b` are exactly the points `x0 + B z` (z enumerated far enough), and `None`
    /// only when the box has none.
    #[test]
    fn integer_solutions_match_brute_force() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |k: i64| -> i64 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % (2 * k as u64 + 1)) as i64 - k
        };
        let (boxr, zr) = (3i64, 14i64);
        let mut seen_none = 0;
        for case in 0..300 {
            let n = 1 + case % 3;
            let m = 1 + (case / 3) % 3;
            let a: IMatrix = (0..m).map(|_| (0..n).map(|_| next(3)).collect()).collect();
            let b: Vec<i64> = (0..m).map(|_| next(4)).collect();
            let sat = |x: &[i64]| a.iter().zip(&b).all(|(r, &bi)| r.iter().zip(x).map(|(p, q)| p * q).sum::<i64>() == bi);
            let boxed = |x: &[i64]| x.iter().all(|v| v.abs() <= boxr);
            let points = |r: i64, k: usize| -> Vec<Vec<i64>> {
                let mut out = vec![vec![]];
                for _ in 0..k {
                    out = out
                        .into_iter()
                        .flat_map(|p: Vec<i64>| {
                            (-r..=r).map(move |v| {
                                let mut q = p.clone();
                                q.push(v);
                                q
                            })
                        })
                        .collect();
                }
                out
            };
            let s: std::collections::BTreeSet<Vec<i64>> = points(boxr, n).into_iter().filter(|x| sat(x)).collect();
            match integer_solutions(&a, &b, n).unwrap() {
                None => {
                    seen_none += 1;
                    assert!(s.is_empty(), "{a:?} x = {b:?}: None but {s:?}");
                }
                Some((x0, basis)) => {
                    assert!(sat(&x0), "{a:?} x = {b:?}: x0 = {x0:?} is no solution");
                    let f = basis.first().map_or(0, Vec::len);
                    assert_eq!(basis.len(), n);
                    let t: std::collections::BTreeSet<Vec<i64>> = points(zr, f)
                        .into_iter()
                        .map(|z| (0..n).map(|i| x0[i] + (0..f).map(|j| basis[i][j] * z[j]).sum::<i64>()).collect::<Vec<i64>>())
                        .filter(|x| boxed(x))
                        .collect();
                    for x in &t {
                        assert!(sat(x), "{a:?} x = {b:?}: {x:?} from the basis is no solution");
                    }
                    assert_eq!(s, t, "{a:?} x = {b:?}, x0 {x0:?}, basis {basis:?}");
                }
            }
        }
        assert!(seen_none > 10, "the cases must include systems without integer solutions");
    }

    #[test]
    fn hnf_of_hand_computed_lattices() {
        // Rows (2,3), (4,5): (4,5) - 2(2,3) = (0,-1); (2,3) - 3(0,1) = (2,0).
        let a = vec![vec![2, 3], vec![4, 5]];
        let (h, u) = hermite_normal_form(&a).unwrap();
        assert_eq!(h, vec![vec![2, 0], vec![0, 1]]);
        assert_eq!(mat_mul(&u, &a).unwrap(), h);
        assert_eq!(determinant(&u).unwrap().abs(), 1);
        // Rows (3,1), (1,1): (1,1) and (3,1) - 3(1,1) = (0,-2); 1 is in [0, 2).
        let a = vec![vec![3, 1], vec![1, 1]];
        let (h, u) = hermite_normal_form(&a).unwrap();
        assert_eq!(h, vec![vec![1, 1], vec![0, 2]]);
        assert_eq!(mat_mul(&u, &a).unwrap(), h);
        // A dependent row becomes a zero row, last: (1,2), (2,4) -> (1,2), (0,0).
        let a = vec![vec![2, 4], vec![1, 2]];
        let (h, u) = hermite_normal_form(&a).unwrap();
        assert_eq!(h, vec![vec![1, 2], vec![0, 0]]);
        assert_eq!(mat_mul(&u, &a).unwrap(), h);
        // 3 x 3: rows e1 + e2, e2 + e3, e1 + e3 (determinant 2): the lattice is
        // {x : x1 + x2 + x3 even}, HNF rows (1,0,1), (0,1,1), (0,0,2).
        let a = vec![vec![1, 1, 0], vec![0, 1, 1], vec![1, 0, 1]];
        let (h, _) = hermite_normal_form(&a).unwrap();
        assert_eq!(h, vec![vec![1, 0, 1], vec![0, 1, 1], vec![0, 0, 2]]);
    }

    #[test]
    fn completion_of_primitive_vectors() {
        for v in [vec![1, 1], vec![2, 3], vec![-3, 5], vec![0, 1], vec![6, 10, 15], vec![1, 1, 1], vec![0, 0, 0, 1], vec![2, -1, 0, 4]] {
            let n = v.len();
            let m = complete_unimodular(std::slice::from_ref(&v), n).unwrap();
            assert_eq!(m[0], v);
            assert_eq!(determinant(&m).unwrap().abs(), 1, "{m:?}");
        }
        // A canonical vector completes with the other canonical vectors (001 Sec. 5.3:
        // the diamond tile's a_1 = (1, 0) in (t, i) order completes to the canonical basis).
        assert_eq!(complete_unimodular(&[vec![1, 0]], 2).unwrap(), identity(2));
    }

    #[test]
    fn completion_of_several_rows() {
        let rows = vec![vec![1, 1, 1], vec![0, 1, 2]];
        let m = complete_unimodular(&rows, 3).unwrap();
        assert_eq!(&m[..2], &rows[..]);
        assert_eq!(determinant(&m).unwrap().abs(), 1);
    }

    #[test]
    fn non_primitive_rows_are_refused() {
        assert!(matches!(complete_unimodular(&[vec![2, 4]], 2), Err(LinAlgError::NotPrimitive(_))));
        // (1,1) and (1,-1) span a sub-lattice of index 2.
        assert!(matches!(complete_unimodular(&[vec![1, 1], vec![1, -1]], 2), Err(LinAlgError::NotPrimitive(_))));
        assert!(matches!(complete_unimodular(&[vec![1, 2], vec![2, 4]], 2), Err(LinAlgError::NotPrimitive(_))));
    }

    #[test]
    fn inverse_of_the_paper_basis() {
        // 001 Sec. 5.1: [[1, 1], [1, 0]]^{-1} = [[0, 1], [1, -1]].
        let a = vec![vec![1, 1], vec![1, 0]];
        assert_eq!(inverse_unimodular(&a).unwrap(), vec![vec![0, 1], vec![1, -1]]);
        let m = vec![vec![2, 3, 1], vec![1, 2, 1], vec![0, 1, 2]]; // det = 2*3 - 3*2 + 1*1 = 1
        assert_eq!(determinant(&m).unwrap().abs(), 1);
        let inv = inverse_unimodular(&m).unwrap();
        assert_eq!(mat_mul(&m, &inv).unwrap(), identity(3));
        assert!(matches!(inverse_unimodular(&[vec![2, 0], vec![0, 1]]), Err(LinAlgError::NotUnimodular(_))));
    }

    #[test]
    fn determinant_by_hand() {
        assert_eq!(determinant(&[vec![2, 3], vec![4, 5]]).unwrap(), -2);
        assert_eq!(determinant(&[vec![0, 1], vec![1, 0]]).unwrap(), -1);
        assert_eq!(determinant(&[vec![1, 1, 0], vec![0, 1, 1], vec![1, 0, 1]]).unwrap(), 2);
    }
}

#[cfg(test)]
mod complement_tests {
    use super::*;

    fn dot(a: &[i64], b: &[i64]) -> i64 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn complement_of_nothing_is_the_canonical_basis() {
        assert_eq!(orthogonal_complement(&[], 3).unwrap(), vec![vec![1, 0, 0], vec![0, 1, 0], vec![0, 0, 1]]);
    }

    #[test]
    fn complement_is_orthogonal_and_completes_the_rank() {
        let cases: Vec<Vec<Vec<i64>>> = vec![
            vec![vec![-2, 1, 0]],
            vec![vec![-1, 1]],
            vec![vec![2, 4, 6], vec![1, 2, 3]],
            vec![vec![1, -3, 0, 2], vec![0, 2, 5, 1]],
            vec![vec![3, 5, 7], vec![2, 0, 1], vec![1, 1, 1]],
        ];
        for rows in cases {
            let n = rows[0].len();
            let c = orthogonal_complement(&rows, n).unwrap();
            for r in &c {
                for h in &rows {
                    assert_eq!(dot(r, h), 0, "{r:?} . {h:?}");
                }
            }
            let mut all = rows.clone();
            all.extend(c.iter().cloned());
            assert_eq!(rank(&all, n).unwrap(), n, "{rows:?} + {c:?}");
        }
    }
}
