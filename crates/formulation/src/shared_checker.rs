//! The exact checker of shared (inter-array) storage, independent of every allocator.
//!
//! A [`SharedMapping`] is valid for an [`InterConflictSet`] when no two conflicting cells
//! (of one array, or of two arrays) share a location, and every modulus is at least 1
//! wherever an array has cells. Two ways to decide it, sharing no code with any method:
//!
//! * [`check_shared`] proves it **for every parameter value** by reducing it exactly to
//!   the intra-array checker ([`Checker`]): the arrays `A_0, ..., A_{k-1}` are embedded
//!   in one *combined* array whose cells are `(x_0 | ... | x_{k-1} | s_0, ..., s_{k-1})`,
//!   cell `x` of `A_a` being `x` in block `a`, zeros in the other blocks and the unit
//!   selector `s = e_a`. Row `r` of the shared mapping becomes the combined hyperplane
//!   `(H_0[r] | ... | H_{k-1}[r] | o_0[r], ..., o_{k-1}[r])` with the same modulus, so
//!   that `h . (z - z') = (H_a[r] . x + o_a[r]) - (H_b[r] . y + o_b[r])` for the embedded
//!   cells `z`, `z'` of `(a, x)` and `(b, y)`: the two cells share a location exactly when
//!   their embeddings do under the combined modular mapping. Every conflict relation is
//!   embedded piece by piece (the other blocks fixed to 0, the selectors to `e_a` and
//!   `e_b`), and the array spaces likewise for the moduli. The intra-array checker's
//!   symbolic proof (positivity of the moduli, bounded quotients, linear collision
//!   systems solved as ILPs) then decides every pair, counterexamples included, which are
//!   mapped back to (array, cell).
//! * [`check_shared_concrete`] enumerates every conflicting pair of every relation at
//!   given parameter values and compares the two locations directly (no ILP, no
//!   embedding); [`check_shared`] falls back to it at the instances when the symbolic
//!   proof does not conclude.

use crate::basic::BasicSet;
use crate::checker::{Checker, Verdict};
use crate::conflict::{ConflictForm, ConflictSet, InterConflictSet};
use crate::error::{Error, Result};
use crate::mapping::{ModularMapping, StorageRow};
use crate::set::Set;
use crate::shared::SharedMapping;
use crate::space::{Space, Tuple};

/// Two distinct conflicting cells stored at the same location of a shared storage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedCounterexample {
    /// Parameter values (in the mapping's parameter order).
    pub params: Vec<i64>,
    /// The first cell's array.
    pub array_a: String,
    pub cell_a: Vec<i64>,
    /// The second cell's array (the same array for an intra-array conflict).
    pub array_b: String,
    pub cell_b: Vec<i64>,
    /// The location both are stored at.
    pub location: Vec<i64>,
}

/// Outcome of [`check_shared`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SharedVerdict {
    /// Proven for every parameter value of the context.
    Proven,
    /// The symbolic proof did not conclude; every conflicting pair was enumerated and
    /// separated at these parameter values (in [`InterConflictSet::params`] order).
    ProvenForInstancesOnly { reason: String, instances: Vec<Vec<i64>> },
    /// Refuted, with a counterexample.
    Refuted(SharedCounterexample),
    /// A modulus is not positive for these parameter values (mapping order) where an
    /// array has cells.
    NonPositiveModulus { row: usize, params: Vec<i64> },
}

/// Outcome of [`check_shared_concrete`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SharedConcreteVerdict {
    /// Every conflicting pair is separated.
    Valid { pairs_checked: usize },
    /// A collision.
    Invalid(SharedCounterexample),
}

/// For every array of the conflict set, the index of its part in the mapping.
fn part_indices(conflicts: &InterConflictSet, mapping: &SharedMapping) -> Result<Vec<usize>> {
    conflicts
        .arrays
        .iter()
        .map(|t| {
            let name = t.name.clone().unwrap_or_default();
            let (i, p) = mapping.part(&name).ok_or_else(|| Error::Mapping(format!("the shared mapping has no part for array `{name}`")))?;
            if p.array.len() != t.len() {
                return Err(Error::Mapping(format!(
                    "array `{name}`: the mapping's part has {} dimensions, the conflicts {}",
                    p.array.len(),
                    t.len()
                )));
            }
            Ok(i)
        })
        .collect()
}

/// The parameter positions of the mapping's parameters in `params`.
fn mapping_param_positions(mapping: &SharedMapping, params: &[String]) -> Result<Vec<usize>> {
    mapping
        .params
        .iter()
        .map(|p| {
            params.iter().position(|q| q == p).ok_or_else(|| Error::Mapping(format!("mapping parameter `{p}` is not a parameter of the conflicts")))
        })
        .collect()
}

/// The combined array of the reduction: block `a` starts at `start[a]`, the selector of
/// array `a` is dimension `sel + a`.
struct Embedding {
    combined: Tuple,
    start: Vec<usize>,
    sel: usize,
    arity: Vec<usize>,
    names: Vec<String>,
}

impl Embedding {
    fn new(conflicts: &InterConflictSet) -> Embedding {
        let mut dims = Vec::new();
        let mut start = Vec::new();
        let names = conflicts.array_names();
        for (t, name) in conflicts.arrays.iter().zip(&names) {
            start.push(dims.len());
            dims.extend(t.dims.iter().map(|d| format!("{name}_{d}")));
        }
        let sel = dims.len();
        dims.extend(names.iter().map(|n| format!("sel_{n}")));
        Embedding {
            combined: Tuple { name: Some("shared".into()), dims },
            start,
            sel,
            arity: conflicts.arrays.iter().map(|t| t.len()).collect(),
            names,
        }
    }

    fn n(&self) -> usize {
        self.combined.len()
    }

    /// Equalities fixing the embedding of array `a` on the `n` dims starting at column
    /// `first`: the other blocks 0, the selector `e_a`.
    fn fix(&self, b: &mut BasicSet, first: usize, a: usize) -> Result<()> {
        for (other, (&s, &len)) in self.start.iter().zip(&self.arity).enumerate() {
            if other != a {
                for j in 0..len {
                    let mut r = vec![0; b.n_cols()];
                    r[first + s + j] = 1;
                    b.add_eq_row(r)?;
                }
            }
        }
        for other in 0..self.arity.len() {
            let mut r = vec![0; b.n_cols()];
            r[first + self.sel + other] = 1;
            r[0] = if other == a { -1 } else { 0 };
            b.add_eq_row(r)?;
        }
        Ok(())
    }

    /// A conflict polyhedron between arrays `a` and `b` as a piece of the combined
    /// relation.
    fn relation_piece(&self, piece: &BasicSet, a: usize, b: usize, params: &[String]) -> Result<BasicSet> {
        let pnames: Vec<&str> = params.iter().map(String::as_str).collect();
        let target = Space::map(&pnames, self.combined.clone(), self.combined.clone());
        let np = params.len();
        let (na, n) = (self.arity[a], self.n());
        let nd = piece.space().n_dim();
        let first_local = 1 + np + 2 * n;
        let (sa, sb) = (self.start[a], self.start[b]);
        let col = move |c: usize| {
            let j = c - 1 - np;
            if j < na {
                1 + np + sa + j
            } else if j < nd {
                1 + np + n + sb + (j - na)
            } else {
                first_local + (j - nd)
            }
        };
        let mut out = piece.place_into(&target, piece.n_local(), &col)?;
        self.fix(&mut out, 1 + np, a)?;
        self.fix(&mut out, 1 + np + n, b)?;
        Ok(out)
    }

    /// An array's data space as a piece set of the combined array.
    fn space(&self, space: &Set, a: usize, params: &[String]) -> Result<Set> {
        let pnames: Vec<&str> = params.iter().map(String::as_str).collect();
        let target = Space::set(&pnames, self.combined.clone());
        let np = params.len();
        let (na, n, s) = (self.arity[a], self.n(), self.start[a]);
        let mut out = Set::empty(target.clone());
        for piece in space.pieces() {
            let col = move |c: usize| {
                let j = c - 1 - np;
                if j < na {
                    1 + np + s + j
                } else {
                    1 + np + n + (j - na)
                }
            };
            let mut b = piece.place_into(&target, piece.n_local(), &col)?;
            self.fix(&mut b, 1 + np, a)?;
            out.add_piece(b)?;
        }
        Ok(out)
    }

    /// The shared mapping as a modular mapping of the combined array.
    fn mapping(&self, mapping: &SharedMapping, parts: &[usize]) -> Result<ModularMapping> {
        let pnames: Vec<&str> = mapping.params.iter().map(String::as_str).collect();
        let rows = (0..mapping.n_rows())
            .map(|r| {
                let mut h = vec![0; self.n()];
                for (a, &pi) in parts.iter().enumerate() {
                    let part = &mapping.parts[pi];
                    h[self.start[a]..self.start[a] + self.arity[a]].copy_from_slice(&part.hyperplanes[r]);
                    h[self.sel + a] = part.offsets[r];
                }
                StorageRow { hyperplane: h, modulus: Some(mapping.moduli[r].clone()) }
            })
            .collect();
        ModularMapping::new(&pnames, self.combined.clone(), rows)
    }

    /// The (array, cell) of a combined cell.
    fn cell(&self, z: &[i64]) -> Result<(usize, Vec<i64>)> {
        let a = (0..self.arity.len())
            .find(|&a| z.get(self.sel + a) == Some(&1))
            .ok_or_else(|| Error::Mapping(format!("internal: combined cell {z:?} has no selector")))?;
        Ok((a, z[self.start[a]..self.start[a] + self.arity[a]].to_vec()))
    }
}

/// Decides a shared mapping: a symbolic proof for every parameter value of `context`
/// (through the embedding described in the module documentation), else the concrete
/// check at `instances` (parameter values in [`InterConflictSet::params`] order). With
/// `spaces` (one data space per array, in the order of the conflict set's arrays), every
/// modulus must be at least 1 wherever an array has cells; without, wherever conflicts
/// exist.
pub fn check_shared(
    checker: &Checker<'_>,
    conflicts: &InterConflictSet,
    mapping: &SharedMapping,
    spaces: Option<&[Set]>,
    context: Option<&BasicSet>,
    instances: &[Vec<i64>],
) -> Result<SharedVerdict> {
    let parts = part_indices(conflicts, mapping)?;
    mapping_param_positions(mapping, &conflicts.params)?;
    let emb = Embedding::new(conflicts);
    let params = &conflicts.params;
    let pnames: Vec<&str> = params.iter().map(String::as_str).collect();
    let mut relation = Set::empty(Space::map(&pnames, emb.combined.clone(), emb.combined.clone()));
    for r in &conflicts.relations {
        for piece in r.relation.pieces() {
            relation.add_piece(emb.relation_piece(piece, r.from, r.to, params)?)?;
        }
    }
    let cs = ConflictSet::from_map(relation, ConflictForm::Half)?;
    let cells = match spaces {
        Some(sp) => {
            if sp.len() != conflicts.arrays.len() {
                return Err(Error::Mapping(format!("{} data spaces for {} arrays", sp.len(), conflicts.arrays.len())));
            }
            let mut all = Set::empty(Space::set(&pnames, emb.combined.clone()));
            for (a, s) in sp.iter().enumerate() {
                all = all.union(&emb.space(s, a, params)?)?;
            }
            Some(all)
        }
        None => None,
    };
    let combined = emb.mapping(mapping, &parts)?;
    match checker.check_in_space(&cs, &combined, cells.as_ref(), context, &[])? {
        Verdict::Proven => Ok(SharedVerdict::Proven),
        Verdict::Refuted(c) => {
            let (a, x) = emb.cell(&c.cell_a)?;
            let (b, y) = emb.cell(&c.cell_b)?;
            Ok(SharedVerdict::Refuted(SharedCounterexample {
                params: c.params,
                array_a: emb.names[a].clone(),
                cell_a: x,
                array_b: emb.names[b].clone(),
                cell_b: y,
                location: c.folded,
            }))
        }
        Verdict::NonPositiveModulus { row, params } => Ok(SharedVerdict::NonPositiveModulus { row, params }),
        Verdict::ProvenForInstancesOnly { reason, .. } => {
            let pos = mapping_param_positions(mapping, params)?;
            for inst in instances {
                let mparams: Vec<i64> = pos.iter().map(|&i| inst.get(i).copied().unwrap_or(0)).collect();
                if let Some((row, e)) = mapping.moduli.iter().enumerate().find_map(|(k, e)| match e.eval(&mparams, &[]) {
                    Ok(v) if v <= 0 => Some((k, Ok(()))),
                    Ok(_) => None,
                    Err(err) => Some((k, Err(err))),
                }) {
                    e?;
                    return Ok(SharedVerdict::NonPositiveModulus { row, params: mparams });
                }
                if let SharedConcreteVerdict::Invalid(c) = check_shared_concrete(conflicts, mapping, inst, usize::MAX)? {
                    return Ok(SharedVerdict::Refuted(c));
                }
            }
            Ok(SharedVerdict::ProvenForInstancesOnly { reason, instances: instances.to_vec() })
        }
    }
}

/// Enumerates every conflicting pair of every relation at the parameter values `params`
/// (in [`InterConflictSet::params`] order) and compares the two locations. Fails with
/// [`Error::TooManyPoints`] beyond `limit` pairs.
pub fn check_shared_concrete(conflicts: &InterConflictSet, mapping: &SharedMapping, params: &[i64], limit: usize) -> Result<SharedConcreteVerdict> {
    if params.len() != conflicts.params.len() {
        return Err(Error::ParamValues(format!("{} values for parameters {:?}", params.len(), conflicts.params)));
    }
    let parts = part_indices(conflicts, mapping)?;
    let mparams: Vec<i64> = mapping_param_positions(mapping, &conflicts.params)?.iter().map(|&i| params[i]).collect();
    let moduli = mapping.moduli_at(&mparams)?;
    let names = conflicts.array_names();
    let mut count = 0usize;
    for r in &conflicts.relations {
        let na = conflicts.arrays[r.from].len();
        let mut bad = None;
        let mut err = None;
        r.relation.for_each_point(params, &mut |pt| {
            let (x, y) = pt.split_at(na);
            if r.from == r.to && x == y {
                return Ok(true);
            }
            count += 1;
            if count > limit {
                err = Some(Error::TooManyPoints(limit));
                return Ok(false);
            }
            let lx = mapping.locate_with(parts[r.from], &moduli, x)?;
            let ly = mapping.locate_with(parts[r.to], &moduli, y)?;
            if lx == ly {
                bad = Some(SharedCounterexample {
                    params: mparams.clone(),
                    array_a: names[r.from].clone(),
                    cell_a: x.to_vec(),
                    array_b: names[r.to].clone(),
                    cell_b: y.to_vec(),
                    location: lx,
                });
                return Ok(false);
            }
            Ok(true)
        })?;
        if let Some(e) = err {
            return Err(e);
        }
        if let Some(c) = bad {
            return Ok(SharedConcreteVerdict::Invalid(c));
        }
    }
    Ok(SharedConcreteVerdict::Valid { pairs_checked: count })
}
