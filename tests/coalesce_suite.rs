//! Exact coalescing on every bench-suite conflict set: the coalesced relation has the
//! same pairs as the original at every instance small enough to enumerate (both are
//! enumerated independently by scanning and compared as sorted sets), and no more
//! pieces. Covers the program-derived conflict sets (`Program::conflict_set_uncoalesced`
//! against its drop-only reduction, which `Program::conflict_set` returns, and against
//! its full coalescing) and the given ones (`Set::coalesce` applied to the file's
//! relation).
//!
//! Run with `--nocapture` to see the piece counts before and after.

use polyalloc_formulation::{coalesce::coalesce_with_stats, CoalesceMode, Map};
use polyalloc_suite::{default_dir, load_dir, Example};
use polyalloc_tests::{pairs, values_for};

/// Instances per example that are enumerated (the smallest ones: enumerating hundreds
/// of uncoalesced pieces in the dev profile is the cost of this test).
const INSTANCES: usize = 2;

fn same_points(ex: &Example, what: &str, before: &Map, afters: &[&Map]) -> usize {
    for after in afters {
        assert!(after.n_pieces() <= before.n_pieces(), "{}: {what}: {} pieces became {}", ex.id, before.n_pieces(), after.n_pieces());
    }
    let mut order: Vec<usize> = (0..ex.instances.len()).collect();
    order.sort_by_key(|&k| ex.instances[k].values().map(|v| v.unsigned_abs()).product::<u64>());
    let mut compared = 0;
    for &k in order.iter().take(INSTANCES) {
        let Some(pv) = values_for(ex, k, &before.space().params) else { continue };
        let b = pairs(before, &pv).unwrap_or_else(|e| panic!("{}: {what}: enumerating the original: {e}", ex.id));
        let Some(b) = b else { continue };
        for (n, after) in afters.iter().enumerate() {
            let a = pairs(after, &pv).unwrap_or_else(|e| panic!("{}: {what}: enumerating the coalesced set: {e}", ex.id));
            let Some(a) = a else { continue };
            assert_eq!(a, b, "{}: {what}: coalescing #{n} changed the pairs at {pv:?}", ex.id);
            compared += 1;
        }
    }
    compared
}

/// Unions with more pieces are merged only by the `#[ignore]`d test below (the merge
/// proofs of ov-example3's 235 pieces take ~5 s in release, a minute in the dev profile).
const MERGE_MAX_PIECES: usize = 150;

#[test]
fn coalescing_keeps_every_bench_suite_conflict_set() {
    check_suite(MERGE_MAX_PIECES);
}

/// `cargo test --release -p polyalloc-tests --test coalesce_suite -- --ignored --nocapture`
#[test]
#[ignore = "slow in the dev profile: run in release"]
fn full_coalescing_keeps_every_bench_suite_conflict_set() {
    check_suite(usize::MAX);
}

fn check_suite(merge_max_pieces: usize) {
    let mut compared = 0;
    let mut total = (0, 0, 0);
    for ex in load_dir(&default_dir()).expect("bench-suite loads") {
        for name in ex.arrays.keys() {
            if let Some(prog) = ex.program_model().expect("program builds") {
                let t = std::time::Instant::now();
                let raw = prog.conflict_set_uncoalesced(name).unwrap_or_else(|e| panic!("{}: {name}: {e}", ex.id));
                let ms_raw = t.elapsed().as_secs_f64() * 1e3;
                let t = std::time::Instant::now();
                let (dropped, _) = coalesce_with_stats(&raw.relation, CoalesceMode::DropOnly).unwrap_or_else(|e| panic!("{}: {name}: {e}", ex.id));
                let ms_drop = t.elapsed().as_secs_f64() * 1e3;
                let t = std::time::Instant::now();
                let mode = if raw.relation.n_pieces() <= merge_max_pieces { CoalesceMode::Merge } else { CoalesceMode::DropOnly };
                let (co, stats) = coalesce_with_stats(&raw.relation, mode).unwrap_or_else(|e| panic!("{}: {name}: {e}", ex.id));
                let ms_merge = t.elapsed().as_secs_f64() * 1e3;
                println!(
                    "{:<28} {:<6} program: {:>4} -> {:>4} (drop-only, {ms_drop:.0} ms) -> {:>4} (merge, {ms_merge:.0} ms) pieces; {stats:?}; built in {ms_raw:.0} ms",
                    ex.id,
                    name,
                    raw.relation.n_pieces(),
                    dropped.n_pieces(),
                    co.n_pieces()
                );
                // What conflict_set returns is the drop-only relation (checked where it is
                // cheap: computing the large unions twice would double the cost).
                if raw.relation.n_pieces() <= 20 {
                    let cs = prog.conflict_set(name).expect("conflict set");
                    assert_eq!(cs.relation, dropped, "{}: {name}", ex.id);
                }
                let afters: Vec<&Map> = if mode == CoalesceMode::Merge { vec![&dropped, &co] } else { vec![&dropped] };
                compared += same_points(&ex, &format!("{name} (program: drop-only, merged)"), &raw.relation, &afters);
                assert!(co.n_pieces() <= dropped.n_pieces(), "{}: {name}: merging gave more pieces than dropping", ex.id);
                if ex.id == "ov-example3" {
                    // The union that motivated coalescing (000 Sec. 5.3): 235 pieces,
                    // about half of them contained in others.
                    assert!(2 * dropped.n_pieces() <= raw.relation.n_pieces(), "ov-example3: {} -> {}", raw.relation.n_pieces(), dropped.n_pieces());
                }
                total.0 += raw.relation.n_pieces();
                total.1 += dropped.n_pieces();
                total.2 += co.n_pieces();
            }
            if let Some(given) = ex.given_conflicts(name).expect("given conflicts parse") {
                let co = given.relation.coalesce().unwrap_or_else(|e| panic!("{}: {name}: {e}", ex.id));
                println!("{:<28} {:<6} given:   {:>4} -> {:>4} pieces", ex.id, name, given.relation.n_pieces(), co.n_pieces());
                compared += same_points(&ex, &format!("{name} (given)"), &given.relation, &[&co]);
            }
        }
    }
    println!("program-derived pieces in total: {} -> {} (drop-only) -> {} (merge)", total.0, total.1, total.2);
    assert!(compared >= 20, "only {compared} instance comparisons");
    // ov-example3 (000 Sec. 5.3) is the case that motivated coalescing: 235 pieces.
    assert!(total.1 < total.0 && total.2 < total.1, "coalescing removed no piece of the program-derived conflict sets");
}
