//! Spaces: parameters and named tuples of dimensions.

use crate::error::{Error, Result};
use std::fmt;

/// A named tuple of dimensions, e.g. `A[t, i]` (the name is optional: `[t, i]`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tuple {
    /// The tuple name (`A`, `S`), or `None` for an anonymous tuple.
    pub name: Option<String>,
    /// The dimension names, in order.
    pub dims: Vec<String>,
}

impl Tuple {
    /// A named tuple.
    pub fn new(name: impl Into<String>, dims: &[&str]) -> Self {
        Tuple { name: Some(name.into()), dims: dims.iter().map(|s| s.to_string()).collect() }
    }
    /// An anonymous tuple.
    pub fn anonymous(dims: &[&str]) -> Self {
        Tuple { name: None, dims: dims.iter().map(|s| s.to_string()).collect() }
    }
    /// Number of dimensions.
    pub fn len(&self) -> usize {
        self.dims.len()
    }
    /// True for a zero-dimensional tuple.
    pub fn is_empty(&self) -> bool {
        self.dims.is_empty()
    }
    /// Same name and arity (dimension names may differ).
    pub fn same_shape(&self, other: &Tuple) -> bool {
        self.name == other.name && self.dims.len() == other.dims.len()
    }
}

impl fmt::Display for Tuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = &self.name {
            f.write_str(n)?;
        }
        write!(f, "[{}]", self.dims.join(", "))
    }
}

/// The space of a set (`A[t, i]`) or of a relation (`A[t, i] -> A[t2, i2]`), with its
/// parameters.
///
/// Column layout used by every constraint row in this crate:
/// `[constant, params..., input dims..., output dims..., locals...]`; a set has only
/// "output" dims (its single tuple).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Space {
    /// Parameter names (`N`, `B`), symbolic constants.
    pub params: Vec<String>,
    /// Input tuple of a relation; `None` for a set.
    pub input: Option<Tuple>,
    /// The tuple of a set, or the output tuple of a relation.
    pub output: Tuple,
}

impl Space {
    /// The space of a set.
    pub fn set(params: &[&str], tuple: Tuple) -> Self {
        Space { params: params.iter().map(|s| s.to_string()).collect(), input: None, output: tuple }
    }
    /// The space of a relation `input -> output`.
    pub fn map(params: &[&str], input: Tuple, output: Tuple) -> Self {
        Space { params: params.iter().map(|s| s.to_string()).collect(), input: Some(input), output }
    }
    /// True for a relation space.
    pub fn is_map(&self) -> bool {
        self.input.is_some()
    }
    /// Number of parameters.
    pub fn n_param(&self) -> usize {
        self.params.len()
    }
    /// Number of input dimensions (0 for a set).
    pub fn n_in(&self) -> usize {
        self.input.as_ref().map_or(0, |t| t.len())
    }
    /// Number of output dimensions (the set dimensions for a set).
    pub fn n_out(&self) -> usize {
        self.output.len()
    }
    /// Number of set dimensions (input + output).
    pub fn n_dim(&self) -> usize {
        self.n_in() + self.n_out()
    }
    /// Column of parameter `i`.
    pub fn param_col(&self, i: usize) -> usize {
        1 + i
    }
    /// Column of dimension `j` (input dims first).
    pub fn dim_col(&self, j: usize) -> usize {
        1 + self.n_param() + j
    }
    /// Number of columns without locals (`1 + params + dims`).
    pub fn n_cols(&self) -> usize {
        1 + self.n_param() + self.n_dim()
    }
    /// All dimension names (input then output).
    pub fn dim_names(&self) -> Vec<String> {
        let mut v = self.input.as_ref().map_or_else(Vec::new, |t| t.dims.clone());
        v.extend(self.output.dims.iter().cloned());
        v
    }
    /// Index of a parameter by name.
    pub fn param_index(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p == name)
    }
    /// Column of a parameter or dimension by name (dimensions shadow parameters).
    pub fn col_of(&self, name: &str) -> Option<usize> {
        if let Some(j) = self.dim_names().iter().position(|d| d == name) {
            return Some(self.dim_col(j));
        }
        self.param_index(name).map(|i| self.param_col(i))
    }
    /// Same parameters (in order), tuple names and arities.
    pub fn compatible(&self, other: &Space) -> bool {
        self.params == other.params
            && self.output.same_shape(&other.output)
            && match (&self.input, &other.input) {
                (None, None) => true,
                (Some(a), Some(b)) => a.same_shape(b),
                _ => false,
            }
    }
    /// Checks [`Space::compatible`] with an error naming both spaces.
    pub fn check_compatible(&self, other: &Space) -> Result<()> {
        if self.compatible(other) {
            Ok(())
        } else {
            Err(Error::SpaceMismatch(format!("`{self}` vs `{other}`")))
        }
    }
    /// The union of the parameter lists of two spaces (self's order first).
    pub fn merged_params(&self, other: &[String]) -> Vec<String> {
        let mut p = self.params.clone();
        for q in other {
            if !p.contains(q) {
                p.push(q.clone());
            }
        }
        p
    }
    /// The same space with another parameter list.
    pub fn with_params(&self, params: Vec<String>) -> Space {
        Space { params, input: self.input.clone(), output: self.output.clone() }
    }
    /// The relation space reversed.
    pub fn reversed(&self) -> Result<Space> {
        let input = self.input.clone().ok_or_else(|| Error::WrongKind("reverse needs a relation".into()))?;
        Ok(Space { params: self.params.clone(), input: Some(self.output.clone()), output: input })
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.params.is_empty() {
            write!(f, "[{}] -> ", self.params.join(", "))?;
        }
        match &self.input {
            Some(i) => write!(f, "{{ {} -> {} }}", i, self.output),
            None => write!(f, "{{ {} }}", self.output),
        }
    }
}
