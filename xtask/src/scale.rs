//! `cargo xtask bench --scale`: how the conflict-set methods and the ILP backends grow
//! with the size of the conflict set.
//!
//! The paper examples are small (at most a few dozen conflict polyhedra in at most four
//! dimensions), so they cannot say where a backend stops being fast or where HiGHS and
//! CBC overtake the built-in microlp. This suite generates **parametric conflict sets of
//! growing size** — array dimensions `n` = 1 to 6, `l` = 1 to 64 conflict polyhedra —
//! deterministically from a fixed seed, runs every conflict-set method on every
//! backend, and records the solve time and the size of the ILPs. It is a benchmark
//! generator, not a fuzzer: the same `(n, l)` always gives the same set, and the set of
//! size `l` contains the polyhedra of every smaller size (polyhedron `k` depends only
//! on `n`, `k` and the seed), so growth is measured on nested families.
//!
//! The polyhedra look like those of tiled stencils and pipelines: over an array
//! `A[x_0, ..., x_{n-1}]` with `0 <= x_j < N`, a polyhedron of conflicts `(s, t)` (half
//! form: `t` written later) has a leading dimension `p` with `t_j = s_j` before it,
//! `1 <= t_p - s_p <= r` (`r` a small constant or `N - 1`), and on the dimensions after
//! `p` either a bounded difference window (`-a <= t_j - s_j <= b`), no constraint, or a
//! live-out face (`s_j = N - 1`).

use crate::results::{ScaleRecord, Spread};
use polyalloc::run::{Backend, Failure, RunOptions};
use polyalloc::{AllocError, Input, MethodError};
use polyalloc_alloc::Problem;
use polyalloc_formulation::{BasicSet, ConflictForm, ConflictSet};
use std::time::Duration;

/// The fixed seed of the suite.
pub const SEED: u64 = 0x5eed_0017;
/// Array dimensions.
pub const DIMS: std::ops::RangeInclusive<usize> = 1..=6;
/// Numbers of conflict polyhedra.
pub const PIECES: [usize; 7] = [1, 2, 4, 8, 16, 32, 64];

/// A small deterministic generator (xorshift64*).
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `0..m`.
    pub(crate) fn below(&mut self, m: u64) -> u64 {
        self.next() % m.max(1)
    }
}

/// The constraints (isl text) of conflict polyhedron `k` of an `n`-dimensional array.
fn polyhedron(n: usize, k: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed ^ ((n as u64) << 32) ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let p = rng.below(n as u64) as usize;
    let mut cons = Vec::new();
    for j in 0..p {
        cons.push(format!("t{j} = s{j}"));
    }
    let reach = match rng.below(4) {
        0 => "N - 1".to_string(),
        r => r.to_string(),
    };
    cons.push(format!("t{p} >= s{p} + 1 and t{p} <= s{p} + {reach}"));
    for j in p + 1..n {
        match rng.below(4) {
            0 => {}
            1 => cons.push(format!("s{j} = N - 1")),
            _ => {
                let a = rng.below(3);
                let b = rng.below(3);
                cons.push(format!("t{j} >= s{j} - {a} and t{j} <= s{j} + {b}"));
            }
        }
    }
    cons.join(" and ")
}

/// The conflict set with `pieces` polyhedra over an `n`-dimensional array, as isl text.
pub fn conflict_text(n: usize, pieces: usize, seed: u64) -> String {
    let s: Vec<String> = (0..n).map(|j| format!("s{j}")).collect();
    let t: Vec<String> = (0..n).map(|j| format!("t{j}")).collect();
    let bounds: Vec<String> = s.iter().chain(&t).map(|v| format!("0 <= {v} < N")).collect();
    let disj: Vec<String> = (0..pieces).map(|k| format!("({})", polyhedron(n, k, seed))).collect();
    format!("[N] -> {{ A[{}] -> A[{}] : {} and ({}) }}", s.join(", "), t.join(", "), bounds.join(" and "), disj.join(" or "))
}

/// The problem of size `(n, pieces)`: the conflict set, `N >= 4`, instances N = 4 and 6.
pub fn problem(n: usize, pieces: usize, seed: u64) -> Result<Problem, polyalloc_formulation::Error> {
    let conflicts = ConflictSet::parse(&conflict_text(n, pieces, seed), ConflictForm::Half)?;
    let space_dims: Vec<String> = (0..n).map(|j| format!("s{j}")).collect();
    let space = polyalloc_formulation::Set::parse(&format!(
        "[N] -> {{ A[{}] : {} }}",
        space_dims.join(", "),
        space_dims.iter().map(|v| format!("0 <= {v} < N")).collect::<Vec<_>>().join(" and ")
    ))?;
    Ok(Problem {
        example: format!("scale-n{n}-l{pieces}"),
        conflicts,
        context: Some(BasicSet::parse("[N] -> { : N >= 4 }")?),
        space: Some(space),
        instances: vec![vec![4], vec![6]],
    })
}

/// Options of a scale run.
#[derive(Clone, Debug)]
pub struct Options {
    pub methods: Vec<String>,
    /// Runs per measurement.
    pub repeat: usize,
    /// Budget of one run; a (method, backend, dims) stops growing after a run over it.
    pub time_limit: Duration,
    pub dims: Vec<usize>,
    pub pieces: Vec<usize>,
}

/// The status of a run that gave no verified mapping: the solver's kind for a solver
/// failure (`time-budget`, `infeasible`, ...), `invalid: <refutation>`, or the kind of
/// method error.
fn failure_status(f: &Failure) -> String {
    match f {
        Failure::Method(MethodError::Solver(e)) => e.kind().to_string(),
        Failure::Check { error: AllocError::Solver { source, .. }, .. } => source.kind().to_string(),
        Failure::Refuted { error: AllocError::Invalid { refutation, .. }, .. } => format!("invalid: {}", refutation.kind()),
        Failure::Method(MethodError::NotApplicable(_)) => "not-applicable".into(),
        Failure::Method(MethodError::Formulation(_)) => "formulation".into(),
        Failure::Method(_) => "method".into(),
        other => other.kind().to_string(),
    }
}

/// Runs the suite on `backends`, every run through the facade's one door
/// ([`polyalloc::run::run`], which verifies the mapping). `progress` is called once
/// per run.
pub fn run(opts: &Options, backends: &[Backend], progress: &dyn Fn(&str)) -> Vec<ScaleRecord> {
    let registry = polyalloc::registry();
    let mut out = Vec::new();
    for &n in &opts.dims {
        for m in &opts.methods {
            let (Some(_), Some(runner)) = (registry.allocator(m), registry.get(m)) else { continue };
            for backend in backends {
                let bname = &backend.name;
                for &l in &opts.pieces {
                    progress(&format!("n={n} l={l} {m} {bname}"));
                    let Ok(problem) = problem(n, l, SEED) else { continue };
                    let input = Input::from_problem("A", problem);
                    let mut rec = ScaleRecord {
                        dims: n,
                        pieces: l,
                        method: m.clone(),
                        backend: bname.clone(),
                        status: "ok".into(),
                        repeat: opts.repeat.max(1),
                        ok_runs: 0,
                        solve_ms: None,
                        solver_ms: None,
                        method_ms: None,
                        ilps: 0,
                        max_vars: 0,
                        max_constraints: 0,
                        size: None,
                    };
                    let (mut solve, mut solver_only, mut method) = (Vec::new(), Vec::new(), Vec::new());
                    let mut over = false;
                    for run in 0..rec.repeat {
                        let ro = RunOptions { time_limit: Some(opts.time_limit), ..RunOptions::default() };
                        match polyalloc::run::run(&input, runner, "A", backend, ro) {
                            Ok(a) => {
                                rec.ok_runs += 1;
                                solve.push(a.ilps.iter().map(|r| r.elapsed).sum::<Duration>().as_secs_f64() * 1e3);
                                method.push(a.method_time.as_secs_f64() * 1e3);
                                let pure: Vec<Duration> = a.ilps.iter().filter_map(|s| s.times.map(|t| t.solve)).collect();
                                if pure.len() == a.ilps.len() {
                                    solver_only.push(pure.iter().sum::<Duration>().as_secs_f64() * 1e3);
                                }
                                if run == 0 {
                                    rec.ilps = a.ilps.len();
                                    rec.max_vars = a.ilps.iter().map(|s| s.num_vars).max().unwrap_or(0);
                                    rec.max_constraints = a.ilps.iter().map(|s| s.num_constraints).max().unwrap_or(0);
                                    rec.size = a.size.as_ref().map(|s| s.to_string());
                                }
                                over |= a.method_time + a.verify_time > opts.time_limit;
                            }
                            Err(e) => {
                                rec.status = failure_status(&e.failure);
                                over = true;
                                break;
                            }
                        }
                    }
                    rec.solve_ms = Spread::of(&solve);
                    rec.solver_ms = Spread::of(&solver_only);
                    rec.method_ms = Spread::of(&method);
                    out.push(rec);
                    if over {
                        // Larger sets of this dimension would only take longer.
                        break;
                    }
                }
            }
        }
    }
    out
}

/// A run is "fast" when its median solve time is at most this (milliseconds).
pub const FAST_MS: f64 = 100.0;

fn median(s: &Option<Spread>) -> Option<f64> {
    s.as_ref().map(|x| x.median)
}

/// The measured answers to the suite's questions, in words: per method and backend the
/// largest set solved fast, and where HiGHS or CBC first solve faster than microlp.
pub fn findings(records: &[ScaleRecord]) -> Vec<String> {
    let mut out = Vec::new();
    let mut methods: Vec<&str> = records.iter().map(|r| r.method.as_str()).collect();
    methods.dedup();
    methods.sort();
    methods.dedup();
    let mut backends: Vec<&str> = records.iter().map(|r| r.backend.as_str()).collect();
    backends.sort();
    backends.dedup();
    for m in &methods {
        for b in &backends {
            let rs: Vec<&ScaleRecord> = records.iter().filter(|r| r.method == *m && r.backend == *b).collect();
            if rs.is_empty() {
                continue;
            }
            let fast = rs.iter().filter(|r| r.status == "ok" && median(&r.solve_ms).is_some_and(|t| t <= FAST_MS));
            let largest = fast.max_by_key(|r| (r.dims * r.pieces, r.pieces));
            let first_slow = rs
                .iter()
                .filter(|r| r.status != "ok" || median(&r.solve_ms).is_some_and(|t| t > FAST_MS))
                .min_by_key(|r| (r.dims * r.pieces, r.pieces));
            out.push(format!(
                "`{m}` on {b}: {}{}",
                largest.map_or("never within 100 ms".to_string(), |r| format!("within {FAST_MS} ms up to n = {}, l = {}", r.dims, r.pieces)),
                first_slow.map_or(String::from(", on every size run"), |r| format!(
                    "; first over it at n = {}, l = {} ({})",
                    r.dims,
                    r.pieces,
                    if r.status == "ok" { format!("{:.0} ms", median(&r.solve_ms).unwrap_or(0.0)) } else { r.status.clone() }
                )),
            ));
        }
        for b in backends.iter().filter(|b| **b != "microlp") {
            let mut wins: Vec<(usize, usize)> = Vec::new();
            for r in records.iter().filter(|r| r.method == *m && r.backend == *b && r.status == "ok") {
                let base = records.iter().find(|x| x.method == *m && x.backend == "microlp" && x.dims == r.dims && x.pieces == r.pieces);
                let faster = match base {
                    Some(x) if x.status == "ok" => median(&r.solve_ms) < median(&x.solve_ms),
                    Some(_) => true,
                    None => records.iter().any(|x| x.method == *m && x.backend == "microlp" && x.dims == r.dims),
                };
                if faster {
                    wins.push((r.dims, r.pieces));
                }
            }
            if records.iter().any(|x| x.method == *m && x.backend == "microlp") {
                out.push(if wins.is_empty() {
                    format!("`{m}`: {b} is never faster than microlp on the sizes run")
                } else {
                    let first = wins.iter().min_by_key(|(n, l)| (n * l, *l)).copied().unwrap_or_default();
                    format!("`{m}`: {b} faster than microlp on {} of the sizes, first at n = {}, l = {}", wins.len(), first.0, first.1)
                });
            }
        }
    }
    out
}

/// The scale section of the bench Markdown (empty without records).
pub fn markdown(records: &[ScaleRecord]) -> String {
    use std::fmt::Write;
    if records.is_empty() {
        return String::new();
    }
    let mut s = String::from("\n### Scale suite\n\n");
    let _ = writeln!(
        s,
        "Generated conflict sets (`xtask/src/scale.rs`, seed {SEED:#x}): n array dimensions, l conflict polyhedra. Solve time = every ILP of the method (median over the runs); solver = the backends' solve calls alone; model = the largest ILP.\n"
    );
    for f in findings(records) {
        let _ = writeln!(s, "* {f}");
    }
    s.push('\n');
    let mut t =
        crate::md::Table::new(&["n", "l", "method", "backend", "status", "solve ms", "solver ms", "method ms", "ILPs", "largest ILP (vars x rows)"]);
    let f = |x: &Option<Spread>| x.as_ref().map_or("-".to_string(), |v| format!("{:.2}", v.median));
    for r in records {
        t.row(vec![
            r.dims.to_string(),
            r.pieces.to_string(),
            r.method.clone(),
            r.backend.clone(),
            r.status.clone(),
            f(&r.solve_ms),
            f(&r.solver_ms),
            f(&r.method_ms),
            r.ilps.to_string(),
            format!("{} x {}", r.max_vars, r.max_constraints),
        ]);
    }
    s.push_str(&t.render());
    s
}

/// The plots of the scale suite: solve time, and model size, against the number of
/// conflict polyhedra, one panel per method, one line per (backend, dimension).
pub fn svgs(records: &[ScaleRecord]) -> (String, String) {
    use crate::svg::{line_panels, Line, Panel};
    let mut methods: Vec<String> = records.iter().map(|r| r.method.clone()).collect();
    methods.sort();
    methods.dedup();
    let mut backends: Vec<String> = records.iter().map(|r| r.backend.clone()).collect();
    backends.sort();
    backends.dedup();
    let mut dims: Vec<usize> = records.iter().map(|r| r.dims).collect();
    dims.sort();
    dims.dedup();
    let mut time_panels = Vec::new();
    let mut size_panels = Vec::new();
    for m in &methods {
        let mut tl = Vec::new();
        let mut sl = Vec::new();
        for b in &backends {
            for &n in &dims {
                let pts: Vec<(f64, f64)> = records
                    .iter()
                    .filter(|r| &r.method == m && &r.backend == b && r.dims == n && r.status == "ok")
                    .filter_map(|r| median(&r.solve_ms).map(|t| (r.pieces as f64, t.max(1e-3))))
                    .collect();
                if !pts.is_empty() {
                    tl.push(Line { series: b.clone(), label: format!("n={n}"), points: pts });
                }
            }
        }
        // Model size does not depend on the backend: the first backend's.
        if let Some(b) = backends.first() {
            for &n in &dims {
                let pts: Vec<(f64, f64)> = records
                    .iter()
                    .filter(|r| &r.method == m && &r.backend == b && r.dims == n && r.status == "ok" && r.max_vars > 0)
                    .map(|r| (r.pieces as f64, (r.max_vars + r.max_constraints) as f64))
                    .collect();
                if !pts.is_empty() {
                    sl.push(Line { series: format!("n={n}"), label: format!("n={n}"), points: pts });
                }
            }
        }
        time_panels.push(Panel { title: m.clone(), lines: tl });
        size_panels.push(Panel { title: m.clone(), lines: sl });
    }
    let dim_series: Vec<String> = dims.iter().map(|n| format!("n={n}")).collect();
    (
        line_panels("Scale suite: ILP solve time against conflict polyhedra (median)", "conflict polyhedra l", "ms", &time_panels, &backends),
        line_panels("Scale suite: size of the largest ILP (variables + rows)", "conflict polyhedra l", "vars + rows", &size_panels, &dim_series),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_sets_are_deterministic_nested_and_parse() {
        for n in DIMS {
            let small = conflict_text(n, 4, SEED);
            assert_eq!(small, conflict_text(n, 4, SEED));
            let big = conflict_text(n, 8, SEED);
            for k in 0..4 {
                assert!(big.contains(&format!("({})", polyhedron(n, k, SEED))));
            }
            let p = problem(n, 8, SEED).expect("parses");
            assert_eq!(p.n_dims(), n);
        }
        assert_ne!(conflict_text(3, 8, SEED), conflict_text(3, 8, SEED + 1));
    }
}
