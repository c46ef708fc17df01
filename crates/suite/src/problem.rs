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
}

