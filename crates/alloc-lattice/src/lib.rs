//! # polyalloc-alloc-lattice: extended lattice-based allocation
//!
//! Darte, Isoard and Yuki, "Extended Lattice-Based Memory Allocation"
//! (`001_fde2f8b9768b9541.txt`), Sec. 3 and 4, for conflict sets given as unions of
//! polyhedra. Three methods, each an [`Allocator`]:
//!
//! * [`LatticeH1`] (`lattice-h1`): **Heuristic 1**, basis selection in mapping space
//!   (Sec. 4.1): greedy mapping vectors `c_i` minimising the parametric width
//!   `F_i*(c)` over every piece of the union (equation (1), Farkas' lemma), linear
//!   independence and unimodularity by Hermite-form completion (Sec. 4.1.2), widths
//!   minimised lexicographically by parameter priority (Sec. 4.1.3). See [`h1`].
//! * [`LatticeH2`] (`lattice-h2`): **Heuristic 2**, basis selection in lattice space
//!   (Sec. 4.2), constant part only: parameters projected out of `K` (Sec. 4.2.3),
//!   star-shaped extension by Fourier–Motzkin (Sec. 4.2.4), extrusions `K_i`, the
//!   shortest integer vector outside `K_i` (infinity norm, Manhattan norm, AUOV
//!   tie-break; Sec. 4.2.1, 5.2), scaling factors `rho_i`. The mapping is
//!   `(A^{-1} x) mod rho` on the reuse vectors found; when it stops before `n` vectors
//!   (no constant reuse vector left), the remaining rows of `A^{-1}` are left
//!   **unfolded** (modulus `None`, size `None`): that is how it reports stopping. See
//!   [`h2`].
//! * [`Lattice`] (`lattice`): **Heuristic 3** (Sec. 4.3), the paper's "Lattice" column:
//!   constant reuse vectors by Heuristic 2, then Heuristic 1 restricted to the lattice
//!   of the last rows of `A^{-1}` (the orthogonal of the reuse vectors) on the original
//!   parametric `K`.
//!
//! And one [`polyalloc_alloc::Method`] beyond the heuristics:
//!
//! * [`LatticeExact`] (`lattice-exact`): the **least** strictly admissible lattice at
//!   one instance of the parameters (the enumeration of Hermite bases Sec. 4.2 mentions
//!   and sets aside), with the mapping whose kernel it is: the smallest modular mapping
//!   there is at that instance, claimed at that instance only. See [`exact`].
//!
//! Choices the paper leaves open, made here and documented:
//! * Rows with modulus exactly 1 (a reuse vector with `rho = 1`) are dropped: they map
//!   everything to 0.
//! * In Heuristic 3 the first rows (rows of `A^{-1}` for the reuse vectors) are only
//!   determined up to adding integer combinations of the Heuristic-1 rows (Theorem 3's
//!   proof only uses `c_j . x = 0` there). Each is replaced by the combination
//!   `r + sum X_j c_j` (`|X_j| <= 2`) of smallest `L1` norm, ties broken by the
//!   lexicographically smallest vector of absolute values (e.g. `(0, 1)` before
//!   `(1, 0)`), so that the basis completion does not leak into the printed mapping.
//! * Search boxes: mapping vectors `|c_q| <= 8`, `|lambda| <= 8`; reuse vectors
//!   `|l_q| <= 8` (all configurable).
//! * The integer linear algebra (`polyalloc_formulation::int::lin`: Hermite normal form, unimodular
//!   completion, inverse) lives in this crate for now; the issue puts it in the
//!   formulation crate.

pub mod exact;
pub mod h1;
pub mod h2;

pub use exact::{LatticeExact, LatticeExactDetails};
/// The integer linear algebra lives in the formulation crate.
use h1::{heuristic1, H1Options};
use h2::{heuristic2, star_shaped_differences, H2Options, H2Result};
use polyalloc_alloc::pieces::{cell_polyhedra, conflict_polyhedra};
use polyalloc_alloc::{AllocError, Allocator, Problem};
use polyalloc_formulation::{AffExpr, ModularMapping, Space, StorageRow};
use polyalloc_ilp::Solver;

fn identity(n: usize) -> Vec<Vec<i64>> {
    (0..n).map(|i| (0..n).map(|j| i64::from(i == j)).collect()).collect()
}

/// Heuristic 1 (`lattice-h1`).
#[derive(Clone, Debug, Default)]
pub struct LatticeH1 {
    pub options: H1Options,
}

const H1_NAME: &str = "lattice-h1";
const H2_NAME: &str = "lattice-h2";
const H3_NAME: &str = "lattice";

impl Allocator for LatticeH1 {
    fn name(&self) -> &'static str {
        H1_NAME
    }
    fn summary(&self) -> &'static str {
        "lattice Heuristic 1: greedy mapping vectors of minimal parametric width, unimodular basis (Darte, Isoard, Yuki 2015, Sec. 4.1)"
    }
    fn find_mapping(&self, problem: &Problem, solver: &dyn Solver) -> Result<ModularMapping, AllocError> {
        let params: Vec<String> = problem.params().to_vec();
        let psp = problem.param_space();
        let n = problem.n_dims();
        let pieces = conflict_polyhedra(problem, solver, H1_NAME)?;
        let cells = cell_polyhedra(problem, H1_NAME)?;
        let res = heuristic1(pieces, &cells, &identity(n), &params, &psp, solver, &self.options, H1_NAME)?;
        if !res.remaining.is_empty() {
            return Err(AllocError::method(
                H1_NAME,
                format!("{n} independent mapping vectors found but conflicts remain: the conflict set contains a pair of equal cells"),
            ));
        }
        let rows = res.rows.into_iter().map(|r| StorageRow { hyperplane: r.hyperplane, modulus: Some(r.modulus) }).collect();
        let refs: Vec<&str> = params.iter().map(String::as_str).collect();
        ModularMapping::new(&refs, problem.array_tuple(), rows).map_err(AllocError::formulation(H1_NAME))
    }
}

/// Heuristic 2 (`lattice-h2`), constant reuse vectors only.
#[derive(Clone, Debug, Default)]
pub struct LatticeH2 {
    pub options: H2Options,
}

impl LatticeH2 {
    /// Runs Heuristic 2 and returns its basis, scaling factors and reuse vectors.
    pub fn run(&self, problem: &Problem, solver: &dyn Solver) -> Result<H2Result, AllocError> {
        run_h2(problem, solver, &self.options, H2_NAME)
    }
}

fn run_h2(problem: &Problem, solver: &dyn Solver, opts: &H2Options, method: &str) -> Result<H2Result, AllocError> {
    let star = star_shaped_differences(problem, solver, method)?;
    heuristic2(&star, problem.n_dims(), solver, opts, method)
}

fn constant(psp: &Space, c: i64) -> AffExpr {
    AffExpr::constant(psp, c)
}

impl Allocator for LatticeH2 {
    fn name(&self) -> &'static str {
        H2_NAME
    }
    fn summary(&self) -> &'static str {
        "lattice Heuristic 2: shortest constant reuse vectors outside the extrusions of K (Darte, Isoard, Yuki 2015, Sec. 4.2); unfolded rows where it stops"
    }
    fn find_mapping(&self, problem: &Problem, solver: &dyn Solver) -> Result<ModularMapping, AllocError> {
        let params: Vec<String> = problem.params().to_vec();
        let psp = problem.param_space();
        let res = self.run(problem, solver)?;
        let k = res.rho.len();
        let mut rows = Vec::new();
        for (j, row) in res.inverse.iter().enumerate() {
            if j < k {
                if res.rho[j] != 1 {
                    rows.push(StorageRow { hyperplane: row.clone(), modulus: Some(constant(&psp, res.rho[j])) });
                }
            } else {
                rows.push(StorageRow { hyperplane: row.clone(), modulus: None });
            }
        }
        let refs: Vec<&str> = params.iter().map(String::as_str).collect();
        ModularMapping::new(&refs, problem.array_tuple(), rows).map_err(AllocError::formulation(H2_NAME))
    }
}

/// Heuristic 3 (`lattice`), the paper's "Lattice" column.
#[derive(Clone, Debug, Default)]
pub struct Lattice {
    pub h1: H1Options,
    pub h2: H2Options,
}

/// `r + sum X_j c_j` with `|X_j| <= 2` of smallest `(L1 norm, |entries|)`.
pub fn reduce_against(r: &[i64], cs: &[Vec<i64>]) -> Vec<i64> {
    let key = |v: &[i64]| -> (i64, Vec<i64>) { (v.iter().map(|x| x.saturating_abs()).sum(), v.iter().map(|x| x.saturating_abs()).collect()) };
    let mut best = r.to_vec();
    let mut best_key = key(&best);
    let k = cs.len();
    let total = 5usize.pow(k as u32);
    for code in 0..total {
        let mut v = r.to_vec();
        let mut c = code;
        for cj in cs {
            let x = (c % 5) as i64 - 2;
            c /= 5;
            for (vi, &ci) in v.iter_mut().zip(cj) {
                *vi = vi.saturating_add(x.saturating_mul(ci));
            }
        }
        let kv = key(&v);
        if kv < best_key {
            best_key = kv;
            best = v;
        }
    }
    h1::normalise_sign(&mut best);
    best
}

impl Allocator for Lattice {
    fn name(&self) -> &'static str {
        H3_NAME
    }
    fn summary(&self) -> &'static str {
        "lattice Heuristic 3: constant reuse vectors (Heuristic 2) then parametric widths in their orthogonal (Heuristic 1) (Darte, Isoard, Yuki 2015, Sec. 4.3)"
    }
    fn find_mapping(&self, problem: &Problem, solver: &dyn Solver) -> Result<ModularMapping, AllocError> {
        let params: Vec<String> = problem.params().to_vec();
        let psp = problem.param_space();
        let h2 = run_h2(problem, solver, &self.h2, H3_NAME)?;
        let k = h2.rho.len();
        let search: Vec<Vec<i64>> = h2.inverse[k..].to_vec();
        let pieces = conflict_polyhedra(problem, solver, H3_NAME)?;
        let cells = cell_polyhedra(problem, H3_NAME)?;
        let res = heuristic1(pieces, &cells, &search, &params, &psp, solver, &self.h1, H3_NAME)?;
        let c_rows: Vec<Vec<i64>> = res.rows.iter().map(|r| r.hyperplane.clone()).collect();
        let mut rows = Vec::new();
        for j in 0..k {
            if h2.rho[j] != 1 {
                let h = reduce_against(&h2.inverse[j], &c_rows);
                rows.push(StorageRow { hyperplane: h, modulus: Some(constant(&psp, h2.rho[j])) });
            }
        }
        for r in res.rows {
            rows.push(StorageRow { hyperplane: r.hyperplane, modulus: Some(r.modulus) });
        }
        let refs: Vec<&str> = params.iter().map(String::as_str).collect();
        ModularMapping::new(&refs, problem.array_tuple(), rows).map_err(AllocError::formulation(H3_NAME))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyalloc_backend_microlp::MicrolpSolver;

    use crate::h2::tests::reverse_l;

    #[test]
    fn heuristic1_on_the_reverse_l_is_the_canonical_basis() {
        // 001 Fig. 2: c_1 = (0, 1) then c_2 = (1, 0) (or the converse), both widths N - 1.
        let solver = MicrolpSolver;
        let p = reverse_l();
        let params = p.params().to_vec();
        let psp = p.param_space();
        let pieces = conflict_polyhedra(&p, &solver, "test").unwrap();
        let r = heuristic1(pieces, &[], &identity(2), &params, &psp, &solver, &H1Options::default(), "test").unwrap();
        assert!(r.remaining.is_empty());
        let n = AffExpr::parse(&psp, "N").unwrap();
        let mut hs: Vec<Vec<i64>> = r.rows.iter().map(|x| x.hyperplane.clone()).collect();
        hs.sort();
        assert_eq!(hs, vec![vec![0, 1], vec![1, 0]]);
        assert!(r.rows.iter().all(|x| x.modulus == n));
    }

    #[test]
    fn heuristic1_restricted_to_the_orthogonal_of_the_reuse_vector() {
        // 001 Sec. 5.1: searching in the direction (-1, 1) (second row of the inverse of
        // [[1, 1], [1, 0]]) gives the width 2N - 2, i.e. modulus 2N - 1.
        let solver = MicrolpSolver;
        let p = reverse_l();
        let params = p.params().to_vec();
        let psp = p.param_space();
        let pieces = conflict_polyhedra(&p, &solver, "test").unwrap();
        let r = heuristic1(pieces, &[], &[vec![1, -1]], &params, &psp, &solver, &H1Options::default(), "test").unwrap();
        assert_eq!(r.rows.len(), 1);
        assert_eq!(r.rows[0].hyperplane, vec![-1, 1]);
        assert_eq!(r.rows[0].modulus, AffExpr::parse(&psp, "2N - 1").unwrap());
        // The differences (1, 1) remain (they are separated by y mod 2).
        assert!(!r.remaining.is_empty());
    }

    #[test]
    fn first_rows_are_reduced_against_the_mapping_vectors() {
        // (1, 0) - (1, -1) = (0, 1): same L1 norm, smaller vector of absolute values.
        assert_eq!(reduce_against(&[1, 0], &[vec![1, -1]]), vec![0, 1]);
        // (1, 2) - 2 (0, 1) = (1, 0).
        assert_eq!(reduce_against(&[1, 2], &[vec![0, 1]]), vec![1, 0]);
        assert_eq!(reduce_against(&[3, 1], &[]), vec![3, 1]);
    }
}
