//! The hot paths of the conflict-set methods (criterion):
//! `cargo bench -p polyalloc-tests --bench hot_paths`.
//!
//! * `generators/<example>`: the double description of every conflict polyhedron of
//!   the example (the generator form of Farkas' lemma, `polyalloc_formulation::generators`);
//! * `width-rows/<example>`: the rows of the parametric width bound `u . P + w >= |h . (s - t)|`
//!   on every polyhedron, multipliers eliminated (`polyalloc_alloc::width`), and the same
//!   with Farkas multipliers, for comparison;
//! * `lex/<example>`: a lexicographic solve of the width model on microlp with the model
//!   kept between stages (`Incremental`) and rebuilt for every stage.

use criterion::{criterion_group, criterion_main, Criterion};
use polyalloc_alloc::pieces::conflict_polyhedra;
use polyalloc_alloc::width::{bound_on_piece_with, BoundVars};
use polyalloc_formulation::farkas::Linearizer;
use polyalloc_formulation::BasicSet;
use polyalloc_ilp::{LexSolve, LinExpr, Model, RawSolution, SolveError, SolveOptions, Solver, VarId};
use polyalloc_suite::{default_dir, load_dir};

/// A solver with its `Incremental` capability hidden (every stage rebuilt).
struct Rebuilding<'a>(&'a dyn Solver);

impl Solver for Rebuilding<'_> {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn solve_raw(&self, m: &Model, o: &SolveOptions) -> Result<RawSolution, SolveError> {
        self.0.solve_raw(m, o)
    }
}

/// The width model of Heuristic 1 / lefe along a free hyperplane with `|h_j| <= 4`.
fn width_model(pieces: &[BasicSet], params: &[String], eliminate: bool) -> (Model, Vec<LinExpr>) {
    let n = pieces.first().map_or(0, |p| p.space().n_out());
    let mut m = Model::new("width");
    let h: Vec<VarId> = (0..n).map(|j| m.add_integer(format!("h{j}"), Some(-4), Some(4))).collect();
    let hl: Vec<LinExpr> = h.iter().map(|&v| LinExpr::from(v)).collect();
    let bound = BoundVars::add(&mut m, params, "");
    let mut lin = Linearizer::new();
    for (i, p) in pieces.iter().enumerate() {
        if eliminate {
            bound_on_piece_with(&mut lin, &mut m, p, &hl, &bound, &format!("K{i}")).expect("rows");
        } else {
            polyalloc_alloc::width::bound_on_piece(&mut m, p, &hl, &bound, &format!("K{i}")).expect("rows");
        }
    }
    // h != 0 is not needed for a benchmark: minimise the bound, then the first coefficient.
    let mut objectives = bound.objectives();
    objectives.push(LinExpr::from(h[0]));
    (m, objectives)
}

fn hot_paths(c: &mut Criterion) {
    let solver = polyalloc_solvers::registry().create("microlp").expect("microlp");
    for ex in load_dir(&default_dir()).expect("bench-suite loads") {
        if !ex.id.starts_with("smo-") {
            continue;
        }
        for array in ex.allocatable_arrays() {
            let Ok(problem) = ex.problem(&array) else { continue };
            let Ok(pieces) = conflict_polyhedra(&problem, solver.as_ref(), "bench") else { continue };
            let params = problem.params().to_vec();
            c.bench_function(&format!("generators/{}", ex.id), |b| {
                b.iter(|| pieces.iter().map(|p| p.generators(2_000).map(|g| g.len())).collect::<Vec<_>>())
            });
            let mut group = c.benchmark_group(format!("width-rows/{}", ex.id));
            group.bench_function("generators", |b| b.iter(|| width_model(&pieces, &params, true).0.num_constraints()));
            group.bench_function("multipliers", |b| {
                b.iter(|| {
                    // nonneg_on without elimination: the Farkas multipliers.
                    let n = pieces.first().map_or(0, |p| p.space().n_out());
                    let mut m = Model::new("width");
                    let h: Vec<LinExpr> = (0..n).map(|j| LinExpr::from(m.add_integer(format!("h{j}"), Some(-4), Some(4)))).collect();
                    let bound = BoundVars::add(&mut m, &params, "");
                    for p in &pieces {
                        for sign in [-1i64, 1] {
                            let mut f = polyalloc_alloc::width::diff_form(p.space(), &h, sign);
                            for (k, &u) in bound.u.iter().enumerate() {
                                f.coeffs[k] = f.coeffs[k].clone() + LinExpr::from(u);
                            }
                            f.constant = LinExpr::from(bound.w);
                            let opts = polyalloc_formulation::farkas::FarkasOptions { eliminate_multipliers: false, ..Default::default() };
                            polyalloc_formulation::farkas::nonneg_on(&mut m, p, &f, &opts).expect("rows");
                        }
                    }
                    m.num_constraints()
                })
            });
            group.finish();
            let (model, objectives) = width_model(&pieces, &params, true);
            let mut group = c.benchmark_group(format!("lex/{}", ex.id));
            group.sample_size(20);
            group.bench_function("kept", |b| b.iter(|| solver.lex_minimize(&model, &objectives, &SolveOptions::default()).map(|l| l.optima)));
            group.bench_function("rebuilt", |b| {
                b.iter(|| Rebuilding(solver.as_ref()).lex_minimize(&model, &objectives, &SolveOptions::default()).map(|l| l.optima))
            });
            group.finish();
        }
    }
}

criterion_group!(benches, hot_paths);
criterion_main!(benches);
