//! The method `schedule` as the registry sees it: its targets, when it does not apply,
//! how a malformed `pugh` section is reported, and its typed details.

use polyalloc_alloc::{Input, Method, MethodError, Order};
use polyalloc_backend_microlp::MicrolpSolver;
use polyalloc_sched::{ScheduleDetails, ScheduleMethod};
use polyalloc_suite::Example;
use serde_json::Value;
use std::path::Path;

fn file(id: &str) -> Value {
    let path = polyalloc_suite::default_dir().join(format!("{id}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn input(v: &Value) -> Input {
    let path = format!("{}.json", v["id"].as_str().unwrap());
    Input::new(Example::from_str(&v.to_string(), Path::new(&path)).unwrap())
}

#[test]
fn targets_are_the_scheduling_runs() {
    // Appendix 5 gives final schedules with broadcasts respected and ignored.
    assert_eq!(ScheduleMethod.targets(&input(&file("pugh-givens-qr"))).unwrap(), ["broadcasts-respected", "-"]);
    assert_eq!(ScheduleMethod.targets(&input(&file("pugh-example2"))).unwrap(), ["-"]);
}

#[test]
fn not_applicable_without_program_or_instances() {
    let na = |v: &Value| matches!(ScheduleMethod.targets(&input(v)), Err(MethodError::NotApplicable(_)));
    assert!(na(&file("smo-produce-consume")));
    let mut v = file("pugh-example1");
    v["pugh"].as_object_mut().unwrap().remove("execution");
    assert!(na(&v));
    // A bench-suite file without instances is refused when read; an example built
    // otherwise (a JSCoP without parameter values) reaches the method without them.
    let mut v = file("pugh-example1");
    v["instances"] = Value::Array(vec![]);
    assert!(Example::from_str(&v.to_string(), Path::new("pugh-example1.json")).is_err());
    let mut ex = input(&file("pugh-example1")).example;
    ex.instances.clear();
    assert!(matches!(ScheduleMethod.targets(&Input::new(ex)), Err(MethodError::NotApplicable(_))));
}

#[test]
fn malformed_sections_name_the_item() {
    let mut v = file("pugh-example1");
    v["pugh"]["dependences"][2]["kind"] = Value::String("flow".into());
    match ScheduleMethod.targets(&input(&v)) {
        Err(MethodError::BadInput(m)) => assert!(m.contains("pugh.dependences[2]") && m.contains("flow"), "{m}"),
        other => panic!("{other:?}"),
    }
    let mut v = file("pugh-example1");
    v["pugh"]["execution"]["statements"]["s2"]["reads"][1] = Value::String("[k, n] -> { s2[i] -> B[i] }".into());
    match ScheduleMethod.targets(&input(&v)) {
        Err(MethodError::BadInput(m)) => assert!(m.contains("pugh.execution.statements.s2"), "{m}"),
        other => panic!("{other:?}"),
    }
}

/// Without the paper's table the dependences are computed from the program (Sec. 3),
/// and Example 1 still gets the paper's schedule (Sec. 4: T1 = i + k + 1/2, T2 = i + j).
#[test]
fn runs_from_the_program_alone() {
    let mut v = file("pugh-example1");
    v["pugh"].as_object_mut().unwrap().remove("dependences");
    let out = ScheduleMethod.run(&input(&v), "-", &MicrolpSolver).unwrap();
    assert!(out.mapping.is_none() && out.obligations.is_empty());
    assert!(matches!(out.executions[0].order, Order::Time(_)));
    assert!(matches!(out.executions[1].order, Order::Trace(_)));
    let d = ScheduleDetails::from_details(&out.details).unwrap();
    assert_eq!(d.dependences, "program");
    assert_eq!(d.schedules["s1"], "i + k + 1/2");
    assert_eq!(d.schedules["s2"], "i + j");
    assert_eq!(d.scale, 2);
    assert_eq!(d.schedule_isl, "[k, n] -> { s1[i] -> [2*i + 2*k + 1]; s2[i, j] -> [2*i + 2*j] }");
    assert!(matches!(ScheduleMethod.run(&input(&v), "broadcasts-respected", &MicrolpSolver), Err(MethodError::NotApplicable(_))));
}
