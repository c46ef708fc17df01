//! The bench-suite is the ground truth of every reproduction test: every file loads,
//! every program yields the conflict set its file gives (equal, or a subset where the
//! file says so), and every mapping a paper reports gets the checker verdict its file
//! records (`expect`), at every instance small enough to enumerate.

use polyalloc_formulation::check_concrete;
use polyalloc_formulation::checker::ConcreteVerdict;
use polyalloc_suite::{default_dir, load_dir};
use polyalloc_tests::{pairs, values_for, PAIR_LIMIT};

#[test]
fn every_file_loads_and_covers_the_five_papers() {
    let all = load_dir(&default_dir()).expect("bench-suite loads");
    for prefix in ["smo-", "lattice-", "ov-", "pugh-", "flow-"] {
        assert!(all.iter().any(|e| e.id.starts_with(prefix)), "no `{prefix}` example");
    }
    // SMO Table I (004): eleven rows plus the n = 9 Bee+Cl@k comparison.
    for id in [
        "smo-produce-consume",
        "smo-blur-interleaved",
        "smo-blur-tiled",
        "smo-harris-corner-tiled",
        "smo-unsharp-mask-tiled",
        "smo-lbm-d2q9",
        "smo-lbm-d3q19",
        "smo-lbm-d3q27",
        "smo-diamond-tile",
        "smo-stencil-1d-pllgm-tile",
        "smo-stencil-1d-hex-tile",
        "smo-produce-consume-n9",
    ] {
        assert!(all.iter().any(|e| e.id == id), "missing {id}");
    }
}

#[test]
fn programs_yield_the_given_conflict_sets() {
    let mut compared = 0;
    for ex in load_dir(&default_dir()).expect("loads") {
        if ex.program.is_none() {
            continue;
        }
        for (name, spec) in &ex.arrays {
            if spec.conflicts.is_none() {
                continue;
            }
            let given = ex.given_conflicts(name).expect("given conflicts parse").expect("present");
            let prog = ex.program_model().expect("program builds").expect("present");
            let computed = prog.conflict_set(name).unwrap_or_else(|e| panic!("{}: {name}: {e}", ex.id));
            let relation = spec.extra.get("program_conflicts").and_then(|v| v.as_str()).unwrap_or("equal");
            let g = given.symmetric().expect("symmetric");
            let c = computed.symmetric().expect("symmetric");
            let mut checked_one = false;
            // The two smallest instances: the program's conflict pieces are many (one per
            // writer, reader and lexicographic case), and enumerating them is the cost.
            let mut order: Vec<usize> = (0..ex.instances.len()).collect();
            order.sort_by_key(|&k| ex.instances[k].values().map(|v| v.unsigned_abs()).product::<u64>());
            for &k in order.iter().take(2) {
                let gp = values_for(&ex, k, &g.space().params).expect("instance");
                let cp = values_for(&ex, k, &c.space().params).expect("instance");
                let (Some(gs), Some(cs)) = (pairs(&g, &gp).expect("enumerates"), pairs(&c, &cp).expect("enumerates")) else {
                    continue;
                };
                match relation {
                    "equal" => assert!(
                        gs == cs,
                        "{} {name} at {:?}: program conflicts differ from the given set ({} vs {} pairs; first extra: {:?} / missing: {:?})",
                        ex.id,
                        ex.instances[k],
                        cs.len(),
                        gs.len(),
                        cs.difference(&gs).next(),
                        gs.difference(&cs).next()
                    ),
                    "subset" => assert!(
                        cs.is_subset(&gs),
                        "{} {name} at {:?}: program conflict {:?} not in the given set",
                        ex.id,
                        ex.instances[k],
                        cs.difference(&gs).next()
                    ),
                    other => panic!("{}: unknown program_conflicts `{other}`", ex.id),
                }
                checked_one = true;
                compared += 1;
            }
            assert!(checked_one, "{} {name}: no instance small enough (limit {PAIR_LIMIT} pairs)", ex.id);
        }
    }
    assert!(compared >= 20, "only {compared} comparisons");
}

#[test]
fn paper_mappings_get_their_recorded_verdicts() {
    let mut checked = 0;
    for ex in load_dir(&default_dir()).expect("loads") {
        for (k, entry) in ex.paper.iter().enumerate() {
            let (Some(array), Some(_), Some(expect)) = (&entry.array, &entry.hyperplanes, &entry.expect) else { continue };
            if entry.method == "aov" {
                continue; // valid under every legal schedule: checked with the occupancy-vector method
            }
            let cs = ex.conflicts(array).unwrap_or_else(|e| panic!("{e}"));
            let mapping = ex.paper_mapping(k, &cs).unwrap_or_else(|e| panic!("{e}")).expect("has hyperplanes");
            let params = cs.relation.space().params.clone();
            let mut any = false;
            let mut refuted = None;
            for i in 0..ex.instances.len() {
                let vals = values_for(&ex, i, &params).expect("instance");
                match check_concrete(&cs, &mapping, &vals, PAIR_LIMIT) {
                    Ok(ConcreteVerdict::Valid { .. }) => any = true,
                    Ok(ConcreteVerdict::Invalid(c)) => {
                        any = true;
                        refuted.get_or_insert((vals.clone(), c));
                    }
                    Ok(v @ ConcreteVerdict::NonPositiveModulus { .. }) => panic!("{} paper[{k}]: {v:?}", ex.id),
                    Err(polyalloc_formulation::Error::TooManyPoints(_)) => {}
                    Err(e) => panic!("{} paper[{k}]: {e}", ex.id),
                }
            }
            assert!(any, "{} paper[{k}]: no instance small enough", ex.id);
            match (expect.as_str(), &refuted) {
                ("valid", None) | ("invalid", Some(_)) => {}
                ("valid", Some((p, c))) => panic!("{} paper[{k}] {mapping}: expected valid, refuted at {p:?}: {c:?}", ex.id),
                _ => panic!("{} paper[{k}] {mapping}: expected invalid, but valid at every instance", ex.id),
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} paper mappings checked");
}
