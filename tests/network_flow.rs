//! Paper Song, Wang, Li 2005: loop shifting, fusion and array contraction as a
//! min-cost network flow. Expected values come from the paper (Sec. 1 / Fig. 1 for
//! Example 1; Sec. 4.1-4.5 and Fig. 8 for Example 2), from the bench-suite files'
//! independently derived data (`simplified`, `derived_optimum`, computed by a separate
//! script, bench-suite/README.md section 10), or from brute force in this file. The
//! method runs through the facade (`polyalloc::run`): its mappings are checked by the
//! exact checker under the fused schedule and the contracted loops are executed by the
//! one executor of `polyalloc_program`.

use polyalloc::run::{execute, Failure};
use polyalloc::{backend, registry, run, Input, MethodError, RunOptions, Status, Verification};
use polyalloc_alloc::{ExecutionCheck, Order, StoragePlan};
use polyalloc_alloc_flow::algorithm::{self, Node};
use polyalloc_alloc_flow::check::{self, LdgCheck};
use polyalloc_alloc_flow::details::Evidence;
use polyalloc_alloc_flow::method::Prepared;
use polyalloc_alloc_flow::model::FlowProgram;
use polyalloc_alloc_flow::storage::{self, StorageKind};
use polyalloc_alloc_flow::{ilp, solve, vecs, FlowDetails, FlowError, LoopSequence};
use polyalloc_formulation::Polynomial;
use polyalloc_program::exec::Storage as ExecStorage;
use polyalloc_suite::Example;
use std::collections::BTreeMap;

fn load(id: &str) -> (Example, LoopSequence) {
    let path = polyalloc_suite::default_dir().join(format!("{id}.json"));
    let ex = Example::load(&path).expect("bench-suite file");
    let seq = LoopSequence::from_json(&ex.extra["flow"], &ex.params).expect("flow section");
    (ex, seq)
}

fn node(r: &polyalloc_alloc_flow::FlowResult, name: &str) -> usize {
    r.network.names.iter().position(|n| n == name).unwrap_or_else(|| panic!("no node {name}"))
}

/// Sec. 4.1-4.5, worked solution of Example 2 (Fig. 3, Fig. 4).
#[test]
fn example2_reproduces_sec_4_5() {
    let (_, seq) = load("flow-example2");
    let r = solve(&seq).unwrap();
    // Fig. 3(c) (G0): the L-edge L1 -> L3 has distance (0, 0), the M-edge (0, 1) + o.
    assert!(r.g0.l_edges.iter().any(|e| e.from == 0 && e.to == 2 && e.distance == vec![0, 0]));
    assert!(r.g0.m_edges.iter().any(|e| e.from == 0 && e.to == 2 && e.extended == vec![0, 2]));
    assert_eq!(r.g0.l_edges.len(), 4);
    assert_eq!(r.g0.m_edges.len(), 4);
    // Sec. 4.3: z(L1) = z(L2) = (0,0), z(L3) = z(L4) = (1,0), z(L1(1)) = (1,2), z(L2(1)) = (1,1).
    for (name, z) in [("L1", [0, 0]), ("L2", [0, 0]), ("L3", [1, 0]), ("L4", [1, 0]), ("L1(1)", [1, 2]), ("L2(1)", [1, 1])] {
        assert_eq!(r.network.z[node(&r, name)], z.to_vec(), "z({name})");
    }
    // Supplies (Sec. 4.2): h(L1) = h(L2) = 1, sinks -1, L3, L4 0.
    assert_eq!(r.network.supply[node(&r, "L1")], 1);
    assert_eq!(r.network.supply[node(&r, "L1(1)")], -1);
    assert_eq!(r.network.supply[node(&r, "L3")], 0);
    // Step 2: optimal Problem 4 objective (1, 0).
    assert_eq!(r.problem4_objective, vec![1, 0]);
    // Step 3: y = (1, 0) for L1, (0, 0) elsewhere.
    for (v, y) in r.y.iter().enumerate() {
        let expect = if r.network.nodes[v] == Node::Nest(0) { vec![1, 0] } else { vec![0, 0] };
        assert_eq!(*y, expect, "y({})", r.network.names[v]);
    }
    // Step 4: q(L1) = (1,0), q(L2) = (0,0), q(L3) = q(L4) = (1,0), q(L1(1)) = (1,2), q(L2(1)) = (1,1).
    for (name, q) in [("L1", [1, 0]), ("L2", [0, 0]), ("L3", [1, 0]), ("L4", [1, 0]), ("L1(1)", [1, 2]), ("L2(1)", [1, 1])] {
        assert_eq!(r.q[node(&r, name)], q.to_vec(), "q({name})");
    }
    // Step 5: p(L1) = (1,0), p(L2) = (0,0), p(L3) = p(L4) = (1,0), M11 = (0,2), M21 = (1,1).
    assert_eq!(r.shifts, vec![vec![1, 0], vec![0, 0], vec![1, 0], vec![1, 0]]);
    assert_eq!(r.m, vec![vec![0, 2], vec![1, 1]]);
    // Sec. 5 / Fig. 8: ZA1(1:2), ZB1(1:JN).
    let mem = r.memory_per_array(&seq).unwrap();
    assert_eq!(mem["ZA"], Polynomial::parse("2").unwrap());
    assert_eq!(mem["ZB"], Polynomial::parse("JN").unwrap());
    // Steps 1 and 6: Assumption 3 gives (3, 4) < b, and so does the conjunction.
    assert_eq!(r.assumption3.need, vec![3, 4]);
    assert_eq!(r.condition.printed(), "(3, 4) < b");
    // Appendix B: (11) = -(16). With the paper's q, (16) = (1,0) - (1,2) - (1,1) = (-1, -3)
    // (the paper prints (3, 3), see the README's errata).
    assert_eq!(r.problem2_objective, vec![-1, -3]);
    assert_eq!(r.problem1_objective, vec![1, 3]);
}

/// Sec. 1, Fig. 1: L2 right-shifted by one iteration, A replaced by two scalars.
#[test]
fn example1_reproduces_fig1() {
    let (_, seq) = load("flow-example1");
    let r = solve(&seq).unwrap();
    assert_eq!(vecs::sub(&r.shifts[1], &r.shifts[0]).unwrap(), vec![1]);
    assert_eq!(r.m, vec![vec![2]]);
    assert_eq!(r.total_memory(&seq).unwrap(), Polynomial::constant(2));
}

/// G0 equals the `simplified` section of every file (derived by an independent script).
#[test]
fn g0_matches_independent_derivation() {
    for id in ["flow-example2", "flow-ll14", "flow-ll18", "flow-jacobi"] {
        let (ex, seq) = load(id);
        let r = solve(&seq).unwrap();
        let simp = &ex.extra["flow"]["simplified"];
        let name = |i: usize| seq.nests[i].name.clone();
        let mut ours: Vec<String> = r.g0.l_edges.iter().map(|e| format!("{}>{}:{:?}", name(e.from), name(e.to), e.distance)).collect();
        let mut theirs: Vec<String> = simp["l_edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let d: Vec<i64> = e["distance"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
                format!("{}>{}:{:?}", e["from"].as_str().unwrap(), e["to"].as_str().unwrap(), d)
            })
            .collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{id} L-edges");
        let mut ours: Vec<String> =
            r.g0.m_edges.iter().map(|e| format!("{}>{}:{}:{:?}", name(e.from), name(e.to), seq.writes[e.write].id, e.extended)).collect();
        let mut theirs: Vec<String> = simp["m_edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let d: Vec<i64> = e["extended_distance"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
                format!("{}>{}:{}:{:?}", e["from"].as_str().unwrap(), e["to"].as_str().unwrap(), e["write"].as_str().unwrap(), d)
            })
            .collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{id} M-edges");
    }
}

/// Reconstructed Table I benchmarks: total memory and condition equal the files'
/// `derived_optimum` (brute force by an independent script; not paper values).
#[test]
fn table1_benchmarks_match_derived_optimum() {
    for id in ["flow-ll14", "flow-ll18", "flow-jacobi"] {
        let (ex, seq) = load(id);
        let r = solve(&seq).unwrap();
        let d = &ex.extra["flow"]["derived_optimum"];
        let total = Polynomial::parse(d["total_memory"].as_str().unwrap()).unwrap();
        assert_eq!(r.total_memory(&seq).unwrap(), total, "{id}");
        assert_eq!(r.condition.printed(), d["condition"].as_str().unwrap(), "{id}");
    }
}

/// Brute force over the coalesced shifts P_i (Problem 0 with all edges of G, not G0)
/// at small instances: the minimum of sum M equals the flow's sum M . s.
#[test]
fn flow_optimum_equals_brute_force() {
    for (id, inst) in [("flow-example1", vec![("N", 5)]), ("flow-example2", vec![("JN", 6), ("KN", 5)]), ("flow-jacobi", vec![("N", 5)])] {
        let (_, seq) = load(id);
        let r = solve(&seq).unwrap();
        let values: BTreeMap<String, i64> = inst.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        let s = seq.coalescing_at(&values).unwrap();
        let total: i128 = seq.trip_counts_at(&values).unwrap().iter().product();
        let span = (2 * s[0] + 2) as i64;
        let m = seq.nests.len();
        let mut best: Option<i128> = None;
        let mut p = vec![-span; m];
        p[0] = 0;
        'outer: loop {
            let dot = |d: &[i64]| d.iter().zip(&s).map(|(a, b)| *a as i128 * b).sum::<i128>();
            let legal = seq.edges.iter().all(|e| e.from == e.to || p[e.to] as i128 - p[e.from] as i128 + dot(&e.distance) >= 0);
            if legal {
                let mut sum = 0i128;
                for w in 0..seq.writes.len() {
                    let need = seq
                        .edges
                        .iter()
                        .filter(|e| e.write == Some(w))
                        .map(|e| p[e.to] as i128 - p[e.from] as i128 + dot(&e.distance) + dot(e.extension.as_ref().unwrap()))
                        .max()
                        .unwrap();
                    sum += need.min(total); // formula (4)
                }
                best = Some(best.map_or(sum, |b: i128| b.min(sum)));
            }
            let mut k = 1;
            loop {
                if k == m {
                    break 'outer;
                }
                p[k] += 1;
                if p[k] <= span {
                    break;
                }
                p[k] = -span;
                k += 1;
            }
        }
        assert_eq!(best, Some(vecs::dot(&r.problem1_objective, &s).unwrap()), "{id} at {values:?}");
    }
}

/// Problem 1 as an ILP on every compiled-in backend agrees with the flow at every
/// instance of every file (all instances satisfy the run-time condition).
#[test]
fn flow_and_ilp_agree_on_every_backend() {
    for id in ["flow-example1", "flow-example2", "flow-ll14", "flow-ll18", "flow-jacobi"] {
        let (ex, seq) = load(id);
        let r = solve(&seq).unwrap();
        for inst in &ex.instances {
            assert!(r.condition.holds(&seq.trip_counts_at(inst).unwrap()), "{id} {inst:?}");
            let s = seq.coalescing_at(inst).unwrap();
            let expect = vecs::dot(&r.problem1_objective, &s).unwrap();
            for b in polyalloc_tests::backends() {
                let a = ilp::solve(&seq, &r.g0, &s, &*b, None).unwrap();
                assert_eq!(a.objective, expect, "{id} {inst:?} on {}", b.name());
            }
        }
    }
}

fn input(id: &str) -> Input {
    polyalloc::load(&polyalloc::suite_dir().join(format!("{id}.json"))).expect("bench-suite file")
}

fn details(outcome: &polyalloc::Outcome) -> FlowDetails {
    FlowDetails::from_details(&outcome.details).expect("typed flow details")
}

/// Fig. 1, Fig. 3 / Fig. 8, LL18 and Jacobi through the facade: every local array's
/// mapping (Fig. 1's two scalars `A[I mod 2]`, Fig. 8's `ZA1(1:2)` and `ZB1(1:JN)`) is
/// proven valid for its conflict set under the fused schedule, and the shifted, fused,
/// contracted loops (the coalesced loop and the fused nest of Fig. 8, with the
/// linearised storage of Sec. 5 and with the reported mappings) read exactly the values
/// of the original loops at every instance, with `M . s` cells per region.
#[test]
fn contracted_loops_are_verified_and_executed() {
    let flow = registry().get("flow").expect("registered");
    let b = backend("microlp").expect("built-in backend");
    for (id, expect) in [
        ("flow-example1", vec![("A", "A[I mod 2]", "2", StorageKind::Integer)]),
        ("flow-example2", vec![("ZA", "ZA[J mod 2]", "2", StorageKind::Projected), ("ZB", "ZB[(J - K) mod JN]", "JN", StorageKind::Integer)]),
        ("flow-ll18", vec![("ZA", "ZA[J mod 2]", "2", StorageKind::Projected), ("ZB", "ZB[(J - K) mod JN]", "JN", StorageKind::Integer)]),
        ("flow-jacobi", vec![("B", "B[(I - J) mod (N - 1)]", "N - 1", StorageKind::Integer)]),
    ] {
        let input = input(id);
        let targets = flow.targets(&input).expect("applies");
        assert_eq!(targets, expect.iter().map(|e| e.0.to_string()).collect::<Vec<_>>(), "{id}");
        for (array, mapping, size, kind) in expect {
            let v = run(&input, flow, array, &b, RunOptions::default()).unwrap_or_else(|e| panic!("{id} {array}: {e}"));
            let m = v.outcome.mapping.as_ref().expect("a mapping");
            assert_eq!(m.to_string(), mapping, "{id}");
            assert_eq!(v.size.as_ref().map(|p| p.to_string()).as_deref(), Some(size), "{id} {array}");
            let d = details(&v.outcome);
            assert_eq!(d.memory[array], size, "{id}: the mapping has M . s cells");
            assert_eq!(d.storage_kind, Some(kind), "{id} {array}");
            // The exact checker proved it under the fused schedule (for every parameter
            // value where the run-time condition holds).
            assert_eq!(v.verified_under.len(), 1, "{id} {array}");
            assert_eq!(v.verified_under[0].1, Verification::Proven, "{id} {array}");
            // And the facade executed both orders at the 3 instances, with the linearised
            // storage and (when they differ) with the reported mappings.
            let ex = v.execution.as_ref().expect("executed");
            let storages = if kind == StorageKind::Integer && id == "flow-example1" { 1 } else { 2 };
            assert!(ex.identical && ex.instances == 2 * storages * 3, "{id} {array}: {}", ex.summary);
            for label in ["coalesced fused loop (Sec. 3), Sec. 5 linearised storage", "fused nest (Fig. 8), Sec. 5 linearised storage"] {
                assert!(ex.summary.contains(label), "{id}: {}", ex.summary);
            }
            // The ILP cross-check ran at every instance and agrees.
            assert!(d.instances.iter().all(|i| i.ilp.as_ref().is_some_and(|a| a.agrees)), "{id}");
            assert_eq!(v.ilps.iter().filter(|s| s.model == "flow-problem1").count(), 3, "{id}");
        }
    }
}

/// The evidence can fail: one cell fewer than `M . s` for any contracted array is
/// detected by the executor (and refuted by the exact checker), and so is fusion
/// without the shifts whenever shifting is needed (Lemma 2). Bench-suite README:
/// "one fewer fails".
#[test]
fn one_cell_fewer_and_unshifted_fusion_are_detected() {
    let flow = registry().get("flow").expect("registered");
    let b = backend("microlp").expect("built-in backend");
    for (id, inst) in [("flow-example1", vec![("N", 5)]), ("flow-example2", vec![("JN", 6), ("KN", 5)]), ("flow-jacobi", vec![("N", 5)])] {
        let input = input(id);
        let prep = Prepared::new(&input.example).expect("prepared");
        let values: Vec<i64> = prep.seq.params.iter().map(|p| inst.iter().find(|(k, _)| k == p).expect("value").1).collect();
        let fp = prep.model.as_ref().expect("program model");
        let r = &prep.result;
        let check = |storage: ExecStorage, order: Order| ExecutionCheck {
            label: "test".into(),
            program: fp.program.clone(),
            reduction_arrays: Vec::new(),
            order,
            storage: StoragePlan::Fixed(storage),
            instances: vec![values.clone()],
        };
        let linearised = |smaller: Option<&str>| -> ExecStorage {
            prep.storages
                .iter()
                .map(|(a, l)| {
                    let mut st = l.as_ref().expect("storage")[0].clone();
                    if smaller == Some(a.as_str()) {
                        st.modulus = st.modulus.checked_sub(&Polynomial::constant(1)).unwrap();
                    }
                    (a.clone(), st.mapping_at(&prep.seq.params, &values).unwrap())
                })
                .collect()
        };
        let coalesced = Order::Time(fp.coalesced_time(&prep.seq, &r.shifts));
        execute(&[check(linearised(None), coalesced.clone())]).unwrap_or_else(|e| panic!("{id}: {e}"));
        for a in prep.storages.keys() {
            let failure = execute(&[check(linearised(Some(a)), coalesced.clone())]).expect_err("one cell fewer");
            assert!(matches!(failure, Failure::ExecutionDiffers(_)), "{id} {a}: {failure}");
            // The exact checker refutes the reported mapping with one cell fewer too.
            let v = run(&input, flow, a, &b, RunOptions::default()).expect("verified");
            let mut m = v.outcome.mapping.clone().expect("mapping");
            let modulus = m.rows[0].modulus.as_mut().expect("folded");
            modulus.coeffs[0] -= 1;
            let problem = &v.outcome.obligations[0].problem;
            let verdict = polyalloc_alloc::verify(problem, &m, b.solver.as_ref(), "flow");
            assert!(matches!(verdict, Err(polyalloc::AllocError::Invalid { .. })), "{id} {a}: {verdict:?}");
        }
        // Unshifted fusion is wrong whenever shifting is needed (Lemma 2).
        if r.shifting_needed {
            let zero = vec![vec![0; prep.seq.depth]; prep.seq.nests.len()];
            let unshifted = Order::Time(fp.coalesced_time(&prep.seq, &zero));
            let failure = execute(&[check(ExecStorage::new(), unshifted)]).expect_err("illegal fusion");
            assert!(matches!(failure, Failure::ExecutionDiffers(_)), "{id}: {failure}");
        }
    }
}

/// Assumptions: LL14's IR has two write references (Assumption 2 fails: no storage, the
/// run is not applicable); its other arrays have a storage but the loops have indirect
/// subscripts (`EX(IX(K))`, `RH(IR(K))`), which the program model cannot express, so
/// nothing can verify them (`not-applicable`, `unverifiable`, the flow solution still in
/// the details). A local write without a use breaks Assumption 1 (static part); a value
/// written and never read breaks its dynamic part, checked on the program. The
/// condition (3, 4) < b is false for b = (4, 4).
#[test]
fn assumptions_and_conditions() {
    let (ex, seq) = load("flow-ll14");
    assert_eq!(algorithm::assumption2_violations(&seq), vec!["IR".to_string()]);
    assert!(matches!(storage::derive(&seq, &solve(&seq).unwrap(), "IR"), Err(FlowError::Assumption { number: 2, .. })));
    let flow = registry().get("flow").expect("registered");
    let b = backend("microlp").expect("built-in backend");
    let ll14 = input("flow-ll14");
    let e = run(&ll14, flow, "IR", &b, RunOptions::default()).expect_err("no storage for IR");
    assert!(matches!(e.failure, Failure::Method(MethodError::NotApplicable(_))), "{e}");
    let e = run(&ll14, flow, "IX", &b, RunOptions::default()).expect_err("nothing to verify IX with");
    assert!(matches!(e.failure, Failure::Unverifiable(_)), "{e}");
    assert_eq!(e.failure.status(), Status::NotApplicable);
    let d = details(e.outcome.as_ref().expect("outcome"));
    assert!(!d.shifting_needed && d.fusion.all_loops_fused);
    assert!(matches!(&d.execution, Evidence::NotGiven { reason } if reason.contains("EX(IX(K))")), "{:?}", d.execution);
    assert!(matches!(FlowProgram::build(&seq, ex.context.as_deref()), Err(FlowError::NotAffine { .. })));
    // Drop every flow edge of w1,2 (XI): its values become unused.
    let mut flow_section = ex.extra["flow"].clone();
    let edges = flow_section["edges"].as_array_mut().unwrap();
    edges.retain(|e| e["write"].as_str() != Some("w1,2"));
    let seq2 = LoopSequence::from_json(&flow_section, &ex.params).unwrap();
    assert!(matches!(solve(&seq2), Err(FlowError::Assumption { number: 1, .. })));
    // An edge from a later nest to an earlier one is bad input.
    let mut flow_section = ex.extra["flow"].clone();
    flow_section["edges"][0]["from"] = "L3".into();
    assert!(matches!(LoopSequence::from_json(&flow_section, &ex.params), Err(FlowError::Input { .. })));
    // Example 1 with L2 reading A(I - 1) only: A(N) is written and never read
    // (Assumption 1, dynamic part), which makes the method not applicable.
    let mut ex1 = input("flow-example1").example;
    ex1.extra.get_mut("flow").unwrap()["nests"][1]["body"][0] = "E(I) = A(I - 1)".into();
    assert!(matches!(Prepared::new(&ex1), Err(FlowError::Assumption { number: 1, .. })));
    let e = run(&Input::new(ex1), flow, "A", &b, RunOptions::default()).expect_err("Assumption 1");
    assert!(matches!(e.failure, Failure::Method(MethodError::NotApplicable(_))), "{e}");
    let (_, seq) = load("flow-example2");
    let r = solve(&seq).unwrap();
    assert!(!r.condition.holds(&[4, 4]));
    assert!(r.condition.holds(&[4, 5]));
}

/// The file's LDG equals the dependences of polyalloc's one dependence analysis
/// (memory-based flow, anti and output dependences of the program, Pugh 1991, Sec. 3) at every
/// instance (Fig. 3(b) for Example 2); removing an edge from the file is detected.
#[test]
fn ldg_of_the_file_equals_the_dependence_analysis() {
    let b = backend("microlp").expect("built-in backend");
    for id in ["flow-example1", "flow-example2", "flow-ll18", "flow-jacobi"] {
        let (ex, seq) = load(id);
        let fp = FlowProgram::build(&seq, ex.context.as_deref()).unwrap();
        assert_eq!(check::ldg_check(&fp, &seq, b.solver.as_ref(), &ex.instances), LdgCheck::Matches { instances: ex.instances.len() }, "{id}");
    }
    let (ex, _) = load("flow-example2");
    let mut flow = ex.extra["flow"].clone();
    flow["edges"].as_array_mut().unwrap().pop();
    let seq = LoopSequence::from_json(&flow, &ex.params).unwrap();
    let fp = FlowProgram::build(&seq, ex.context.as_deref()).unwrap();
    match check::ldg_check(&fp, &seq, b.solver.as_ref(), &ex.instances) {
        LdgCheck::Differs { computed_not_in_file, in_file_not_computed, .. } => {
            assert_eq!(computed_not_in_file, vec!["anti L2 -> L4 on ZQ distance [0, -1]".to_string()]);
            assert!(in_file_not_computed.is_empty());
        }
        other => panic!("{other:?}"),
    }
}

/// The program model of Example 2: one statement per nest, the original schedule
/// `[i, K, J, 0]`, `ZA(J - 1, K)` read as an affine access, `ZA(2:JN, 2:KN)` a fold
/// region (its `ZA(1, K)` stays in the array), the non-local written arrays live-out.
#[test]
fn example2_in_the_program_model() {
    let (ex, seq) = load("flow-example2");
    let fp = FlowProgram::build(&seq, ex.context.as_deref()).unwrap();
    let p = &fp.program;
    assert_eq!(p.statements.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), vec!["L1_1", "L2_1", "L3_1", "L4_1"]);
    assert_eq!(fp.local_write, vec![Some(0), Some(1), None, None]);
    let l3 = &p.statements[2];
    let sched: Vec<i64> = l3.schedule.iter().map(|e| e.eval(&[10, 10], &[3, 4]).unwrap()).collect();
    assert_eq!(sched, vec![2, 3, 4, 0]);
    let za: Vec<Vec<i64>> = l3.reads.iter().filter(|a| a.array == "ZA").map(|a| a.cell_at(&[10, 10], &[3, 2]).unwrap()).collect();
    assert_eq!(za, vec![vec![2, 3], vec![1, 3]]);
    let region = p.fold_region("ZA").expect("fold region");
    assert!(region.contains(&[10, 10], &[2, 3]).unwrap() && !region.contains(&[10, 10], &[1, 3]).unwrap());
    let live: Vec<&str> = p.live_out.iter().filter_map(|s| s.space().output.name.as_deref()).collect();
    assert_eq!(live, vec!["ZP", "ZQ"]);
    // The storage at an instance is an ordinary modular mapping (Fig. 8:
    // MOD((JN - 1)*(K - 2) + J - 1, JN) up to a constant, here JN = 10).
    let r = solve(&seq).unwrap();
    let zb = storage::derive(&seq, &r, "ZB").unwrap();
    assert_eq!(zb[0].kind, StorageKind::Linearized);
    assert_eq!(zb[0].mapping_at(&seq.params, &[10, 10]).unwrap().to_string(), "ZB[(J + 9K) mod 10]");
}

/// The comparisons the paper rows make on the typed details (xtask's paper module):
/// Example 2's printed shifts and flow (Sec. 4.5) are optimal on our G0/G2, shifted
/// shifts are infeasible, and (16) on the paper's own q gives (-1, -3) (the erratum).
#[test]
fn details_compare_the_papers_intermediate_results() {
    let flow = registry().get("flow").expect("registered");
    let b = backend("microlp").expect("built-in backend");
    let v = run(&input("flow-example2"), flow, "ZB", &b, RunOptions::default()).expect("verified");
    let d = details(&v.outcome);
    let shifts = |p: [[i64; 2]; 4]| -> BTreeMap<String, Vec<i64>> {
        ["L1", "L2", "L3", "L4"].iter().map(|n| n.to_string()).zip(p.iter().map(|v| v.to_vec())).collect()
    };
    assert_eq!(d.objective_for_shifts(&shifts([[1, 0], [0, 0], [1, 0], [1, 0]])), Some(vec![1, 3]));
    // L2 shifted ahead of L3 and L4 breaks the L-edges of distance (-1, 0).
    assert_eq!(d.objective_for_shifts(&shifts([[1, 0], [1, 0], [1, 0], [1, 0]])), None);
    let arc = |f: &str, t: &str| (f.to_string(), t.to_string(), 1);
    let paper_flow = [arc("L1", "L3"), arc("L2", "L4"), arc("L3", "L1(1)"), arc("L4", "L2(1)")];
    assert_eq!(d.compare_flow(&paper_flow), polyalloc_alloc_flow::details::FlowComparison::SameObjective);
    assert_eq!(d.compare_flow(&paper_flow[..3]), polyalloc_alloc_flow::details::FlowComparison::Differ);
    let q: BTreeMap<String, Vec<i64>> = [("L1", [1, 0]), ("L2", [0, 0]), ("L3", [1, 0]), ("L4", [1, 0]), ("L1(1)", [1, 2]), ("L2(1)", [1, 1])]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_vec()))
        .collect();
    assert_eq!(d.problem2_objective_for(&q), Some(vec![-1, -3]));
}
