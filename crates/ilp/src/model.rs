//! The backend-neutral model: variables, constraints, objective.

use crate::expr::{LinExpr, VarId};
use std::fmt;

/// Handle of a constraint in a [`Model`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConstrId(pub(crate) usize);

impl ConstrId {
    /// Index of the constraint in creation order.
    pub fn index(self) -> usize {
        self.0
    }
}

/// The domain of a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// A real variable.
    Continuous,
    /// An integer variable.
    Integer,
    /// A 0/1 variable (an integer variable with bounds `[0, 1]`).
    Binary,
}

impl VarKind {
    /// True for integer and binary variables.
    pub fn is_integral(self) -> bool {
        !matches!(self, VarKind::Continuous)
    }
}

/// A variable: name, kind and integer bounds (`None` is infinite on that side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    pub kind: VarKind,
    pub lower: Option<i64>,
    pub upper: Option<i64>,
}

/// Comparison of a constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Le,
    Ge,
    Eq,
}

impl fmt::Display for Cmp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Cmp::Le => "<=",
            Cmp::Ge => ">=",
            Cmp::Eq => "=",
        })
    }
}

/// A linear constraint `expr cmp rhs`; `expr` has no constant part (it is folded into
/// `rhs` when the constraint is added).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub name: String,
    pub expr: LinExpr,
    pub cmp: Cmp,
    pub rhs: i64,
}

/// Optimisation direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Sense {
    #[default]
    Minimize,
    Maximize,
}

/// Errors found while building a model.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ModelError {
    #[error("model `{model}`: variable index {index} does not belong to this model ({count} variables)")]
    ForeignVariable { model: String, index: usize, count: usize },
    #[error("model `{model}`: integer overflow while building `{what}`")]
    Overflow { model: String, what: String },
}

/// A mixed-integer linear program with exact integer data.
#[derive(Clone, Debug, Default)]
pub struct Model {
    name: String,
    vars: Vec<Variable>,
    constraints: Vec<Constraint>,
    objective: LinExpr,
    sense: Sense,
}

impl Model {
    /// An empty model (minimise 0).
    pub fn new(name: impl Into<String>) -> Self {
        Model { name: name.into(), ..Default::default() }
    }

    /// The model's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Adds a variable of any kind. For [`VarKind::Binary`] the bounds are intersected
    /// with `[0, 1]`.
    pub fn add_var(&mut self, name: impl Into<String>, kind: VarKind, lower: Option<i64>, upper: Option<i64>) -> VarId {
        let (lower, upper) = match kind {
            VarKind::Binary => (Some(lower.map_or(0, |l| l.max(0))), Some(upper.map_or(1, |u| u.min(1)))),
            _ => (lower, upper),
        };
        self.vars.push(Variable { name: name.into(), kind, lower, upper });
        VarId(self.vars.len() - 1)
    }

    /// Adds a continuous variable.
    pub fn add_continuous(&mut self, name: impl Into<String>, lower: Option<i64>, upper: Option<i64>) -> VarId {
        self.add_var(name, VarKind::Continuous, lower, upper)
    }

    /// Adds an integer variable.
    pub fn add_integer(&mut self, name: impl Into<String>, lower: Option<i64>, upper: Option<i64>) -> VarId {
        self.add_var(name, VarKind::Integer, lower, upper)
    }

    /// Adds a binary variable.
    pub fn add_binary(&mut self, name: impl Into<String>) -> VarId {
        self.add_var(name, VarKind::Binary, Some(0), Some(1))
    }

    /// Changes the bounds of a variable.
    pub fn set_bounds(&mut self, var: VarId, lower: Option<i64>, upper: Option<i64>) {
        if let Some(v) = self.vars.get_mut(var.0) {
            v.lower = lower;
            v.upper = upper;
        }
    }

    /// Adds `expr cmp rhs`; the constant part of `expr` is moved to the right-hand side.
    ///
    /// Panics if `expr` mentions a variable of another model or the constant overflows;
    /// use [`Model::try_add_constraint`] when the data comes from user input.
    pub fn add_constraint(&mut self, name: impl Into<String>, expr: LinExpr, cmp: Cmp, rhs: i64) -> ConstrId {
        match self.try_add_constraint(name, expr, cmp, rhs) {
            Ok(id) => id,
            Err(e) => panic!("{e}"),
        }
    }

    /// Checked form of [`Model::add_constraint`].
    pub fn try_add_constraint(&mut self, name: impl Into<String>, mut expr: LinExpr, cmp: Cmp, rhs: i64) -> Result<ConstrId, ModelError> {
        let name = name.into();
        self.check_vars(&expr)?;
        let rhs = rhs.checked_sub(expr.constant_part()).ok_or_else(|| ModelError::Overflow { model: self.name.clone(), what: name.clone() })?;
        expr.set_constant(0);
        self.constraints.push(Constraint { name, expr, cmp, rhs });
        Ok(ConstrId(self.constraints.len() - 1))
    }

    /// Sets the objective (its constant part is kept and reported in objective values).
    pub fn set_objective(&mut self, sense: Sense, expr: LinExpr) {
        if let Err(e) = self.check_vars(&expr) {
            panic!("{e}");
        }
        self.sense = sense;
        self.objective = expr;
    }

    fn check_vars(&self, expr: &LinExpr) -> Result<(), ModelError> {
        for (v, _) in expr.terms() {
            if v.0 >= self.vars.len() {
                return Err(ModelError::ForeignVariable { model: self.name.clone(), index: v.0, count: self.vars.len() });
            }
        }
        Ok(())
    }

    /// All variables, indexed by [`VarId::index`].
    pub fn vars(&self) -> &[Variable] {
        &self.vars
    }

    /// One variable.
    pub fn var(&self, v: VarId) -> &Variable {
        &self.vars[v.0]
    }

    /// Handles of all variables in order.
    pub fn var_ids(&self) -> impl Iterator<Item = VarId> {
        (0..self.vars.len()).map(VarId)
    }

    /// All constraints.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// The objective expression.
    pub fn objective(&self) -> &LinExpr {
        &self.objective
    }

    /// The optimisation direction.
    pub fn sense(&self) -> Sense {
        self.sense
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.vars.len()
    }

    /// Number of constraints.
    pub fn num_constraints(&self) -> usize {
        self.constraints.len()
    }

    /// True when every variable is integer or binary.
    pub fn is_pure_integer(&self) -> bool {
        self.vars.iter().all(|v| v.kind.is_integral())
    }

    /// True when some variable is integer or binary.
    pub fn has_integer_vars(&self) -> bool {
        self.vars.iter().any(|v| v.kind.is_integral())
    }
}
