//! polyalloc's [`Model`] in good_lp's modelling types.

use good_lp::variable::UnsolvedProblem;
use good_lp::{variable, Constraint, Expression, ProblemVariables, Variable};
use polyalloc_ilp::{Cmp, Model, Sense};

/// How to translate.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Translation {
    /// Bound `±b` for every infinite bound of an integer variable.
    pub artificial_bound: Option<i64>,
    /// Drop the objective (a feasibility solve, which cannot be unbounded).
    pub zero_objective: bool,
}

/// A model ready for a good_lp solver: the problem (variables, objective, sense), the
/// rows, and the good_lp handle of every polyalloc variable, in model order.
pub(crate) struct Translated {
    pub problem: UnsolvedProblem,
    pub constraints: Vec<Constraint>,
    pub handles: Vec<Variable>,
}

/// Translates `model`. Coefficients and bounds are `i64`, passed as `f64` like every
/// backend does; the answer is checked exactly in any case.
pub(crate) fn translate(model: &Model, how: Translation) -> Translated {
    let mut vars = ProblemVariables::new();
    let handles: Vec<Variable> = model
        .vars()
        .iter()
        .map(|v| {
            let integral = v.kind.is_integral();
            let art = how.artificial_bound.filter(|_| integral);
            let lower = v.lower.or(art.map(|b| -b));
            let upper = v.upper.or(art);
            let mut def = variable();
            if integral {
                def = def.integer();
            }
            if let Some(l) = lower {
                def = def.min(l as f64);
            }
            if let Some(u) = upper {
                def = def.max(u as f64);
            }
            vars.add(def)
        })
        .collect();
    let mut objective = Expression::with_capacity(model.objective().terms().len());
    if !how.zero_objective {
        for (v, c) in model.objective().terms() {
            objective.add_mul(c as f64, handles[v.index()]);
        }
    }
    let problem = match model.sense() {
        Sense::Minimize => vars.minimise(objective),
        Sense::Maximize => vars.maximise(objective),
    };
    let constraints: Vec<Constraint> = model
        .constraints()
        .iter()
        .map(|c| {
            let mut lhs = Expression::with_capacity(c.expr.terms().len());
            for (v, a) in c.expr.terms() {
                lhs.add_mul(a as f64, handles[v.index()]);
            }
            let rhs = c.rhs as f64;
            match c.cmp {
                Cmp::Le => lhs.leq(rhs),
                Cmp::Ge => lhs.geq(rhs),
                Cmp::Eq => lhs.eq(rhs),
            }
        })
        .collect();
    Translated { problem, constraints, handles }
}
