//! The conformance suite: small models with answers derived by hand, run against every
//! compiled-in backend by `tests/conformance.rs` and timed by `benches/backends.rs`.
//!
//! Each case says what a correct backend must answer: an exact optimum (the objective
//! of the verified point), a faithful error status, or a time-limit status.

use polyalloc_ilp::{Cmp, LinExpr, Model, Sense, VarId};
use std::time::Duration;

/// What a backend must answer on a case.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// Proven optimal with this exact objective value.
    Optimum(i128),
    /// Proven optimal with this objective value (model with continuous variables).
    OptimumApprox(f64),
    /// Lexicographic optima of [`Case::lex`] objectives, in order.
    LexOptima(Vec<i128>),
    Infeasible,
    Unbounded,
    /// Stopped by the time limit (with or without an incumbent).
    TimeLimit,
}

/// One conformance case.
pub struct Case {
    pub name: &'static str,
    pub model: Model,
    /// Objectives for a lexicographic solve (empty: a plain solve).
    pub lex: Vec<LinExpr>,
    pub time_limit: Option<Duration>,
    pub expected: Expected,
}

fn e(v: VarId, c: i64) -> LinExpr {
    LinExpr::term(v, c)
}

/// 0/1 knapsack: max 10a + 13b + 7c + 8d, 4a + 6b + 3c + 5d <= 10. By enumeration of
/// the feasible pairs ({a,b}: 23, {b,c}: 20, {a,d}: 18, {a,c}: 17, {c,d}: 15) and no
/// feasible triple, the optimum is 23.
pub fn knapsack_binary() -> Case {
    let mut m = Model::new("knapsack-binary");
    let v: Vec<VarId> = ["a", "b", "c", "d"].iter().map(|n| m.add_binary(*n)).collect();
    m.add_constraint("weight", e(v[0], 4) + e(v[1], 6) + e(v[2], 3) + e(v[3], 5), Cmp::Le, 10);
    m.set_objective(Sense::Maximize, e(v[0], 10) + e(v[1], 13) + e(v[2], 7) + e(v[3], 8));
    Case { name: "knapsack-binary", model: m, lex: vec![], time_limit: None, expected: Expected::Optimum(23) }
}

/// Chvátal's LP (Linear Programming, 1983, ch. 2) with integer variables: max 5x + 4y + 3z,
/// 2x + 3y + z <= 5, 4x + y + 2z <= 11, 3x + 4y + 2z <= 8; its LP optimum (2, 0, 1) is
/// integral, so the integer optimum is 13.
pub fn knapsack_general() -> Case {
    let mut m = Model::new("knapsack-general");
    let x = m.add_integer("x", Some(0), None);
    let y = m.add_integer("y", Some(0), None);
    let z = m.add_integer("z", Some(0), None);
    m.add_constraint("r1", e(x, 2) + e(y, 3) + e(z, 1), Cmp::Le, 5);
    m.add_constraint("r2", e(x, 4) + e(y, 1) + e(z, 2), Cmp::Le, 11);
    m.add_constraint("r3", e(x, 3) + e(y, 4) + e(z, 2), Cmp::Le, 8);
    m.set_objective(Sense::Maximize, e(x, 5) + e(y, 4) + e(z, 3));
    Case { name: "knapsack-general", model: m, lex: vec![], time_limit: None, expected: Expected::Optimum(13) }
}

/// Free (negative) integers in an equality: 3x + 5y = 1, -7 <= y <= 7, x free, min x.
/// Solutions are x = 2 + 5k, y = -1 - 3k; the bounds on y give k in -2..=2, so the
/// minimum is x = -8 (y = 5).
pub fn equality_free_integers() -> Case {
    let mut m = Model::new("equality-free-integers");
    let x = m.add_integer("x", None, None);
    let y = m.add_integer("y", Some(-7), Some(7));
    m.add_constraint("eq", e(x, 3) + e(y, 5), Cmp::Eq, 1);
    m.set_objective(Sense::Minimize, LinExpr::from(x));
    Case { name: "equality-free-integers", model: m, lex: vec![], time_limit: None, expected: Expected::Optimum(-8) }
}

/// A model whose LP optimum is fractional: max y, -x + y <= 1, 3x + 2y <= 12,
/// 2x + 3y <= 12, x, y >= 0. The LP optimum is (2.4, 2.4); the integer optimum is y = 2
/// (at (1, 2) or (2, 2): y = 3 would need x >= 2 and 3x <= 6 and 2x <= 3).
pub fn fractional_lp_optimum() -> Case {
    let mut m = Model::new("fractional-lp-optimum");
    let x = m.add_integer("x", Some(0), None);
    let y = m.add_integer("y", Some(0), None);
    m.add_constraint("a", e(x, -1) + e(y, 1), Cmp::Le, 1);
    m.add_constraint("b", e(x, 3) + e(y, 2), Cmp::Le, 12);
    m.add_constraint("c", e(x, 2) + e(y, 3), Cmp::Le, 12);
    m.set_objective(Sense::Maximize, LinExpr::from(y));
    Case { name: "fractional-lp-optimum", model: m, lex: vec![], time_limit: None, expected: Expected::Optimum(2) }
}

/// A pure LP with continuous variables: min x + y, x + 2y >= 3, 3x + y >= 4: both rows
/// are tight at the optimum (1, 1), objective 2.
pub fn continuous_lp() -> Case {
    let mut m = Model::new("continuous-lp");
    let x = m.add_continuous("x", Some(0), None);
    let y = m.add_continuous("y", Some(0), None);
    m.add_constraint("a", e(x, 1) + e(y, 2), Cmp::Ge, 3);
    m.add_constraint("b", e(x, 3) + e(y, 1), Cmp::Ge, 4);
    m.set_objective(Sense::Minimize, e(x, 1) + e(y, 1));
    Case { name: "continuous-lp", model: m, lex: vec![], time_limit: None, expected: Expected::OptimumApprox(2.0) }
}

/// Infeasible rows: x + y >= 5 and x + y <= 4.
pub fn infeasible_rows() -> Case {
    let mut m = Model::new("infeasible-rows");
    let x = m.add_integer("x", Some(0), Some(10));
    let y = m.add_integer("y", Some(0), Some(10));
    m.add_constraint("lo", e(x, 1) + e(y, 1), Cmp::Ge, 5);
    m.add_constraint("hi", e(x, 1) + e(y, 1), Cmp::Le, 4);
    m.set_objective(Sense::Minimize, LinExpr::from(x));
    Case { name: "infeasible-rows", model: m, lex: vec![], time_limit: None, expected: Expected::Infeasible }
}

/// Integer-infeasible although the LP is feasible: 2x - 2y = 1.
pub fn infeasible_parity() -> Case {
    let mut m = Model::new("infeasible-parity");
    let x = m.add_integer("x", Some(-20), Some(20));
    let y = m.add_integer("y", Some(-20), Some(20));
    m.add_constraint("odd", e(x, 2) + e(y, -2), Cmp::Eq, 1);
    m.set_objective(Sense::Minimize, LinExpr::from(x));
    Case { name: "infeasible-parity", model: m, lex: vec![], time_limit: None, expected: Expected::Infeasible }
}

/// Unbounded MIP: max x + y, x - y <= 1, x, y >= 0 integers (no upper bounds).
pub fn unbounded_mip() -> Case {
    let mut m = Model::new("unbounded-mip");
    let x = m.add_integer("x", Some(0), None);
    let y = m.add_integer("y", Some(0), None);
    m.add_constraint("d", e(x, 1) + e(y, -1), Cmp::Le, 1);
    m.set_objective(Sense::Maximize, e(x, 1) + e(y, 1));
    Case { name: "unbounded-mip", model: m, lex: vec![], time_limit: None, expected: Expected::Unbounded }
}

/// Unbounded LP: min -x - y, x - y <= 1, x, y >= 0 continuous.
pub fn unbounded_lp() -> Case {
    let mut m = Model::new("unbounded-lp");
    let x = m.add_continuous("x", Some(0), None);
    let y = m.add_continuous("y", Some(0), None);
    m.add_constraint("d", e(x, 1) + e(y, -1), Cmp::Le, 1);
    m.set_objective(Sense::Minimize, e(x, -1) + e(y, -1));
    Case { name: "unbounded-lp", model: m, lex: vec![], time_limit: None, expected: Expected::Unbounded }
}

/// Lexicographic: x, y, z in 0..=5, x + y + z >= 7, 2y - z >= -1; lexmin (x, y, -z).
/// x = 0 is possible (y = 2, z = 5); then y + z >= 7 with z <= 5 forces y >= 2, and
/// y = 2 allows z = 5 (2*2 - 5 = -1); then -z is minimal at z = 5. Optima: 0, 2, -5.
pub fn lexicographic() -> Case {
    let mut m = Model::new("lexicographic");
    let x = m.add_integer("x", Some(0), Some(5));
    let y = m.add_integer("y", Some(0), Some(5));
    let z = m.add_integer("z", Some(0), Some(5));
    m.add_constraint("sum", e(x, 1) + e(y, 1) + e(z, 1), Cmp::Ge, 7);
    m.add_constraint("link", e(y, 2) + e(z, -1), Cmp::Ge, -1);
    Case {
        name: "lexicographic",
        model: m,
        lex: vec![LinExpr::from(x), LinExpr::from(y), e(z, -1)],
        time_limit: None,
        expected: Expected::LexOptima(vec![0, 2, -5]),
    }
}

/// A market-split instance (Cornuéjols and Dawande, 1998): 4 equality rows over 36
/// binaries with pseudo-random coefficients in 0..100 and right-hand sides half the row
/// sums, in the slack form min sum(s+ + s-). Such instances are notoriously hard for
/// branch and bound; with a 0.5 s limit every backend must report a time-limit status.
pub fn market_split_time_limited() -> Case {
    let (rows, cols) = (4usize, 36usize);
    let mut m = Model::new("market-split");
    let x: Vec<VarId> = (0..cols).map(|j| m.add_binary(format!("x{j}"))).collect();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % 100) as i64
    };
    let mut obj = LinExpr::new();
    for i in 0..rows {
        let coefs: Vec<i64> = (0..cols).map(|_| next()).collect();
        let rhs = coefs.iter().sum::<i64>() / 2;
        let sp = m.add_integer(format!("sp{i}"), Some(0), Some(10_000));
        let sm = m.add_integer(format!("sm{i}"), Some(0), Some(10_000));
        let mut row: LinExpr = x.iter().zip(&coefs).map(|(&v, &c)| e(v, c)).sum();
        row = row + e(sp, 1) + e(sm, -1);
        m.add_constraint(format!("split{i}"), row, Cmp::Eq, rhs);
        obj = obj + e(sp, 1) + e(sm, 1);
    }
    m.set_objective(Sense::Minimize, obj);
    Case { name: "market-split", model: m, lex: vec![], time_limit: Some(Duration::from_millis(500)), expected: Expected::TimeLimit }
}

/// Every case, in a stable order.
pub fn all_cases() -> Vec<Case> {
    vec![
        knapsack_binary(),
        knapsack_general(),
        equality_free_integers(),
        fractional_lp_optimum(),
        continuous_lp(),
        infeasible_rows(),
        infeasible_parity(),
        unbounded_mip(),
        unbounded_lp(),
        lexicographic(),
        market_split_time_limited(),
    ]
}

/// What a solver answered on a case, in a form comparable across backends.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Optimum(i128),
    OptimumApprox(f64),
    LexOptima(Vec<i128>),
    Infeasible,
    Unbounded,
    TimeLimit,
    Other(String),
}

/// Runs one case on one solver.
pub fn run_case(solver: &dyn polyalloc_ilp::Solver, case: &Case) -> Answer {
    use polyalloc_ilp::{LexSolve, SolutionStatus, SolveError, SolveOptions};
    let opts = SolveOptions { time_limit: case.time_limit, ..SolveOptions::default() };
    if !case.lex.is_empty() {
        return match solver.lex_minimize(&case.model, &case.lex, &opts) {
            Ok(l) => Answer::LexOptima(l.optima),
            Err(e) => Answer::Other(e.to_string()),
        };
    }
    match solver.solve(&case.model, &opts) {
        Ok(s) => match s.status() {
            SolutionStatus::Optimal => match s.objective_exact() {
                Some(v) => Answer::Optimum(v),
                None => Answer::OptimumApprox(s.objective()),
            },
            SolutionStatus::TimeLimitFeasible => Answer::TimeLimit,
            SolutionStatus::GapLimitFeasible => Answer::Other("gap limit".into()),
        },
        Err(SolveError::Infeasible) => Answer::Infeasible,
        Err(SolveError::Unbounded) => Answer::Unbounded,
        Err(SolveError::TimeLimitNoIncumbent) => Answer::TimeLimit,
        Err(e) => Answer::Other(e.to_string()),
    }
}

/// True when `answer` is what `expected` asks for.
pub fn matches(expected: &Expected, answer: &Answer) -> bool {
    match (expected, answer) {
        (Expected::Optimum(a), Answer::Optimum(b)) => a == b,
        (Expected::OptimumApprox(a), Answer::OptimumApprox(b)) => (a - b).abs() <= 1e-6 * a.abs().max(1.0),
        (Expected::LexOptima(a), Answer::LexOptima(b)) => a == b,
        (Expected::Infeasible, Answer::Infeasible) => true,
        (Expected::Unbounded, Answer::Unbounded) => true,
        (Expected::TimeLimit, Answer::TimeLimit) => true,
        _ => false,
    }
}
