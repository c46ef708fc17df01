//! Contracted storage derived from a solution (Sec. 5).
//!
//! For a local region R written by `w_{i,k}` the paper creates a one-dimensional array
//! R' of `M_{i,k} . s^T` cells and replaces every reference to an element `x` of R by
//! `R'(linearised subscript of x modulo the size + 1)`, in the common case where the
//! write reference is unit-stride. We take the linearised subscript to be the coalesced
//! index of the iteration that writes `x` (`w^{-1}(x) . s`, up to a constant): for a
//! write reference whose subscripts are a signed permutation of the loop indices plus
//! constants (the case Sec. 5 covers, and every example shipped) this is
//! `sum_d sigma_d s_{k(d)} x_d + const`. This is [`StorageKind::Linearized`]; its
//! coefficients may be symbolic (`JN - 1`).
//!
//! The common mapping fields of polyalloc (integer hyperplane and modulus) need integer
//! coefficients: a coefficient `c` is reduced modulo a symbolic size `m` when `c - t m`
//! is a constant for a small integer t (`JN - 1 = -1 mod JN`), giving
//! [`StorageKind::Integer`], an exact rewriting of the linearised storage. When some
//! coefficient cannot be reduced (e.g. `JN - 1` modulo the constant 2), the
//! [`StorageKind::Projected`] candidate drops those coefficients; it is NOT implied by
//! the solution and is accepted only because the facade confirms it: the exact checker
//! under the fused schedule (when that is the coalesced order) and the executions of the
//! contracted loops at every instance.
//!
//! At concrete parameter values every storage is an ordinary [`ModularMapping`] with
//! integer coefficients ([`Storage::mapping_at`]): that is what the executor runs for the
//! linearised storage; the integer and projected candidates are the same mapping at
//! every instance ([`Storage::mapping`]).

use crate::algorithm::FlowResult;
use crate::error::{FlowError, Result};
use crate::expr::{affine, parse_expr, Expr};
use crate::input::LoopSequence;
use crate::model::affine_of;
use polyalloc_formulation::{AffExpr, ModularMapping, Polynomial, Space, StorageRow, Tuple};
use serde::{Deserialize, Serialize};

/// How a storage was derived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StorageKind {
    /// Sec. 5: linearised subscript modulo the size (coefficients may be symbolic).
    Linearized,
    /// The same with every coefficient reduced to an integer modulo the size.
    Integer,
    /// Non-reducible coefficients dropped; not implied by the solution, checked only.
    Projected,
}

impl StorageKind {
    /// Label used in records.
    pub fn label(self) -> &'static str {
        match self {
            StorageKind::Linearized => "linearized (Sec. 5)",
            StorageKind::Integer => "integer hyperplane (exact reduction of Sec. 5)",
            StorageKind::Projected => "projected (non-reducible coefficients dropped; checked, not implied)",
        }
    }
}

/// The storage of one contracted array: element `x` lives in cell
/// `(sum_d coefs[d] x_d) mod modulus`.
#[derive(Clone, Debug, PartialEq)]
pub struct Storage {
    pub array: String,
    /// Names of the array dimensions (the write reference's index names).
    pub dims: Vec<String>,
    pub coefs: Vec<Polynomial>,
    pub modulus: Polynomial,
    pub kind: StorageKind,
}

impl Storage {
    /// Coefficients and modulus at an instance (`values` of `params`).
    pub fn at(&self, params: &[String], values: &[i64]) -> Result<(Vec<i64>, i64)> {
        let env: Vec<(&str, i64)> = params.iter().map(String::as_str).zip(values.iter().copied()).collect();
        let conv = |v: i128| i64::try_from(v).map_err(|_| FlowError::Overflow("a storage coefficient".into()));
        let coefs = self.coefs.iter().map(|c| conv(c.eval(&env)?)).collect::<Result<Vec<_>>>()?;
        Ok((coefs, conv(self.modulus.eval(&env)?)?))
    }
    /// The storage at an instance as an ordinary modular mapping over `params` (every
    /// coefficient and the modulus are integers once the parameters are known): what
    /// the executor runs for the linearised storage of Sec. 5.
    pub fn mapping_at(&self, params: &[String], values: &[i64]) -> Result<ModularMapping> {
        let (coefs, m) = self.at(params, values)?;
        if m < 1 {
            return Err(FlowError::Internal(format!("{}: contracted size {m} at {values:?} is not positive", self.array)));
        }
        self.mapping_with(params, coefs, |psp| Some(AffExpr::constant(psp, m))).ok_or_else(|| FlowError::Internal("modulus".into()))?
    }
    /// The storage as a modular mapping for every parameter value: when every
    /// coefficient is an integer and the modulus is affine in the parameters
    /// ([`StorageKind::Integer`], [`StorageKind::Projected`]); `None` otherwise.
    pub fn mapping(&self, params: &[String]) -> Option<Result<ModularMapping>> {
        let h = self.hyperplane()?;
        self.mapping_with(params, h, |psp| affine_of(&self.modulus, psp))
    }
    fn mapping_with(&self, params: &[String], hyperplane: Vec<i64>, modulus: impl Fn(&Space) -> Option<AffExpr>) -> Option<Result<ModularMapping>> {
        let pr: Vec<&str> = params.iter().map(String::as_str).collect();
        let psp = Space::set(&pr, Tuple::anonymous(&[]));
        let modulus = modulus(&psp)?;
        let dims: Vec<&str> = self.dims.iter().map(String::as_str).collect();
        Some(
            ModularMapping::new(&pr, Tuple::new(&self.array, &dims), vec![StorageRow { hyperplane, modulus: Some(modulus) }])
                .map_err(FlowError::from),
        )
    }
    /// Integer hyperplane, when every coefficient is a constant.
    pub fn hyperplane(&self) -> Option<Vec<i64>> {
        self.coefs.iter().map(constant_of).collect()
    }
    /// `ZB[(J - K) mod JN]`.
    pub fn printed(&self) -> String {
        let mut s = String::new();
        for (c, d) in self.coefs.iter().zip(&self.dims) {
            if c.is_zero() {
                continue;
            }
            let term = match constant_of(c) {
                Some(1) => d.clone(),
                Some(-1) => format!("-{d}"),
                Some(k) => format!("{k}*{d}"),
                None => format!("({c})*{d}"),
            };
            if s.is_empty() {
                s = term;
            } else if let Some(t) = term.strip_prefix('-') {
                s = format!("{s} - {t}");
            } else {
                s = format!("{s} + {term}");
            }
        }
        if s.is_empty() {
            s = "0".into();
        }
        let m = self.modulus.to_string();
        let m = if m.contains(' ') { format!("({m})") } else { m };
        format!("{}[({s}) mod {m}]", self.array)
    }
}

fn constant_of(p: &Polynomial) -> Option<i64> {
    if p.is_zero() {
        return Some(0);
    }
    let mut it = p.terms();
    let (m, c) = it.next()?;
    if m.is_empty() && it.next().is_none() {
        Some(c)
    } else {
        None
    }
}

/// Reads a unit-stride write reference: for each array dimension d, the loop level k
/// and sign sigma with `x_d = sigma * i_k + const`.
fn signed_permutation(seq: &LoopSequence, reference: &str) -> Result<(String, Vec<(usize, i64)>)> {
    let bad = |why: &str| FlowError::Contraction(format!("write reference `{reference}`: {why} (Sec. 5 contracts unit-stride writes)"));
    let Expr::Ref(name, subs) = parse_expr(reference)? else {
        return Err(bad("not an array reference"));
    };
    let n = seq.depth;
    if subs.len() != n {
        return Err(bad("the array must have one dimension per loop level"));
    }
    let mut out = Vec::new();
    let mut used = vec![false; n];
    for sub in &subs {
        let coeffs = affine(sub, &seq.index_names).ok_or_else(|| bad("subscripts must be affine in the loop indices only"))?;
        let mut found = None;
        for (k, c) in coeffs[1..].iter().enumerate() {
            if *c != 0 {
                if c.abs() != 1 || found.is_some() {
                    return Err(bad("each subscript must be +-index + constant"));
                }
                found = Some((k, *c));
            }
        }
        let (k, c) = found.ok_or_else(|| bad("a subscript does not depend on any loop index"))?;
        if used[k] {
            return Err(bad("a loop index appears in two subscripts"));
        }
        used[k] = true;
        out.push((k, c));
    }
    Ok((name, out))
}

/// The storages derived from the solution for `array` (linearised, and the integer or
/// projected candidate when it differs).
pub fn derive(seq: &LoopSequence, result: &FlowResult, array: &str) -> Result<Vec<Storage>> {
    let ws: Vec<usize> = (0..seq.writes.len()).filter(|w| seq.writes[*w].array == array).collect();
    if ws.len() != 1 {
        return Err(FlowError::Assumption {
            number: 2,
            message: format!("array {array} has {} local write references; contraction to one buffer needs exactly one", ws.len()),
        });
    }
    let w = ws[0];
    let (name, perm) = signed_permutation(seq, &seq.writes[w].reference)?;
    if name != array {
        return Err(crate::error::input("local_writes", format!("write `{}` is not to {array}", seq.writes[w].reference)));
    }
    let dims: Vec<String> = perm.iter().map(|(k, _)| seq.index_names[*k].clone()).collect();
    let modulus = result.memory_of_write(seq, w)?;
    let coefs: Vec<Polynomial> = perm.iter().map(|(k, sg)| seq.coalescing[*k].checked_scale(*sg)).collect::<std::result::Result<_, _>>()?;
    let lin = Storage { array: array.to_string(), dims: dims.clone(), coefs: coefs.clone(), modulus: modulus.clone(), kind: StorageKind::Linearized };
    let mut reduced = Vec::new();
    let mut all_int = true;
    let m_const = constant_of(&modulus);
    for c in &coefs {
        let r = match constant_of(c) {
            Some(v) => Some(v),
            None if m_const.is_none() => (-4i64..=4)
                .filter(|t| *t != 0)
                .find_map(|t| modulus.checked_scale(t).ok().and_then(|tm| c.checked_sub(&tm).ok()).and_then(|d| constant_of(&d))),
            None => None,
        };
        let r = match (r, m_const) {
            (Some(v), Some(m)) if m > 0 && v.abs() >= m => Some(v.rem_euclid(m)),
            (r, _) => r,
        };
        all_int &= r.is_some();
        reduced.push(Polynomial::constant(r.unwrap_or(0)));
    }
    let mut out = vec![lin.clone()];
    let kind = if all_int { StorageKind::Integer } else { StorageKind::Projected };
    let cand = Storage { array: array.to_string(), dims, coefs: reduced, modulus, kind };
    if cand.coefs != lin.coefs {
        out.push(cand);
    } else if all_int {
        out[0].kind = StorageKind::Integer;
    }
    Ok(out)
}
