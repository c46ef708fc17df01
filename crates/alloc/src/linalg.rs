//! Small exact integer linear algebra used by the methods: the orthogonal complement of
//! a set of rows (to force a new storage hyperplane out of the span of the previous
//! ones) and rank.

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// Row-reduces `rows` (n columns) over the rationals with integer rows; returns the
/// reduced rows and the pivot column of each. `None` on overflow of `i128`.
fn echelon(rows: &[Vec<i64>], n: usize) -> Option<(Vec<Vec<i128>>, Vec<usize>)> {
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
                let g = m[i].iter().fold(0, |g, &x| gcd(g, x));
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
    echelon(rows, n).map(|(m, _)| m.len())
}

/// An integer basis (primitive rows) of `{ r in Q^n : r . h = 0 for every h in rows }`.
/// With no rows it is the canonical basis. `None` on arithmetic overflow.
pub fn orthogonal_complement(rows: &[Vec<i64>], n: usize) -> Option<Vec<Vec<i64>>> {
    let (m, pivots) = echelon(rows, n)?;
    let mut basis = Vec::new();
    for f in (0..n).filter(|c| !pivots.contains(c)) {
        // x_f = L, other free columns 0, pivot columns solved: m[k][p_k] x_p + m[k][f] L = 0.
        let l = m.iter().fold(1i128, |acc, row| {
            let p = row.iter().position(|&x| x != 0).map_or(1, |i| row[i]);
            let g = gcd(acc, p);
            if g == 0 { acc } else { acc / g * p.abs() }
        });
        let mut x = vec![0i128; n];
        x[f] = l;
        for (k, row) in m.iter().enumerate() {
            let p = pivots[k];
            x[p] = -(row[f].checked_mul(l)?) / row[p];
        }
        let g = x.iter().fold(0, |g, &v| gcd(g, v));
        let v: Option<Vec<i64>> = x.iter().map(|&v| i64::try_from(v / g.max(1)).ok()).collect();
        basis.push(v?);
    }
    Some(basis)
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
