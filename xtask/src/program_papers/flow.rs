//! Paper rows of Song et al. 2005 (Song, Wang, Li: loop shifting, fusion and array contraction as a
//! min-cost network flow). The method `flow` is a registered method
//! (`polyalloc_alloc_flow::Flow`, run through `polyalloc::run_record` like every
//! other method: one record per local array and backend, its mapping verified by the
//! exact checker under the fused schedule and the contracted loops executed by the one
//! executor). This module only compares its typed details
//! ([`polyalloc_alloc_flow::FlowDetails`], read back from `Record::details`) with the
//! paper entries of `method: "flow"`.
//!
//! Rows per paper entry: memory per array and in total (polynomials, `match`/`differ`),
//! the shifts (`match` up to a common translation, or `same size` when the paper's
//! shifts are feasible and give the same objective), `M`, the run-time condition
//! (printed form), the intermediate results of Sec. 4.5 (lexical heights, `y`, `q`,
//! the objectives, the Problem 4 flow: `same size` when the paper's flow is feasible
//! on our G2 with the same objective) and, for Table I benchmarks, the qualitative
//! statements of Sec. 6 (all loops fused, shifting needed) and Fig. 9's memory (not
//! comparable: an image). The solution part of the details is the same in every record
//! of an example (Algorithm 1 is solver-free); the first record that has details is
//! read. An entry whose example has no such record is `failed`.

use super::PaperModule;
use crate::results::PaperRow;
use polyalloc::run::Backend;
use polyalloc::Input;
use polyalloc::Record;
use polyalloc_alloc_flow::details::{FlowComparison, NodeVector};
use polyalloc_alloc_flow::{vecs, FlowDetails};
use polyalloc_formulation::Polynomial;
use polyalloc_suite::{Example, PaperResult};
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Duration;

/// The paper module of method `flow`.
pub struct FlowPaper;

impl PaperModule for FlowPaper {
    fn names(&self) -> &'static [&'static str] {
        &["flow"]
    }

    fn applies(&self, ex: &Example) -> bool {
        ex.extra.contains_key("flow")
    }

    fn paper_rows(
        &self,
        input: &Input,
        selected: &[&str],
        records: &[Record],
        _backends: &[Backend],
        _time_limit: Option<Duration>,
    ) -> Vec<PaperRow> {
        let ex = &input.example;
        if !selected.contains(&"flow") {
            return Vec::new();
        }
        let details = records
            .iter()
            .filter(|r| r.method == "flow" && r.example == ex.id && !r.details.is_empty())
            .find_map(|r| FlowDetails::from_details(&r.details).ok());
        let mut out = Vec::new();
        for e in ex.paper.iter().filter(|e| e.method == "flow") {
            match &details {
                Some(d) => compare_rows(ex, e, d, &mut out),
                None => {
                    let mut x = row(ex, e, "-");
                    x.result = "failed".into();
                    x.counts = true;
                    out.push(x);
                }
            }
        }
        out
    }
}

fn row(ex: &Example, e: &PaperResult, array: &str) -> PaperRow {
    PaperRow::new(&ex.id, &ex.source.paper, e.location.clone(), array, "flow")
}

fn parse_vec(v: &Value) -> Option<Vec<i64>> {
    v.as_array()?.iter().map(|x| x.as_i64()).collect()
}

fn parse_map(v: &Value) -> Option<BTreeMap<String, Vec<i64>>> {
    v.as_object()?.iter().map(|(k, v)| parse_vec(v).map(|v| (k.clone(), v))).collect()
}

/// `L1: (0, 0), L2: (1, 0)`, or with a function name `p(L1) = (0, 0), ...`.
fn show_map(m: &serde_json::Map<String, Value>, function: Option<&str>) -> String {
    let show = |v: &Value| parse_vec(v).map(|v| vecs::fmt(&v)).unwrap_or_default();
    m.iter()
        .map(|(k, v)| match function {
            Some(f) => format!("{f}({k}) = {}", show(v)),
            None => format!("{k}: {}", show(v)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn finish(mut x: PaperRow, ok: bool, result: &str) -> PaperRow {
    x.result = result.into();
    x.counts = true;
    x.reproduced = ok;
    x
}

fn compare_rows(ex: &Example, e: &PaperResult, d: &FlowDetails, out: &mut Vec<PaperRow>) {
    let poly = |t: &str| Polynomial::parse(t).ok();
    // Memory per array and in total.
    if let Some(mem) = e.extra.get("memory").and_then(|v| v.as_object()) {
        for (a, pv) in mem {
            let mut x = row(ex, e, a);
            x.paper_size = pv.as_str().map(String::from);
            let theirs = pv.as_str().and_then(poly);
            let mine = d.memory.get(a).and_then(|m| poly(m));
            x.polyalloc_size = d.memory.get(a).cloned();
            x.paper_mapping = e.mapping.clone();
            x.polyalloc_mapping = d.storage.get(a).and_then(|s| s.printed()).map(String::from);
            let ok = theirs.is_some() && theirs == mine;
            x.note = Some("memory of the contracted local region, M_{i,k} . s".into());
            out.push(finish(x, ok, if ok { "match" } else { "differ" }));
        }
    }
    if let Some(t) = e.extra.get("total_memory").and_then(|v| v.as_str()) {
        let mut x = row(ex, e, "(total)");
        x.paper_size = Some(t.into());
        x.polyalloc_size = Some(d.total_memory.clone());
        let ok = poly(t).is_some() && poly(t) == poly(&d.total_memory);
        out.push(finish(x, ok, if ok { "match" } else { "differ" }));
    }
    // Shifts: equal up to a common translation, or equally optimal.
    if let Some(sh) = e.extra.get("shifts").and_then(|v| v.as_object()) {
        let mut x = row(ex, e, "(shifts)");
        let ours: Vec<&Vec<i64>> = d.nests.iter().filter_map(|n| d.shifts.get(n)).collect();
        let paper: Option<Vec<Vec<i64>>> = d.nests.iter().map(|n| sh.get(n).and_then(parse_vec)).collect();
        x.paper_mapping = Some(show_map(sh, Some("p")));
        x.polyalloc_mapping = Some(d.nests.iter().zip(&ours).map(|(n, p)| format!("p({n}) = {}", vecs::fmt(p))).collect::<Vec<_>>().join(", "));
        let result = match &paper {
            Some(ps) if ps.len() == ours.len() && !ps.is_empty() => {
                let delta = vecs::sub(&ps[0], ours[0]).unwrap_or_default();
                if ps.iter().zip(&ours).all(|(a, b)| vecs::sub(a, b).ok().as_ref() == Some(&delta)) {
                    "match".to_string()
                } else {
                    let pm: BTreeMap<String, Vec<i64>> = d.nests.iter().cloned().zip(ps.iter().cloned()).collect();
                    match d.objective_for_shifts(&pm) {
                        Some(tot) if tot == d.problem_objectives.problem1 => "same size".into(),
                        Some(tot) => format!("differ (paper's shifts give {})", vecs::fmt(&tot)),
                        None => "differ (paper's shifts infeasible)".into(),
                    }
                }
            }
            _ => "differ".to_string(),
        };
        let ok = result == "match" || result == "same size";
        x.note = Some("shifts are unique up to a common translation".into());
        out.push(finish(x, ok, &result));
    }
    if let Some(mm) = e.extra.get("M").and_then(|v| v.as_object()) {
        let mut x = row(ex, e, "(M)");
        x.paper_mapping = Some(show_map(mm, Some("M")));
        x.polyalloc_mapping = Some(d.m.iter().map(|(w, m)| format!("M({w}) = {}", vecs::fmt(m))).collect::<Vec<_>>().join(", "));
        let ok = parse_map(&Value::Object(mm.clone())).as_ref() == Some(&d.m);
        out.push(finish(x, ok, if ok { "match" } else { "differ" }));
    }
    if let Some(c) = e.extra.get("condition").and_then(|v| v.as_str()) {
        let mut x = row(ex, e, "(condition)");
        x.paper_mapping = Some(c.into());
        x.polyalloc_mapping = Some(d.condition.clone());
        let norm = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        let ok = norm(c) == norm(&d.condition);
        x.note = Some(format!(
            "run-time condition: Assumption 3 {} and the solution's {}; every comparison made: {}",
            d.assumption3, d.solution_condition, d.comparison_condition
        ));
        out.push(finish(x, ok, if ok { "match" } else { "differ" }));
    }
    if let Some(im) = e.extra.get("intermediate").and_then(|v| v.as_object()) {
        for (field, which, label) in [
            ("lexical_heights", NodeVector::LexicalHeight, "(Fig. 5 lexical heights z)"),
            ("problem3_y", NodeVector::Y, "(Problem 3 y, (28))"),
            ("problem2_q", NodeVector::Q, "(Problem 2 q, (18))"),
        ] {
            if let Some(m) = im.get(field).and_then(|v| v.as_object()) {
                let ours = d.per_node(which);
                let mut x = row(ex, e, label);
                x.paper_mapping = Some(show_map(m, None));
                x.polyalloc_mapping = Some(ours.iter().map(|(k, v)| format!("{k}: {}", vecs::fmt(v))).collect::<Vec<_>>().join(", "));
                let ok = m.len() == ours.len() && ours.iter().all(|(k, v)| m.get(k).and_then(parse_vec).as_ref() == Some(v));
                out.push(finish(x, ok, if ok { "match" } else { "differ" }));
            }
        }
        for (field, ours, label) in [
            ("problem4_objective", &d.problem_objectives.problem4, "(Problem 4 objective (23))"),
            ("problem2_objective", &d.problem_objectives.problem2, "(Problem 2 objective (16))"),
        ] {
            let Some(pv) = im.get(field).and_then(parse_vec) else { continue };
            let mut x = row(ex, e, label);
            x.paper_mapping = Some(vecs::fmt(&pv));
            x.polyalloc_mapping = Some(vecs::fmt(ours));
            let ok = pv == *ours;
            if !ok && field == "problem2_objective" {
                // Recompute (16) from the paper's own q and h.
                if let Some(sum) = im.get("problem2_q").and_then(parse_map).and_then(|q| d.problem2_objective_for(&q)) {
                    x.note = Some(format!(
                        "(16) = sum h(v) q_v evaluated on the paper's own q and h gives {}; the printed value looks like an erratum (Appendix B: (16) = -(11), and sum M = {})",
                        vecs::fmt(&sum),
                        vecs::fmt(&d.problem_objectives.problem1)
                    ));
                }
            }
            match im.get("errata").and_then(|v| v.get(field)).and_then(|v| v.as_str()) {
                Some(why) if !ok => {
                    // A printed value believed wrong (bench-suite README, section 10).
                    x.result = "differ (paper erratum)".into();
                    x.note = Some(format!("{why} {}", x.note.clone().unwrap_or_default()));
                    out.push(x);
                }
                _ => out.push(finish(x, ok, if ok { "match" } else { "differ" })),
            }
        }
        if let Some(fl) = im.get("problem4_flow").and_then(|v| v.as_array()) {
            let mut x = row(ex, e, "(Problem 4 flow)");
            let paper: Option<Vec<(String, String, i64)>> =
                fl.iter().map(|f| Some((f["from"].as_str()?.to_string(), f["to"].as_str()?.to_string(), f["f"].as_i64()?))).collect();
            x.paper_mapping = Some(
                fl.iter()
                    .map(|f| format!("{}->{}: {}", f["from"].as_str().unwrap_or("?"), f["to"].as_str().unwrap_or("?"), f["f"]))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
            x.polyalloc_mapping = Some(
                d.network.edges.iter().filter(|e| e.flow > 0).map(|e| format!("{}->{}: {}", e.from, e.to, e.flow)).collect::<Vec<_>>().join(", "),
            );
            let result = match paper.map(|p| d.compare_flow(&p)) {
                Some(FlowComparison::Same) => "match",
                Some(FlowComparison::SameObjective) => "same size",
                _ => "differ",
            };
            x.note = Some(
                "\"same size\": the paper's flow satisfies (24)-(25) on our G2 and has the same objective (23); min-cost flows are not unique".into(),
            );
            out.push(finish(x, result != "differ", result));
        }
    }
    // Qualitative statements of Sec. 6 (Table I benchmarks).
    if let Some(v) = e.extra.get("all_loops_fused").and_then(|v| v.as_bool()) {
        let mut x = row(ex, e, "(all loops fused)");
        x.paper_mapping = Some(v.to_string());
        x.polyalloc_mapping = Some(d.fusion.all_loops_fused.to_string());
        x.note = Some("the method fuses all nests after shifting (Lemma 3); true whenever Problem 0 is solved".into());
        let ok = v == d.fusion.all_loops_fused;
        out.push(finish(x, ok, if ok { "match" } else { "differ" }));
    }
    if let Some(v) = e.extra.get("shifting_needed").and_then(|v| v.as_bool()) {
        let mut x = row(ex, e, "(shifting needed)");
        x.paper_mapping = Some(v.to_string());
        x.polyalloc_mapping = Some(d.shifting_needed.to_string());
        x.note = Some(format!("ours: some inter-nest distance is lexicographically negative (Lemma 2). {}", e.note.clone().unwrap_or_default()));
        let ok = v == d.shifting_needed;
        out.push(finish(x, ok, if ok { "match" } else { "differ" }));
    }
    if let Some(b) = ex.extra.get("flow").and_then(|f| f.get("benchmark")) {
        let mut x = row(ex, e, "(Fig. 9 memory)");
        x.paper_size = b.get("original_data_size_kb").map(|v| format!("{v} KB before"));
        let before: Vec<String> = d.local_arrays.iter().filter_map(|a| d.memory_before.get(a).map(|m| format!("{a} {m}"))).collect();
        let after: Vec<String> = d.memory.iter().map(|(a, m)| format!("{a} {m}")).collect();
        x.polyalloc_size = Some(format!("local regions before: {}; after: {}", before.join(", "), after.join(", ")));
        x.result = "not comparable".into();
        x.note = Some("Fig. 9's bars (memory after the transformation) are an image; the text gives only the original data sizes, so the reduction cannot be compared".into());
        out.push(x);
    }
}
