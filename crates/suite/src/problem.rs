//! One array's storage problem: its conflict set, the parameter context and the
//! instances, as every conflict-set method and the exact checker take it.

use polyalloc_formulation::{BasicSet, ConflictSet, Set, Space, Tuple};

/// One array's storage problem.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The example it comes from (for messages and model names).
    pub example: String,
    /// The conflict set (its relation's space names the array and the parameters).
    pub conflicts: ConflictSet,
    /// The parameter context, a zero-dimensional set such as `[N] -> { : N >= 2 }`.
    pub context: Option<BasicSet>,
    /// The array's data space (every cell), when known: the checker proves every
    /// modulus at least 1 wherever it has a cell. `None`: only where conflicts exist.
    pub space: Option<Set>,
    /// Concrete parameter values (in the conflict relation's parameter order) at which
    /// the checker also enumerates conflicts when a symbolic proof is out of reach.
    pub instances: Vec<Vec<i64>>,
}

impl Problem {
    /// The parameter names, in order.
    pub fn params(&self) -> &[String] {
        &self.conflicts.relation.space().params
    }
    /// The zero-dimensional space of the parameters, over which moduli are affine
    /// (`[N] -> { : }`).
    pub fn param_space(&self) -> Space {
        let refs: Vec<&str> = self.params().iter().map(String::as_str).collect();
        Space::set(&refs, Tuple::anonymous(&[]))
    }
    /// The array's name.
    pub fn array(&self) -> &str {
        &self.conflicts.array
    }
    /// The array with the dimension names of the conflict relation's first tuple
    /// (`A[t, i]` of `A[t, i] -> A[t2, i2]`), used to print mappings.
    pub fn array_tuple(&self) -> Tuple {
        let sp = self.conflicts.relation.space();
        sp.input.clone().unwrap_or_else(|| sp.output.clone())
    }
    /// The array's dimensionality.
    pub fn n_dims(&self) -> usize {
        self.conflicts.relation.space().n_out()
    }
    /// The problem at one instance: its context with every parameter fixed to `values`
    /// (in [`Problem::params`] order) and `values` as its one instance. `None` when
    /// `values` lie outside the context (a proof over the fixed context would then be
    /// vacuous).
    pub fn at_instance(&self, values: &[i64]) -> polyalloc_formulation::Result<Option<Problem>> {
        let params = self.params().to_vec();
        if values.len() != params.len() {
            return Err(polyalloc_formulation::Error::SpaceMismatch(format!("{} parameter values for {} parameters", values.len(), params.len())));
        }
        let ctx = match &self.context {
            Some(c) => c.align_params(&params)?,
            None => BasicSet::universe(self.param_space()),
        };
        if !Set::from_pieces(ctx.space().clone(), vec![ctx.clone()])?.contains(values, &[])? {
            return Ok(None);
        }
        let mut fixed = ctx;
        for (k, v) in values.iter().enumerate() {
            let mut row = vec![0; fixed.n_cols()];
            row[0] = -v;
            row[1 + k] = 1;
            fixed.add_eq_row(row)?;
        }
        Ok(Some(Problem { context: Some(fixed), instances: vec![values.to_vec()], ..self.clone() }))
    }
}
