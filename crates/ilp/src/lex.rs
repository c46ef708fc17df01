//! Lexicographic minimisation by successive solves (a capability of every [`Solver`]).

use crate::expr::LinExpr;
use crate::incremental::open_session;
use crate::model::{Cmp, Model, Sense};
use crate::solve::{Solution, SolveError, SolveOptions, Solver};

/// The result of a lexicographic solve.
#[derive(Clone, Debug)]
pub struct LexSolution {
    /// The solution of the last stage (it attains every optimum found before it).
    pub solution: Solution,
    /// The exact optimum of each objective, in priority order.
    pub optima: Vec<i128>,
    /// Every stage's solution, in order (for statistics).
    pub stages: Vec<Solution>,
}

/// Lexicographic minimisation over a list of objectives, for any [`Solver`].
///
/// Stage k minimises objective k subject to the model and to `obj_j = opt_j` for every
/// earlier stage j. The fixing equalities are exact because every objective must be a
/// linear form over integer variables with integer coefficients (otherwise the call is
/// an [`SolveError::InvalidModel`]); the exact optimum comes from the verified point,
/// not from the solver's floating-point objective. The model's own objective is ignored.
///
/// The stages solve one model ([`crate::open_session`]): a backend with the
/// [`crate::Incremental`] capability keeps it, changes the objective, adds the fixing
/// row and re-solves from the previous stage's optimum (feasible for the next stage);
/// any other backend rebuilds it for every stage.
pub trait LexSolve: Solver {
    /// Minimises `objectives` lexicographically.
    fn lex_minimize(&self, model: &Model, objectives: &[LinExpr], options: &SolveOptions) -> Result<LexSolution, SolveError> {
        self.lex_minimize_from(model, objectives, options, None)
    }

    /// [`LexSolve::lex_minimize`] with a point of `model` for the first stage to start
    /// from (a backend that cannot use it ignores it; so does this method when its
    /// length is not the number of variables).
    fn lex_minimize_from(
        &self,
        model: &Model,
        objectives: &[LinExpr],
        options: &SolveOptions,
        start: Option<&[f64]>,
    ) -> Result<LexSolution, SolveError> {
        if objectives.is_empty() {
            return Err(SolveError::InvalidModel {
                model: model.name().to_string(),
                message: "lexicographic minimisation needs at least one objective".into(),
            });
        }
        for (k, obj) in objectives.iter().enumerate() {
            if let Some((v, _)) = obj.terms().find(|(v, _)| v.index() >= model.num_vars() || !model.var(*v).kind.is_integral()) {
                return Err(SolveError::InvalidModel {
                    model: model.name().to_string(),
                    message: format!("lexicographic objective {k} involves variable #{} which is not an integer variable of the model", v.index()),
                });
            }
        }
        let mut session = open_session(self, model, options)?;
        let mut optima = Vec::with_capacity(objectives.len());
        let mut stages: Vec<Solution> = Vec::with_capacity(objectives.len());
        for (k, obj) in objectives.iter().enumerate() {
            session.set_objective(Sense::Minimize, obj.clone())?;
            let from = match stages.last() {
                Some(prev) => Some(prev.values()),
                None => start,
            };
            let sol = session.solve(options, from)?;
            let opt = sol.objective_exact().ok_or_else(|| SolveError::InvalidModel {
                model: model.name().to_string(),
                message: format!("objective {k} could not be evaluated exactly"),
            })?;
            let opt_i64 = i64::try_from(opt).map_err(|_| SolveError::InvalidModel {
                model: model.name().to_string(),
                message: format!("optimum {opt} of objective {k} does not fit in 64 bits"),
            })?;
            optima.push(opt);
            stages.push(sol);
            if k + 1 < objectives.len() {
                session.add_constraint(format!("lex_fix_{k}"), obj.clone(), Cmp::Eq, opt_i64)?;
            }
        }
        let solution =
            stages.last().cloned().ok_or_else(|| SolveError::InvalidModel { model: model.name().to_string(), message: "no stage solved".into() })?;
        Ok(LexSolution { solution, optima, stages })
    }
}

impl<S: Solver + ?Sized> LexSolve for S {}
