//! The exact check, LP export, the lexicographic driver and the recording wrapper,
//! exercised through a scripted fake backend that returns chosen points.

use polyalloc_ilp::*;
use std::sync::Mutex;

/// A backend that returns pre-scripted answers, to test what `Solver::solve` does with
/// solver output independently of any real solver.
struct Scripted {
    answers: Mutex<Vec<Result<RawSolution, SolveError>>>,
}

impl Scripted {
    fn new(answers: Vec<Result<RawSolution, SolveError>>) -> Self {
        Scripted { answers: Mutex::new(answers.into_iter().rev().collect()) }
    }
}

impl Solver for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }
    fn solve_raw(&self, _: &Model, _: &SolveOptions) -> Result<RawSolution, SolveError> {
        self.answers.lock().unwrap().pop().expect("script exhausted")
    }
}

fn optimal(values: Vec<f64>) -> Result<RawSolution, SolveError> {
    Ok(RawSolution { status: RawStatus::Optimal, values })
}

fn small_model() -> (Model, VarId, VarId) {
    let mut m = Model::new("small");
    let x = m.add_integer("x", Some(-5), Some(5));
    let y = m.add_integer("y", None, None);
    m.add_constraint("eq", LinExpr::from(x) * 3 + LinExpr::from(y) * 5, Cmp::Eq, 1);
    m.set_objective(Sense::Minimize, LinExpr::from(x) + 7);
    (m, x, y)
}

#[test]
fn near_integers_are_rounded_and_checked_exactly() {
    let (m, x, y) = small_model();
    let s = Scripted::new(vec![optimal(vec![1.99999975, -1.0000000000000004])]);
    let sol = s.solve(&m, &SolveOptions::default()).expect("valid point");
    assert_eq!(sol.int_value(x), 2);
    assert_eq!(sol.int_value(y), -1);
    assert_eq!(sol.objective_exact(), Some(9)); // objective constant included
    assert!(sol.is_exact());
    assert_eq!(sol.status(), SolutionStatus::Optimal);
}

#[test]
fn a_point_violating_a_row_after_rounding_is_an_error_naming_the_row() {
    let (m, _, _) = small_model();
    // 3*2 + 5*(-1) = 1 holds; 3*1 + 5*(-1) = -2 does not.
    let s = Scripted::new(vec![optimal(vec![1.0000001, -0.9999999])]);
    let err = s.solve(&m, &SolveOptions::default()).expect_err("must fail");
    match &err {
        SolveError::Verification { backend, violation: Violation::Constraint { name, lhs, exact, .. } } => {
            assert_eq!(backend, "scripted");
            assert_eq!(name, "eq");
            assert_eq!(lhs, "-2");
            assert!(*exact);
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(err.to_string().contains("`eq`"), "{err}");
}

#[test]
fn non_integral_values_bounds_and_nan_are_rejected() {
    let (m, _, _) = small_model();
    let s = Scripted::new(vec![optimal(vec![1.5, 0.0]), optimal(vec![7.0, -4.0]), optimal(vec![f64::NAN, 0.0]), optimal(vec![1.0])]);
    let o = SolveOptions::default();
    assert!(matches!(s.solve(&m, &o), Err(SolveError::Verification { violation: Violation::NotIntegral { .. }, .. })));
    assert!(matches!(s.solve(&m, &o), Err(SolveError::Verification { violation: Violation::Bound { .. }, .. })));
    assert!(matches!(s.solve(&m, &o), Err(SolveError::Verification { violation: Violation::NotFinite { .. }, .. })));
    assert!(matches!(s.solve(&m, &o), Err(SolveError::Verification { violation: Violation::Length { expected: 2, got: 1 }, .. })));
}

#[test]
fn statuses_pass_through_unchanged() {
    let (m, _, _) = small_model();
    let s = Scripted::new(vec![
        Err(SolveError::Infeasible),
        Err(SolveError::Unbounded),
        Err(SolveError::TimeLimitNoIncumbent),
        Ok(RawSolution { status: RawStatus::TimeLimit, values: vec![2.0, -1.0] }),
    ]);
    let o = SolveOptions::default();
    assert_eq!(s.solve(&m, &o).unwrap_err(), SolveError::Infeasible);
    assert_eq!(s.solve(&m, &o).unwrap_err(), SolveError::Unbounded);
    assert_eq!(s.solve(&m, &o).unwrap_err(), SolveError::TimeLimitNoIncumbent);
    assert_eq!(s.solve(&m, &o).unwrap().status(), SolutionStatus::TimeLimitFeasible);
}

#[test]
fn continuous_rows_are_checked_with_tolerance_and_flagged_inexact() {
    let mut m = Model::new("mixed");
    let x = m.add_continuous("x", Some(0), None);
    let n = m.add_integer("n", Some(0), Some(3));
    m.add_constraint("r", LinExpr::from(x) * 3 - LinExpr::from(n), Cmp::Ge, 1);
    let s = Scripted::new(vec![optimal(vec![1.0 / 3.0, 0.0]), optimal(vec![0.3, 0.0])]);
    let sol = s.solve(&m, &SolveOptions::default()).expect("within tolerance");
    assert!(!sol.is_exact());
    assert!(matches!(
        s.solve(&m, &SolveOptions::default()),
        Err(SolveError::Verification { violation: Violation::Constraint { exact: false, .. }, .. })
    ));
}

#[test]
fn lexicographic_driver_fixes_each_optimum() {
    let (m, x, y) = small_model();
    // Stage 1 minimises x, stage 2 minimises -y: the fake returns the stage answers; the
    // driver must reject a stage-2 answer that breaks the fixed stage-1 optimum.
    let s = Scripted::new(vec![optimal(vec![-3.0, 2.0]), optimal(vec![2.0, -1.0])]);
    let err = s.lex_minimize(&m, &[LinExpr::from(x), -LinExpr::from(y)], &SolveOptions::default()).expect_err("stage 2 violates lex_fix_0");
    match err {
        SolveError::Verification { violation: Violation::Constraint { name, .. }, .. } => assert_eq!(name, "lex_fix_0"),
        other => panic!("unexpected {other:?}"),
    }
    let s = Scripted::new(vec![optimal(vec![-3.0, 2.0]), optimal(vec![-3.0, 2.0])]);
    let l = s.lex_minimize(&m, &[LinExpr::from(x), -LinExpr::from(y)], &SolveOptions::default()).unwrap();
    assert_eq!(l.optima, vec![-3, -2]);
    assert_eq!(l.stages.len(), 2);
}

#[test]
fn lexicographic_objectives_must_be_integer() {
    let mut m = Model::new("lexreal");
    let r = m.add_continuous("r", Some(0), Some(1));
    let s = Scripted::new(vec![]);
    let err = s.lex_minimize(&m, &[LinExpr::from(r)], &SolveOptions::default()).unwrap_err();
    assert!(matches!(err, SolveError::InvalidModel { .. }), "{err}");
    let err = s.lex_minimize(&m, &[], &SolveOptions::default()).unwrap_err();
    assert!(matches!(err, SolveError::InvalidModel { .. }), "{err}");
}

#[test]
fn lp_export_has_every_section_and_sanitised_unique_names() {
    let mut m = Model::new("export");
    let a = m.add_integer("u[0]", Some(-3), Some(4));
    let b = m.add_integer("u[1]", None, None);
    let c = m.add_binary("delta 1");
    let d = m.add_continuous("lambda", Some(0), None);
    let e = m.add_integer("1st", Some(2), Some(2));
    m.add_constraint("farkas: i", LinExpr::from(a) * 2 - LinExpr::from(b) + LinExpr::from(d) * -1, Cmp::Ge, -4);
    m.add_constraint("pick", LinExpr::from(c) + LinExpr::from(e), Cmp::Eq, 3);
    m.set_objective(Sense::Minimize, LinExpr::from(a) * 3 + LinExpr::from(c) + 5);
    let lp = m.to_lp_string();
    let expected = "\\ polyalloc model `export`: 5 variables, 2 constraints\n\
\\ objective constant: 5\n\
Minimize\n obj: 3 u_0_ + delta_1\n\
Subject To\n farkas__i: 2 u_0_ - u_1_ - lambda >= -4\n pick: delta_1 + x4_1st = 3\n\
Bounds\n -3 <= u_0_ <= 4\n u_1_ free\n 0 <= lambda <= +inf\n x4_1st = 2\n\
General\n u_0_ u_1_ x4_1st\n\
Binary\n delta_1\n\
End\n";
    assert_eq!(lp, expected);
    // Names that collide after sanitising are made unique.
    let mut m = Model::new("dup");
    m.add_integer("a b", Some(0), Some(1));
    m.add_integer("a_b", Some(0), Some(1));
    let lp = m.to_lp_string();
    assert!(lp.contains("a_b#1"), "{lp}");
}

#[test]
fn recording_counts_and_dumps_models() {
    let (m, _, _) = small_model();
    let dir = std::env::temp_dir().join(format!("polyalloc-ilp-dump-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rec = Recording::new(Scripted::new(vec![optimal(vec![2.0, -1.0]), Err(SolveError::Infeasible)])).with_dump_dir(&dir);
    rec.solve(&m, &SolveOptions::default()).unwrap();
    rec.solve(&m, &SolveOptions::default()).unwrap_err();
    let recs = rec.records();
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0].outcome, "optimal");
    assert_eq!(recs[1].outcome, "the model is infeasible");
    assert_eq!((recs[0].num_vars, recs[0].num_constraints, recs[0].num_integer_vars), (2, 1, 2));
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(files.len(), 2, "{files:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn registry_selects_and_reports_unknown_names() {
    let mut r = Registry::new();
    r.register("scripted", "test", || Ok(Box::new(Scripted::new(vec![]))));
    r.register("other", "test", || Ok(Box::new(Scripted::new(vec![]))));
    assert_eq!(r.default_name(), Some("scripted"));
    assert_eq!(r.select("all").unwrap(), vec!["scripted", "other"]);
    assert_eq!(r.select("other, scripted").unwrap(), vec!["other", "scripted"]);
    let e = r.select("scripted,nope").unwrap_err();
    assert_eq!(e.to_string(), "unknown backend `nope`; compiled in: scripted, other");
    assert_eq!(r.create("scripted").unwrap().name(), "scripted");
    assert!(r.create("nope").is_err());
}

#[test]
fn model_building_with_foreign_variables_is_an_error() {
    let mut big = Model::new("big");
    big.add_integer("a", None, None);
    let b = big.add_integer("b", None, None);
    let mut small = Model::new("small");
    let err = small.try_add_constraint("c", LinExpr::from(b), Cmp::Le, 0).unwrap_err();
    assert!(matches!(err, ModelError::ForeignVariable { index: 1, count: 0, .. }));
}
