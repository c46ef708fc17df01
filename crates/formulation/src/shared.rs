//! Shared storage of several arrays (inter-array storage): one storage of `m` rows in
//! which every array has its own storage hyperplanes and offsets, with one modulus per
//! row common to all arrays.
//!
//! Intra-array storage folds one array onto fewer cells ([`ModularMapping`]); inter-array
//! storage lets several arrays use the *same* cells where their values are never live at
//! the same time (Bhaskaracharya et al. 2016, Sec. 6 names it; the public SMO tool implements it for the
//! "statements" of its inter-array inputs). Cell `x` of array `a` is stored at
//!
//! ```text
//! ((H_a[0] . x + o_a[0]) mod e_0, ..., (H_a[m-1] . x + o_a[m-1]) mod e_{m-1})
//! ```
//!
//! of a storage of `e_0 * ... * e_{m-1}` cells. The offsets `o_a` keep the arrays' cells
//! apart where they conflict (two arrays with the same hyperplane and different offsets
//! use different residues). A shared mapping is valid when no two conflicting cells, of
//! one array or of two, share a location: the checker in
//! [`shared_checker`](crate::shared_checker) decides it exactly.
//!
//! [`ModularMapping`]: crate::ModularMapping

use crate::aff::AffExpr;
use crate::error::{Error, Result};
use crate::mapping::fmt_row;
use crate::poly::Polynomial;
use crate::space::{Space, Tuple};
use std::fmt;

/// One array's part of a [`SharedMapping`]: its hyperplane and offset per storage row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedPart {
    /// The array, with its dimension names (`A0[x0, x1, x2]`).
    pub array: Tuple,
    /// One hyperplane per storage row, over the array's dimensions.
    pub hyperplanes: Vec<Vec<i64>>,
    /// One offset per storage row.
    pub offsets: Vec<i64>,
}

/// The shared storage of several arrays: per array a hyperplane and an offset per row,
/// per row one modulus affine in the parameters (every row is folded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedMapping {
    /// Parameter names (the moduli are affine in them).
    pub params: Vec<String>,
    /// The storage's name, for printing (`S`).
    pub storage: String,
    /// One modulus per storage row, over the parameter space.
    pub moduli: Vec<AffExpr>,
    /// The arrays, in order.
    pub parts: Vec<SharedPart>,
}

impl SharedMapping {
    /// Builds and validates a shared mapping: one hyperplane (of the array's arity) and
    /// one offset per row for every part, distinct array names, moduli over the
    /// parameters.
    pub fn new(params: &[&str], storage: &str, moduli: Vec<AffExpr>, parts: Vec<SharedPart>) -> Result<Self> {
        let m = SharedMapping { params: params.iter().map(|s| s.to_string()).collect(), storage: storage.to_string(), moduli, parts };
        let psp = m.param_space();
        for (k, e) in m.moduli.iter().enumerate() {
            if e.coeffs.len() != psp.n_cols() {
                return Err(Error::Mapping(format!("row {k}: modulus is not over the parameters {:?}", m.params)));
            }
        }
        for (i, p) in m.parts.iter().enumerate() {
            let name = p.array.name.clone().unwrap_or_default();
            if m.parts[..i].iter().any(|q| q.array.name == p.array.name) {
                return Err(Error::Mapping(format!("array `{name}` has two parts")));
            }
            if p.hyperplanes.len() != m.moduli.len() || p.offsets.len() != m.moduli.len() {
                return Err(Error::Mapping(format!(
                    "array `{name}`: {} hyperplanes and {} offsets for {} storage rows",
                    p.hyperplanes.len(),
                    p.offsets.len(),
                    m.moduli.len()
                )));
            }
            if let Some((k, h)) = p.hyperplanes.iter().enumerate().find(|(_, h)| h.len() != p.array.len()) {
                return Err(Error::Mapping(format!(
                    "array `{name}`, row {k}: hyperplane has {} coefficients, the array has {} dimensions",
                    h.len(),
                    p.array.len()
                )));
            }
        }
        Ok(m)
    }

    /// The parameter-only space of the moduli.
    pub fn param_space(&self) -> Space {
        Space { params: self.params.clone(), input: None, output: Tuple::anonymous(&[]) }
    }

    /// Number of storage rows.
    pub fn n_rows(&self) -> usize {
        self.moduli.len()
    }

    /// The part of the array called `name`, with its index.
    pub fn part(&self, name: &str) -> Option<(usize, &SharedPart)> {
        self.parts.iter().enumerate().find(|(_, p)| p.array.name.as_deref() == Some(name))
    }

    /// The moduli for concrete parameter values (in [`SharedMapping::params`] order); a
    /// modulus that is not positive is an error.
    pub fn moduli_at(&self, params: &[i64]) -> Result<Vec<i64>> {
        self.moduli
            .iter()
            .enumerate()
            .map(|(k, e)| {
                let v = e.eval(params, &[])?;
                if v <= 0 {
                    Err(Error::Mapping(format!("modulus of row {k} is {v} (not positive) for {params:?}")))
                } else {
                    Ok(v)
                }
            })
            .collect()
    }

    /// The location of `cell` of part `part` for precomputed moduli.
    pub fn locate_with(&self, part: usize, moduli: &[i64], cell: &[i64]) -> Result<Vec<i64>> {
        let p = self.parts.get(part).ok_or_else(|| Error::Mapping(format!("no part {part}")))?;
        if cell.len() != p.array.len() {
            return Err(Error::Mapping(format!("cell of {} coordinates for the {}-d array {}", cell.len(), p.array.len(), p.array)));
        }
        p.hyperplanes
            .iter()
            .zip(&p.offsets)
            .zip(moduli)
            .map(|((h, &o), &e)| {
                let mut v = o as i128;
                for (c, x) in h.iter().zip(cell) {
                    v += *c as i128 * *x as i128;
                }
                crate::int::to_i64(v.rem_euclid(e as i128), "locating a cell in a shared storage")
            })
            .collect()
    }

    /// The size (number of cells of the storage) as a polynomial: the product of the moduli.
    pub fn size(&self) -> Result<Polynomial> {
        let mut p = Polynomial::constant(1);
        for e in &self.moduli {
            let mut m = Polynomial::constant(e.coeffs[0]);
            for (i, name) in self.params.iter().enumerate() {
                m = m.checked_add(&Polynomial::var(name).checked_scale(e.coeffs[1 + i])?)?;
            }
            p = p.checked_mul(&m)?;
        }
        Ok(p)
    }

    /// The size for concrete parameters.
    pub fn size_for(&self, params: &[i64]) -> Result<i128> {
        self.moduli_at(params)?
            .into_iter()
            .try_fold(1i128, |s, m| s.checked_mul(m as i128))
            .ok_or_else(|| Error::Overflow("shared storage size".into()))
    }
}

impl fmt::Display for SharedMapping {
    /// `A0[x0, x1] -> S[(x1 - x0) mod (N + 1)]; A1[x0, x1] -> S[(x1 - x0 + 1) mod (N + 1)]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .parts
            .iter()
            .map(|p| {
                let rows: Vec<String> = p
                    .hyperplanes
                    .iter()
                    .zip(&p.offsets)
                    .zip(&self.moduli)
                    .map(|((h, &o), e)| fmt_row(h, &p.array.dims, o, Some(e), &self.params))
                    .collect();
                format!("{} -> {}[{}]", p.array, self.storage, rows.join(", "))
            })
            .collect();
        f.write_str(&parts.join("; "))
    }
}
