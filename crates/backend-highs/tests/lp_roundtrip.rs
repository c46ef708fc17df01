//! polyalloc's CPLEX LP export, read back by a real solver: HiGHS's own LP reader
//! (through its C API) must load every exported model and find the optimum polyalloc's
//! own solve finds. This is what makes `--dump-lp` files usable in other solvers.
#![cfg(feature = "highs")]

use polyalloc_backend_highs::HighsSolver;
use polyalloc_ilp::{Cmp, LinExpr, Model, Sense, SolveOptions, Solver};
use std::ffi::CString;

fn objective_of_lp_file(text: &str, tag: &str) -> (i32, f64) {
    let path = std::env::temp_dir().join(format!("polyalloc-lp-roundtrip-{}-{tag}.lp", std::process::id()));
    std::fs::write(&path, text).expect("write LP file");
    let cpath = CString::new(path.to_string_lossy().as_bytes()).expect("path");
    let flag = CString::new("output_flag").expect("option");
    // SAFETY: a fresh HiGHS instance, used and destroyed on this thread only.
    let (status, obj) = unsafe {
        let h = highs_sys::Highs_create();
        highs_sys::Highs_setBoolOptionValue(h, flag.as_ptr(), 0);
        let read = highs_sys::Highs_readModel(h, cpath.as_ptr());
        assert!(read == highs_sys::STATUS_OK || read == highs_sys::STATUS_WARNING, "HiGHS could not read:\n{text}");
        highs_sys::Highs_run(h);
        let status = highs_sys::Highs_getModelStatus(h);
        let obj = highs_sys::Highs_getObjectiveValue(h);
        highs_sys::Highs_destroy(h);
        (status as i32, obj)
    };
    let _ = std::fs::remove_file(&path);
    (status, obj)
}

fn models() -> Vec<Model> {
    // A knapsack with binaries and general integers, free and negative variables, and
    // names the LP format does not allow as they are.
    let mut m = Model::new("knapsack");
    let x = m.add_integer("x[0]", Some(0), Some(10));
    let y = m.add_binary("pick y");
    let z = m.add_integer("1z", None, None);
    m.add_constraint("cap: 1", LinExpr::from(x) * 3 + LinExpr::from(y) * 5, Cmp::Le, 17);
    m.add_constraint("z link", LinExpr::from(z) - x, Cmp::Ge, -4);
    m.add_constraint("z top", LinExpr::from(z) + x, Cmp::Le, 6);
    m.set_objective(Sense::Maximize, LinExpr::from(x) * 4 + LinExpr::from(y) * 7 + LinExpr::from(z) * -1);
    let mut e = Model::new("equality");
    let a = e.add_integer("a", None, None);
    let b = e.add_integer("b", Some(-7), Some(7));
    let l = e.add_continuous("lambda", Some(0), None);
    e.add_constraint("eq", LinExpr::from(a) * 3 + LinExpr::from(b) * 5, Cmp::Eq, 1);
    e.add_constraint("lam", LinExpr::from(l) * 2 - a, Cmp::Ge, 3);
    e.set_objective(Sense::Minimize, LinExpr::from(a) + l);
    vec![m, e]
}

#[test]
fn exported_models_are_read_by_highs_with_the_same_optimum() {
    for (k, m) in models().into_iter().enumerate() {
        let ours = HighsSolver.solve(&m, &SolveOptions::default()).expect("solves");
        let (status, obj) = objective_of_lp_file(&m.to_lp_string(), &k.to_string());
        assert_eq!(status, highs_sys::MODEL_STATUS_OPTIMAL, "{}", m.to_lp_string());
        assert!((obj - ours.objective()).abs() < 1e-6, "{}: LP file {obj}, model {}", m.name(), ours.objective());
    }
}
