//! Paper 003 (Song, Wang, Li): loop shifting, fusion and array contraction as a
//! min-cost network flow. Expected values come from the paper (Sec. 1 / Fig. 1 for
//! Example 1; Sec. 4.1-4.5 and Fig. 8 for Example 2), from the bench-suite files'
//! independently derived data (`simplified`, `derived_optimum`, computed by a separate
//! script, bench-suite/README.md section 10), or from brute force in this file.

use polyalloc_alloc_flow::algorithm::{self, Node};
use polyalloc_alloc_flow::exec::Program;
use polyalloc_alloc_flow::storage::{self, Storage};
use polyalloc_alloc_flow::{check, ilp, solve, vecs, FlowError, LoopSequence};
use polyalloc_formulation::Polynomial;
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
        let mut theirs: Vec<String> = simp["l_edges"].as_array().unwrap().iter().map(|e| {
            let d: Vec<i64> = e["distance"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
            format!("{}>{}:{:?}", e["from"].as_str().unwrap(), e["to"].as_str().unwrap(), d)
        }).collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{id} L-edges");
        let mut ours: Vec<String> = r.g0.m_edges.iter().map(|e| format!("{}>{}:{}:{:?}", name(e.from), name(e.to), seq.writes[e.write].id, e.extended)).collect();
        let mut theirs: Vec<String> = simp["m_edges"].as_array().unwrap().iter().map(|e| {
            let d: Vec<i64> = e["extended_distance"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
            format!("{}>{}:{}:{:?}", e["from"].as_str().unwrap(), e["to"].as_str().unwrap(), e["write"].as_str().unwrap(), d)
        }).collect();
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
                    let need = seq.edges.iter().filter(|e| e.write == Some(w)).map(|e| {
                        p[e.to] as i128 - p[e.from] as i128 + dot(&e.distance) + dot(e.extension.as_ref().unwrap())
                    }).max().unwrap();
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

/// Fig. 1, Fig. 3, LL18 and Jacobi executed: the shifted, fused, contracted loops compute
/// bit-identical values with exactly M . s cells per region.
#[test]
fn contracted_loops_compute_identical_values() {
    for id in ["flow-example1", "flow-example2", "flow-ll18", "flow-jacobi"] {
        let (ex, seq) = load(id);
        let r = solve(&seq).unwrap();
        for inst in &ex.instances {
            let c = check::check_instance(&seq, &r, inst).unwrap();
            assert!(c.exec_error.is_none(), "{id} {inst:?}: {:?}", c.exec_error);
            // Both the coalesced loop and the fused nest of Fig. 8 were executed.
            assert!(c.runs.iter().any(|(l, _)| l.ends_with("/coalesced")));
            assert!(c.runs.iter().any(|(l, _)| l.ends_with("/fused-nest")));
            for (label, run) in &c.runs {
                assert!(run.report.ok(), "{id} {inst:?} {label}: {:?}", run.report.first_problem);
                assert!(run.report.values > 0 && run.report.identical == run.report.values);
                assert_eq!(run.report.cells[&run.storage.array], c.memory[&run.storage.array], "{id} {label}");
            }
        }
    }
}

/// The execution check can fail: one cell fewer than M . s for any contracted array
/// (others unchanged) is detected (bench-suite README: "one fewer fails").
#[test]
fn one_cell_fewer_is_detected() {
    for (id, inst) in [("flow-example1", vec![("N", 5)]), ("flow-example2", vec![("JN", 6), ("KN", 5)]), ("flow-jacobi", vec![("N", 5)])] {
        let (_, seq) = load(id);
        let r = solve(&seq).unwrap();
        let values: BTreeMap<String, i64> = inst.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        let base: BTreeMap<String, Storage> = seq.regions.iter().map(|g| (g.array.clone(), storage::derive(&seq, &r, &g.array).unwrap().remove(0))).collect();
        let prog = Program::new(&seq, &values).unwrap();
        let original = prog.run_original().unwrap();
        let s = seq.coalescing_at(&values).unwrap();
        let shifts: Vec<i64> = r.shifts.iter().map(|p| vecs::dot(p, &s).unwrap() as i64).collect();
        assert!(prog.run_contracted(&shifts, &base, &original).unwrap().ok(), "{id}");
        for a in base.keys() {
            let mut smaller = base.clone();
            let st = smaller.get_mut(a).unwrap();
            st.modulus = st.modulus.checked_sub(&Polynomial::constant(1)).unwrap();
            let rep = prog.run_contracted(&shifts, &smaller, &original).unwrap();
            assert!(!rep.ok(), "{id}: {a} with one cell fewer still passed");
        }
        // Unshifted fusion is wrong whenever shifting is needed (Lemma 2).
        if r.shifting_needed {
            let zero = vec![0; shifts.len()];
            assert!(!prog.run_contracted(&zero, &base, &original).unwrap().ok(), "{id} without shifts");
        }
    }
}

/// Assumptions: LL14's IR has two write references (Assumption 2 fails, reported); a
/// local write without a use breaks Assumption 1; the condition (3, 4) < b is false
/// for b = (4, 4).
#[test]
fn assumptions_and_conditions() {
    let (ex, seq) = load("flow-ll14");
    assert_eq!(algorithm::assumption2_violations(&seq), vec!["IR".to_string()]);
    assert!(matches!(storage::derive(&seq, &solve(&seq).unwrap(), "IR"), Err(FlowError::Assumption { number: 2, .. })));
    // Drop every flow edge of w1,2 (XI): its values become unused.
    let mut flow = ex.extra["flow"].clone();
    let edges = flow["edges"].as_array_mut().unwrap();
    edges.retain(|e| e["write"].as_str() != Some("w1,2"));
    let seq2 = LoopSequence::from_json(&flow, &ex.params).unwrap();
    assert!(matches!(solve(&seq2), Err(FlowError::Assumption { number: 1, .. })));
    // An edge from a later nest to an earlier one is bad input.
    let mut flow = ex.extra["flow"].clone();
    flow["edges"][0]["from"] = "L3".into();
    assert!(matches!(LoopSequence::from_json(&flow, &ex.params), Err(FlowError::Input { .. })));
    let (_, seq) = load("flow-example2");
    let r = solve(&seq).unwrap();
    assert!(!r.condition.holds(&[4, 4]));
    assert!(r.condition.holds(&[4, 5]));
}

/// Dependence analysis by executing the original loops (value-based flow, anti, output
/// dependences) finds exactly the LDG of the file (Fig. 3(b) for Example 2), at every
/// instance. LL14 is not executable (intrinsics) and reports why.
#[test]
fn ldg_recomputed_by_execution_equals_file() {
    for id in ["flow-example1", "flow-example2", "flow-ll18", "flow-jacobi"] {
        let (ex, seq) = load(id);
        for inst in &ex.instances {
            assert_eq!(check::ldg_matches(&seq, inst), Ok(()), "{id} {inst:?}");
        }
    }
    // Removing an edge from the file is detected.
    let (ex, _) = load("flow-example2");
    let mut flow = ex.extra["flow"].clone();
    flow["edges"].as_array_mut().unwrap().pop();
    let seq = LoopSequence::from_json(&flow, &ex.params).unwrap();
    assert!(check::ldg_matches(&seq, &ex.instances[0]).is_err());
    let (ex, seq) = load("flow-ll14");
    assert!(check::ldg_matches(&seq, &ex.instances[0]).unwrap_err().contains("intrinsic"));
}
