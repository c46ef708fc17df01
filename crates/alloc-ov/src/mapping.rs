//! The storage mapping an occupancy vector induces (Thies et al. 2007, Sec. 3.3.2, after Quilleré and
//! Rajopadhye): with `g = gcd(v)`, `v0 = v / g` primitive and `U` unimodular with first
//! column `v0`, cell `l` goes to `(Pi l, y . l mod g)` where `Pi` is rows `2..n` of
//! `U^-1` and `y` its first row; an offset keeps the indices non-negative.
//!
//! Design decisions:
//! * `U`: when `v0` has a component `+-1` (the first such, at position `p`), `U` is
//!   `v0` followed by the unit vectors `e_k`, `k != p` (the simplest completion; it
//!   gives the paper's `Pi` for every example, e.g. `(2, 1) -> (-1, 2)`, `(1, 1, 1) ->
//!   [(1, -1, 0), (1, 0, -1)]` up to sign); otherwise the unimodular completion of
//!   `polyalloc_formulation::int::lin` (Hermite form).
//! * Each row of `Pi` is signed so that its coefficient of largest magnitude is
//!   positive (the paper's `2j - i`, `i - j`).
//! * The modulation row `y . l mod g` is kept when `g > 1`, or when `Pi` is empty (a
//!   one-dimensional array: `y . l mod g` is then the whole mapping, a scalar for
//!   `v = 1`).
//! * Common form: each `Pi` row becomes a modular row whose modulus is the exact range
//!   `max - min + 1` of `Pi_r . l` over the data space (a box `lo_k(n) <= l_k <=
//!   hi_k(n)`), so the modulo is the identity on the data space up to the offset; the
//!   size is the product of the moduli. The paper's printed sizes are one cell larger
//!   per dimension for Examples 1-3 (its offsets), see the bench-suite `size_exact`.

use crate::OvError;
use polyalloc_formulation::int::gcd_slice;
use polyalloc_formulation::int::lin::{complete_unimodular, inverse_unimodular, transpose};
use polyalloc_formulation::{AffExpr, BasicSet, ModularMapping, Polynomial, Space, StorageRow, Tuple};

/// The induced mapping and its forms.
#[derive(Clone, Debug)]
pub struct Induced {
    pub vector: Vec<i64>,
    /// `U` (first column `v0`).
    pub u: Vec<Vec<i64>>,
    /// The projection `Pi_v0`.
    pub pi: Vec<Vec<i64>>,
    /// The modulation row `y` and `g = gcd(v)`.
    pub y: Vec<i64>,
    pub g: i64,
    /// The common modular form (verified by the exact checker by the caller).
    pub mapping: ModularMapping,
    pub size: Polynomial,
    /// Printed with the least offsets that make every index non-negative
    /// (`A[2*j - i + m - 2]`).
    pub printed: String,
    /// Printed with the paper's offsets (the negative terms at the upper bounds, as if
    /// indices started at 0: `A[2*j - i + m]`, Fig. 11).
    pub printed_paper: String,
}

/// Lower and upper bound of each dimension of a box data space, as rows over
/// `[const, params]`.
/// Lower and upper bound of one dimension, rows over `[const, params]`.
type Bounds = (Vec<i64>, Vec<i64>);

fn box_bounds(space: &BasicSet, params: &[String]) -> Result<Vec<Bounds>, OvError> {
    let sp = space.space();
    let np = params.len();
    let d = sp.n_dim();
    if !space.equalities().is_empty() || space.n_local() > 0 {
        return Err(OvError::Unsupported("the data space must be a box (no equalities)".into()));
    }
    let mut lo: Vec<Option<Vec<i64>>> = vec![None; d];
    let mut hi: Vec<Option<Vec<i64>>> = vec![None; d];
    for r in space.inequalities() {
        let nz: Vec<usize> = (0..d).filter(|&k| r[sp.dim_col(k)] != 0).collect();
        let mut pr = vec![0; 1 + np];
        pr[0] = r[0];
        for (i, p) in sp.params.iter().enumerate() {
            let j = params.iter().position(|q| q == p).ok_or_else(|| OvError::Input(format!("data space: unknown parameter `{p}`")))?;
            pr[1 + j] = r[1 + i];
        }
        match nz.as_slice() {
            [] => {}
            [k] if r[sp.dim_col(*k)] == 1 => {
                // l_k + pr >= 0: l_k >= -pr
                if lo[*k].replace(pr.iter().map(|x| -x).collect()).is_some() {
                    return Err(OvError::Unsupported(format!("data space `{space}`: several lower bounds on dimension {k}")));
                }
            }
            [k] if r[sp.dim_col(*k)] == -1 => {
                if hi[*k].replace(pr).is_some() {
                    return Err(OvError::Unsupported(format!("data space `{space}`: several upper bounds on dimension {k}")));
                }
            }
            _ => return Err(OvError::Unsupported(format!("data space `{space}` is not a box"))),
        }
    }
    lo.into_iter()
        .zip(hi)
        .enumerate()
        .map(|(k, (l, h))| match (l, h) {
            (Some(l), Some(h)) => Ok((l, h)),
            _ => Err(OvError::Unsupported(format!("data space `{space}`: dimension {k} is unbounded"))),
        })
        .collect()
}

fn add_scaled(acc: &mut [i64], row: &[i64], k: i64) -> Result<(), OvError> {
    for (a, r) in acc.iter_mut().zip(row) {
        *a = r.checked_mul(k).and_then(|x| a.checked_add(x)).ok_or_else(|| crate::geom::ovf("mapping bounds"))?;
    }
    Ok(())
}

fn index_string(h: &[i64], dims: &[String], offset: &[i64], params: &[String]) -> String {
    let mut coeffs = Vec::new();
    let mut names = Vec::new();
    for pass in [1, -1] {
        for (k, &c) in h.iter().enumerate() {
            if c * pass > 0 {
                coeffs.push(c);
                names.push(dims[k].clone());
            }
        }
    }
    for pass in [1, -1] {
        for (p, &c) in offset[1..].iter().enumerate() {
            if c * pass > 0 {
                coeffs.push(c);
                names.push(params[p].clone());
            }
        }
    }
    crate::fmt_linear(&coeffs, &names, offset[0])
}

/// The mapping induced by `v` on the array `tuple` with data space `space`.
pub fn induced(v: &[i64], tuple: &Tuple, space: &BasicSet, params: &[String]) -> Result<Induced, OvError> {
    let n = v.len();
    if n != tuple.len() {
        return Err(OvError::Input(format!("occupancy vector {v:?} for the {}-dimensional array {tuple}", tuple.len())));
    }
    let pnames: Vec<&str> = params.iter().map(String::as_str).collect();
    let psp = Space::set(&pnames, Tuple::anonymous(&[]));
    let name = tuple.name.clone().unwrap_or_default();
    let g = gcd_slice(v);
    if g == 0 {
        // v = 0: no value is read; one cell suffices.
        let mapping =
            ModularMapping::new(&pnames, tuple.clone(), vec![StorageRow { hyperplane: vec![0; n], modulus: Some(AffExpr::constant(&psp, 1)) }])?;
        return Ok(Induced {
            vector: v.to_vec(),
            u: vec![],
            pi: vec![],
            y: vec![0; n],
            g: 0,
            mapping,
            size: Polynomial::constant(1),
            printed: format!("{name} (scalar)"),
            printed_paper: format!("{name} (scalar)"),
        });
    }
    let v0: Vec<i64> = v.iter().map(|x| x / g).collect();
    let u: Vec<Vec<i64>> = match v0.iter().position(|x| x.abs() == 1) {
        Some(p) => {
            let mut cols = vec![v0.clone()];
            for k in (0..n).filter(|&k| k != p) {
                let mut e = vec![0; n];
                e[k] = 1;
                cols.push(e);
            }
            transpose(&cols)
        }
        None => transpose(&complete_unimodular(std::slice::from_ref(&v0), n)?),
    };
    let uinv = inverse_unimodular(&u)?;
    let y = uinv[0].clone();
    let mut pi: Vec<Vec<i64>> = uinv[1..].to_vec();
    for row in pi.iter_mut() {
        let amax = row.iter().map(|x| x.abs()).max().unwrap_or(0);
        let big = row.iter().copied().find(|x| x.abs() == amax).unwrap_or(0);
        if big < 0 {
            row.iter_mut().for_each(|x| *x = -*x);
        }
    }
    let bounds = box_bounds(space, params)?;
    let mut rows = Vec::new();
    let mut comps = Vec::new();
    let mut comps_paper = Vec::new();
    for h in &pi {
        let mut max = vec![0; 1 + params.len()];
        let mut min = vec![0; 1 + params.len()];
        let mut paper_min = vec![0; 1 + params.len()];
        for (k, &c) in h.iter().enumerate() {
            let (lo, hi) = &bounds[k];
            if c > 0 {
                add_scaled(&mut max, hi, c)?;
                add_scaled(&mut min, lo, c)?;
            } else if c < 0 {
                add_scaled(&mut max, lo, c)?;
                add_scaled(&mut min, hi, c)?;
                add_scaled(&mut paper_min, hi, c)?;
            }
        }
        let mut modulus = max.clone();
        add_scaled(&mut modulus, &min, -1)?;
        modulus[0] = modulus[0].checked_add(1).ok_or_else(|| crate::geom::ovf("modulus"))?;
        rows.push(StorageRow { hyperplane: h.clone(), modulus: Some(AffExpr { coeffs: modulus }) });
        let neg_min: Vec<i64> = min.iter().map(|x| -x).collect();
        let neg_pmin: Vec<i64> = paper_min.iter().map(|x| -x).collect();
        comps.push(index_string(h, &tuple.dims, &neg_min, params));
        comps_paper.push(index_string(h, &tuple.dims, &neg_pmin, params));
    }
    if g > 1 || pi.is_empty() {
        rows.push(StorageRow { hyperplane: y.clone(), modulus: Some(AffExpr::constant(&psp, g)) });
        if g > 1 {
            let s = format!("{} mod {g}", index_string(&y, &tuple.dims, &[0], &[]));
            comps.push(s.clone());
            comps_paper.push(s);
        }
    }
    let mapping = ModularMapping::new(&pnames, tuple.clone(), rows)?;
    let size = mapping.size()?.ok_or_else(|| OvError::Input("unfolded mapping row".into()))?;
    let show = |c: &[String]| if c.is_empty() { format!("{name} (scalar)") } else { format!("{name}[{}]", c.join("][")) };
    Ok(Induced { vector: v.to_vec(), u, pi, y, g, size, printed: show(&comps), printed_paper: show(&comps_paper), mapping })
}
