//! Max-live, the physical limit every record is measured against, against
//! values derived by hand from the examples' schedules.
//!
//! Issue 18 states the limits of the two tiles of Bhaskaracharya et al. 2016, Table I (hex tile `5B - 4`, where
//! SMO's mapping has `9B - 8` cells; diamond tile `4B - 4`, where it has `6B - 5`); Bhaskaracharya et al. 2016
//! prints only the mappings, so each value is derived below from the tile, its
//! row-major schedule and its live-out set, then compared with the simulation
//! (`polyalloc_program::max_live`) and with the largest clique of the conflict graph
//! (the fallback for files with only a conflict set).

use polyalloc::limit::{max_live, MaxLiveSource, MaxLiveUnknown};
use polyalloc::{backend, load, registry, run_record, Input, RunOptions};
use std::collections::BTreeMap;

fn example(id: &str) -> Input {
    load(&polyalloc::suite_dir().join(format!("{id}.json"))).expect("bench-suite file")
}

fn at(name: &str, v: i64) -> BTreeMap<String, i64> {
    [(name.to_string(), v)].into()
}

/// The same example with its program removed: only the conflict set is left.
fn conflict_set_only(id: &str) -> Input {
    let mut ex = example(id).example;
    ex.program = None;
    Input::new(ex)
}

/// Hexagonal tile (Bhaskaracharya et al. 2016, Sec. 5, after Table I; `bench-suite/smo-stencil-1d-hex-tile.json`):
/// rows `tt = 0 .. 2B - 2`, row `tt >= B - 1` spans `ii in [tt - B + 1, 4B - 4 - tt]`,
/// flow dependences (1, -1), (1, 0), (1, 1), row-major schedule; each row `tt >= B - 1`
/// has 4 live-out cells (its two leftmost and two rightmost), the top row is live-out.
/// After the write of `(tt, ii)` in the upper half, the live values are: row `tt - 1`
/// from `ii` to its end (`4B - 2 - tt - ii` of them) plus its 2 leftmost (live-out),
/// row `tt` up to `ii` (`ii - tt + B`), and the 4 live-out cells of each of the rows
/// `B - 1 .. tt - 2` (`4(tt - B)`): `B + 2 tt` in all, largest on the top row
/// `tt = 2B - 2`: `5B - 4` (the lower half peaks at `3B - 2` on the middle row).
#[test]
fn hex_tile_max_live_is_5b_minus_4() {
    let input = example("smo-stencil-1d-hex-tile");
    for b in [4, 5, 6, 8] {
        let m = max_live(&input, "AB", Some(&at("B", b))).expect("simulated");
        assert_eq!((m.value, m.source), ((5 * b - 4) as u64, MaxLiveSource::Simulation), "B = {b}");
    }
}

/// Diamond tile (Bhaskaracharya et al. 2016, Sec. 4, Fig. 7): rows `tt = 0 .. 2B - 2`, row `tt >= B - 1` spans
/// `ii in [tt - B + 1, 3B - 3 - tt]` (`4B - 3 - 2tt` cells), live-out: the two leftmost
/// and two rightmost cells of each upper row (`L1`, `L2`). Rows `B - 1 .. 2B - 4` have
/// 4 live-out cells, row `2B - 3` (3 cells) all 3, the top corner 1: when the corner
/// `(2B - 2, B - 1)` is written, `4(B - 2) + 3 + 1 = 4B - 4` values are live, and no
/// earlier moment has more (in the upper half, `2tt + 1` while rows are wider than 4).
#[test]
fn diamond_tile_max_live_is_4b_minus_4() {
    let input = example("smo-diamond-tile");
    for b in [3, 4, 5, 6, 8] {
        let m = max_live(&input, "AB", Some(&at("B", b))).expect("simulated");
        assert_eq!((m.value, m.source), ((4 * b - 4) as u64, MaxLiveSource::Simulation), "B = {b}");
    }
}

/// Without a program, max-live is the largest clique of the conflict graph. On a
/// single schedule every value's lifetime is an interval, and pairwise-overlapping
/// intervals share a point (Helly), so the clique number equals the simulated max-live:
/// the two tiles' conflict sets (transcribed from Bhaskaracharya et al. 2016, Fig. 7, reconstructed for the hex
/// tile) give the same `5B - 4` and `4B - 4`.
#[test]
fn clique_of_a_conflict_set_only_file_equals_the_hand_derived_limit() {
    let hex = conflict_set_only("smo-stencil-1d-hex-tile");
    let diamond = conflict_set_only("smo-diamond-tile");
    for b in [4, 5] {
        let m = max_live(&hex, "AB", Some(&at("B", b))).expect("clique");
        assert_eq!((m.value, m.source), ((5 * b - 4) as u64, MaxLiveSource::Clique), "hex B = {b}");
        let m = max_live(&diamond, "AB", Some(&at("B", b))).expect("clique");
        assert_eq!((m.value, m.source), ((4 * b - 4) as u64, MaxLiveSource::Clique), "diamond B = {b}");
    }
}

/// Bhaskaracharya et al. 2016, Fig. 2 / Sec. 3.1 produce-consume, conflict set only: `2N - 1` values live at
/// once ("finally hold the 2T - 1 live-out values"), as the largest clique.
#[test]
fn produce_consume_clique_is_2n_minus_1() {
    let input = conflict_set_only("smo-produce-consume");
    for n in [3, 5, 9] {
        let m = max_live(&input, "A", Some(&at("N", n))).expect("clique");
        assert_eq!((m.value, m.source), ((2 * n - 1) as u64, MaxLiveSource::Clique), "N = {n}");
    }
}

/// Max-live is unknown, and the record says why, when there is no instance to compute
/// it at, or when the conflict graph is too large to search.
#[test]
fn unknown_max_live_is_marked_with_the_reason() {
    let mut ex = example("smo-produce-consume").example;
    ex.instances.clear();
    let input = Input::new(ex);
    assert_eq!(max_live(&input, "A", None), Err(MaxLiveUnknown::NoInstance));
    let b = backend("microlp").expect("built-in backend");
    let smo = registry().get("smo").expect("registered");
    let r = run_record(&input, smo, "A", &b, RunOptions::default());
    assert_eq!(r.max_live, None);
    assert_eq!(r.max_live_source.as_deref(), Some("unknown: no instance to compute max-live at"));
    // Produce-consume without its program at N = 100: 10^4 cells (within the cell limit
    // of the bit matrix) but about N^3 conflicting pairs, above the pair limit; at
    // N = 1000, 10^6 cells, above the cell limit.
    let input = conflict_set_only("smo-produce-consume");
    match max_live(&input, "A", Some(&at("N", 100))) {
        Err(MaxLiveUnknown::TooManyPairs(_)) => {}
        other => panic!("expected too many pairs, got {other:?}"),
    }
    match max_live(&input, "A", Some(&at("N", 1000))) {
        Err(MaxLiveUnknown::TooManyCells(_)) => {}
        other => panic!("expected too many cells, got {other:?}"),
    }
}

/// Thies et al. 2007, example 3 (`ov-example3`): its program writes a cell twice at one logical time
/// under the recorded schedule, which the simulation refuses; the conflict set still
/// gives max-live as its largest clique, never above a verified mapping's size.
#[test]
fn a_program_the_simulation_refuses_falls_back_to_the_clique() {
    let input = example("ov-example3");
    let at: BTreeMap<String, i64> = [("imax", 3), ("jmax", 3), ("kmax", 3)].into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    let program = input.example.program_model().expect("program").expect("has one");
    assert!(polyalloc_program::max_live(&program, &[3, 3, 3]).is_err(), "the simulation refuses this program");
    let m = max_live(&input, "A", Some(&at)).expect("clique");
    assert_eq!(m.source, MaxLiveSource::Clique);
    let b = backend("microlp").expect("built-in backend");
    let r = run_record(&input, registry().get("lefe").expect("registered"), "A", &b, RunOptions { size_params: Some(&at), ..RunOptions::default() });
    assert!(m.value >= 1 && m.value as i128 <= r.size_at.expect("lefe folds"), "{} vs {:?}", m.value, r.size_at);
}
