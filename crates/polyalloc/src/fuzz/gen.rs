//! Random cases for the fuzzing harness: conflict sets given explicitly (unions of
//! 1 to 4 conflict polyhedra over 1- to 3-dimensional arrays) and small programs
//! whose conflict sets polyalloc computes. Small coefficients, one parameter `N`, a
//! context `N >= m` with `m` from 1 to 3, and instances from the smallest value up,
//! where the array may have no cell at all and moduli are easily 0.
//!
//! A case keeps its own typed description (the oracle evaluates it directly) and
//! prints itself as a bench-suite file (what polyalloc reads, as a user's file).

/// A deterministic generator (SplitMix64): the same seed gives the same cases on
/// every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi - lo + 1).max(1) as u64;
        lo + (self.next_u64() % span) as i64
    }
    /// True with probability `percent / 100`.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
    /// The generator of case `index` of the campaign `seed`: every case its own stream,
    /// so that one case is rebuilt alone (`cargo xtask fuzz-input`).
    pub fn for_case(seed: u64, index: u64) -> Rng {
        let mut r = Rng(seed ^ 0x5851_F42D_4C95_7F2D);
        let base = r.next_u64();
        let mut r = Rng(base.wrapping_add(index.wrapping_mul(0xD1B5_4A32_D192_ED03)));
        r.next_u64();
        r
    }
    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
    /// One element of a non-empty list.
    pub fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }
    /// Log-uniform in `lo..=hi` (`1 <= lo <= hi`): small and large sizes equally often.
    pub fn log_range(&mut self, lo: usize, hi: usize) -> usize {
        let (l, h) = ((lo.max(1) as f64).ln(), (hi.max(lo).max(1) as f64).ln());
        let u = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        ((l + (h - l) * u).exp().round() as usize).clamp(lo, hi.max(lo))
    }
}

/// One affine constraint over the columns `[1, N, x_0..x_{n-1}, y_0..y_{n-1}]`
/// (cells `x`, `y` of a conflicting pair; a statement's iterators for programs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Coefficients: constant, `N`, then the variables.
    pub coeffs: Vec<i64>,
    /// `== 0` when true, `>= 0` otherwise.
    pub eq: bool,
}

/// A statement of a generated program: `S_k[i...] : 0 <= i... < N` writes
/// `A[row, i...]` (its own row `k`, or an earlier statement's: the cells are then
/// written twice, an overwrite) and reads cells of earlier rows (or of its own) at
/// small offsets.
#[derive(Clone, Debug)]
pub struct GenStmt {
    /// Number of iterators (1 or 2).
    pub dims: usize,
    /// The time of iteration `it`: `schedule . (1, it)` per time dimension.
    pub schedule: Vec<Vec<i64>>,
    /// Reads `A[row, it + offset]` (when the cell is inside the array).
    pub reads: Vec<(i64, Vec<i64>)>,
    /// The row of `A` it writes.
    pub row: i64,
    /// The reads are not guarded: cells outside the array's space are read too (the
    /// bench-suite format ignores those accesses).
    pub unguarded: bool,
}

/// A generated program over one array `A[k, i...]` of `1 + dims` dimensions.
#[derive(Clone, Debug)]
pub struct GenProgram {
    pub stmts: Vec<GenStmt>,
    /// The cells of the last statement are live-out.
    pub live_out_last: bool,
}

/// What a case gives polyalloc.
#[derive(Clone, Debug)]
pub enum Kind {
    /// An explicit conflict relation (half form), one entry per conflict polyhedron.
    Conflicts(Vec<Vec<Row>>),
    /// A program; polyalloc computes the conflict set.
    Program(GenProgram),
}

/// One fuzzing case.
#[derive(Clone, Debug)]
pub struct Case {
    /// `fuzz-<seed>-<index>`, also the bench-suite id.
    pub id: String,
    /// Array dimensions.
    pub n: usize,
    /// The context `N >= context_min`.
    pub context_min: i64,
    /// Cells: `0 <= x_j <= hi_j(N)` with `hi_j = extents[j].0 * N + extents[j].1`.
    pub extents: Vec<(i64, i64)>,
    pub kind: Kind,
    /// The values of `N` the oracle enumerates (also the file's instances).
    pub instances: Vec<i64>,
}

fn var_names(n: usize) -> (Vec<String>, Vec<String>) {
    ((0..n).map(|j| format!("x{j}")).collect(), (0..n).map(|j| format!("y{j}")).collect())
}

/// `c0 + cN N + sum c_k v_k` as isl text (explicit `*`, signs folded).
fn affine(coeffs: &[i64], names: &[&str]) -> String {
    let mut out = String::new();
    let mut term = |c: i64, name: Option<&str>| {
        if c == 0 {
            return;
        }
        let (sign, a) = if c < 0 { ("-", -c) } else { ("+", c) };
        let body = match (name, a) {
            (None, a) => a.to_string(),
            (Some(v), 1) => v.to_string(),
            (Some(v), a) => format!("{a}*{v}"),
        };
        if out.is_empty() {
            out = if sign == "-" { format!("-{body}") } else { body };
        } else {
            out = format!("{out} {sign} {body}");
        }
    };
    for (k, &c) in coeffs.iter().enumerate().skip(1) {
        term(c, Some(names[k - 1]));
    }
    term(coeffs[0], None);
    if out.is_empty() {
        "0".into()
    } else {
        out
    }
}

impl Case {
    /// The upper bound of dimension `j` at `N`.
    pub fn hi(&self, j: usize, n_value: i64) -> i64 {
        self.extents[j].0 * n_value + self.extents[j].1
    }

    fn dims(&self) -> Vec<String> {
        var_names(self.n).0
    }

    /// The array's data space in isl text.
    pub fn space_text(&self) -> String {
        let dims = self.dims();
        let bounds: Vec<String> =
            (0..self.n).map(|j| format!("0 <= {} <= {}", dims[j], affine(&[self.extents[j].1, self.extents[j].0], &["N"]))).collect();
        format!("[N] -> {{ A[{}] : {} }}", dims.join(", "), bounds.join(" and "))
    }

    /// The explicit conflict relation in isl text (for [`Kind::Conflicts`]).
    pub fn conflicts_text(&self) -> Option<String> {
        let Kind::Conflicts(polys) = &self.kind else { return None };
        let (xs, ys) = var_names(self.n);
        let mut names: Vec<&str> = vec!["N"];
        names.extend(xs.iter().map(String::as_str));
        names.extend(ys.iter().map(String::as_str));
        let pieces: Vec<String> = polys
            .iter()
            .map(|rows| {
                let mut cs: Vec<String> = Vec::new();
                for j in 0..self.n {
                    let hi = affine(&[self.extents[j].1, self.extents[j].0], &["N"]);
                    cs.push(format!("0 <= {} <= {hi}", xs[j]));
                    cs.push(format!("0 <= {} <= {hi}", ys[j]));
                }
                for r in rows {
                    cs.push(format!("{} {} 0", affine(&r.coeffs, &names), if r.eq { "=" } else { ">=" }));
                }
                format!("A[{}] -> A[{}] : {}", xs.join(", "), ys.join(", "), cs.join(" and "))
            })
            .collect();
        Some(format!("[N] -> {{ {} }}", pieces.join("; ")))
    }

    /// The program section (for [`Kind::Program`]).
    fn program_json(&self, p: &GenProgram) -> serde_json::Value {
        let mut statements = Vec::new();
        for (k, s) in p.stmts.iter().enumerate() {
            let it: Vec<String> = (0..s.dims).map(|d| ["i", "j"][d].to_string()).collect();
            let its = it.join(", ");
            let dom: Vec<String> = it.iter().map(|v| format!("0 <= {v} < N")).collect();
            let names: Vec<&str> = it.iter().map(String::as_str).collect();
            let sched: Vec<String> = s
                .schedule
                .iter()
                .map(|r| affine(&[r[0], 0].iter().chain(&r[1..]).copied().collect::<Vec<_>>(), &[&["N"], &names[..]].concat()))
                .collect();
            let mut reads = Vec::new();
            for (row, off) in &s.reads {
                let cells: Vec<String> = it.iter().zip(off).map(|(v, o)| affine(&[*o, 0, 1], &["N", v])).collect();
                if s.unguarded {
                    reads.push(format!("S{k}[{its}] -> A[{row}, {}]", cells.join(", ")));
                } else {
                    let guard: Vec<String> = cells.iter().map(|c| format!("0 <= {c} < N")).collect();
                    reads.push(format!("S{k}[{its}] -> A[{row}, {}] : {}", cells.join(", "), guard.join(" and ")));
                }
            }
            let mut st = serde_json::json!({
                "name": format!("S{k}"),
                "domain": format!("[N] -> {{ S{k}[{its}] : {} }}", dom.join(" and ")),
                "schedule": format!("[N] -> {{ S{k}[{its}] -> [{}] }}", sched.join(", ")),
                "writes": format!("[N] -> {{ S{k}[{its}] -> A[{}, {its}] }}", s.row),
            });
            if !reads.is_empty() {
                st["reads"] = format!("[N] -> {{ {} }}", reads.join("; ")).into();
            }
            statements.push(st);
        }
        let mut prog = serde_json::json!({ "statements": statements });
        if p.live_out_last {
            let last = p.stmts.len() - 1;
            let d = p.stmts[last].dims;
            let it: Vec<&str> = ["i", "j"][..d].to_vec();
            let dom: Vec<String> = it.iter().map(|v| format!("0 <= {v} < N")).collect();
            prog["live_out"] = format!("[N] -> {{ A[{last}, {}] : {} }}", it.join(", "), dom.join(" and ")).into();
        }
        prog
    }

    /// The case as a bench-suite file.
    pub fn to_json(&self) -> serde_json::Value {
        let mut array = serde_json::json!({ "space": self.space_text() });
        if let Some(c) = self.conflicts_text() {
            array["conflicts"] = c.into();
            array["conflicts_form"] = "half".into();
        }
        let mut ex = serde_json::json!({
            "id": self.id,
            "title": format!("fuzzing case {}", self.id),
            "source": {"paper": "none", "where": "polyalloc::fuzz"},
            "params": ["N"],
            "context": format!("[N] -> {{ : N >= {} }}", self.context_min),
            "arrays": { "A": array },
            "instances": self.instances.iter().map(|n| serde_json::json!({"N": n})).collect::<Vec<_>>(),
            "paper": [],
        });
        if let Kind::Program(p) = &self.kind {
            ex["program"] = self.program_json(p);
        }
        ex
    }
}

/// A random conflict polyhedron's own constraints (the array boxes of both cells are
/// added when printed and evaluated).
fn random_polyhedron(rng: &mut Rng, n: usize) -> Vec<Row> {
    let cols = 2 + 2 * n;
    let mut rows = Vec::new();
    for j in 0..n {
        // y_j - x_j in [lo, hi], hi constant or N - c: typical conflict shapes.
        if rng.chance(70) {
            let lo = rng.range(-2, 2);
            let mut r = vec![0; cols];
            r[2 + n + j] = 1;
            r[2 + j] = -1;
            r[0] = -lo;
            rows.push(Row { coeffs: r.clone(), eq: rng.chance(15) });
            if !rows.last().is_some_and(|r| r.eq) {
                let mut u = vec![0; cols];
                u[2 + n + j] = -1;
                u[2 + j] = 1;
                if rng.chance(40) {
                    u[1] = 1;
                    u[0] = -rng.range(1, 3);
                } else {
                    u[0] = lo + rng.range(0, 3);
                }
                rows.push(Row { coeffs: u, eq: false });
            }
        }
    }
    // Half form: the second cell no earlier in its first dimension, usually.
    if rng.chance(60) {
        let mut r = vec![0; cols];
        r[2 + n] = 1;
        r[2] = -1;
        rows.push(Row { coeffs: r, eq: false });
    }
    // One more random constraint with small coefficients.
    if rng.chance(50) {
        let mut r: Vec<i64> = (0..cols).map(|_| rng.range(-2, 2)).collect();
        r[0] = rng.range(-3, 3);
        r[1] = rng.range(-1, 1);
        rows.push(Row { coeffs: r, eq: false });
    }
    rows
}

fn random_program(rng: &mut Rng) -> (GenProgram, usize) {
    let dims = if rng.chance(25) { 2 } else { 1 };
    let n_stmts = rng.range(1, 3) as usize;
    let mut stmts = Vec::new();
    for k in 0..n_stmts {
        // Time: (k, i...) sequential, (i..., k) fused, or (i + shift, k) shifted.
        let mut schedule = Vec::new();
        match rng.range(0, 2) {
            0 => {
                schedule.push(std::iter::once(k as i64).chain(std::iter::repeat_n(0, dims)).collect());
                for d in 0..dims {
                    let mut r = vec![0; 1 + dims];
                    r[1 + d] = 1;
                    schedule.push(r);
                }
            }
            f => {
                for d in 0..dims {
                    let mut r = vec![0; 1 + dims];
                    r[1 + d] = 1;
                    if f == 2 && d == 0 {
                        r[0] = rng.range(0, 2);
                    }
                    schedule.push(r);
                }
                schedule.push(std::iter::once(k as i64).chain(std::iter::repeat_n(0, dims)).collect());
            }
        }
        let mut reads = Vec::new();
        for _ in 0..rng.range(0, 2) {
            let row = rng.range(0, k as i64);
            let off: Vec<i64> = (0..dims).map(|_| rng.range(-2, 1)).collect();
            reads.push((row, off));
        }
        stmts.push(GenStmt { dims, schedule, reads, row: k as i64, unguarded: false });
    }
    let live_out_last = rng.chance(60);
    // Overwrites (a statement writes an earlier statement's row) and reads of cells
    // outside the array.
    for (k, s) in stmts.iter_mut().enumerate().skip(1) {
        if rng.chance(20) {
            s.row = rng.range(0, k as i64 - 1);
        }
    }
    for s in &mut stmts {
        s.unguarded = rng.chance(25);
    }
    (GenProgram { stmts, live_out_last }, 1 + dims)
}

/// Case number `index` of the run with seed `seed`.
pub fn case(seed: u64, index: usize) -> Case {
    let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(index as u64));
    let context_min = rng.range(1, 3);
    let instances: Vec<i64> = (0..4).map(|k| context_min + k).collect();
    let id = format!("fuzz-{seed}-{index}");
    if rng.chance(25) {
        let (program, n) = random_program(&mut rng);
        let rows = program.stmts.len() as i64;
        let mut extents = vec![(0, rows - 1)];
        extents.extend(std::iter::repeat_n((1, -1), n - 1));
        return Case { id, n, context_min, extents, kind: Kind::Program(program), instances };
    }
    let n = rng.range(1, 3) as usize;
    // Extents N - 1 + e (e in -1..1: at the smallest N the array may be empty), or a
    // constant.
    let extents: Vec<(i64, i64)> = (0..n).map(|_| if rng.chance(15) { (0, rng.range(0, 3)) } else { (1, rng.range(-2, 0)) }).collect();
    let k = rng.range(1, 4) as usize;
    let polys = (0..k).map(|_| random_polyhedron(&mut rng, n)).collect();
    Case { id, n, context_min, extents, kind: Kind::Conflicts(polys), instances }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affine_text() {
        assert_eq!(affine(&[-1, 2, 0, -1], &["N", "x", "y"]), "2*N - y - 1");
        assert_eq!(affine(&[0, 0, 0], &["N", "x"]), "0");
        assert_eq!(affine(&[3, 0, -2], &["N", "x"]), "-2*x + 3");
    }

    #[test]
    fn cases_are_deterministic_and_parse() {
        for i in 0..50 {
            let a = case(7, i);
            let b = case(7, i);
            assert_eq!(a.to_json(), b.to_json());
            let text = a.to_json().to_string();
            let path = std::path::PathBuf::from(format!("fuzz/{}.json", a.id));
            let ex = polyalloc_suite::Example::from_str(&text, &path).unwrap_or_else(|e| panic!("{e}\n{text}"));
            ex.conflicts("A").unwrap_or_else(|e| panic!("{e}\n{text}"));
        }
    }
}
