//! # polyalloc-alloc-lefe: the successive modulo technique (baseline)
//!
//! Lefebvre and Feautrier's partial expansion as summarised in SMO
//! (`004_88cf68a96cc0018b.txt`, Sec. 2.1) and as Heuristic 1 of Darte, Isoard and Yuki
//! with the canonical basis (`001_fde2f8b9768b9541.txt`, Sec. 4.1). Along each canonical
//! axis `p` in order, the *contraction modulo* is `e_p = b_p + 1` where `b_p` is the
//! largest `p`-th component of a conflicting difference `s - t` among the conflicts whose
//! earlier components are equal (`DS_p`). The mapping is `A[x] -> A[x mod e]`.
//!
//! Parametric moduli: `b_p` is computed as the smallest affine bound `u . P + w` of
//! `|s_p - t_p|` over the conflict polyhedra of depth `p` (each `K` intersected with
//! `s_x = t_x` for `x < p`), linearised with Farkas' lemma and minimised
//! lexicographically by parameter priority `(u_1, ..., u_p, w)` (Darte et al. 2015, Sec. 4.1.3). The
//! bound holds on the rational points of each polyhedron, so it is exact for the integral
//! polyhedra of the paper examples and otherwise a safe over-approximation of the
//! integer lexicographic maximum. An axis along which no conflict remains gets modulus 1.
//! The bound is also kept non-negative wherever the array has a cell
//! ([`polyalloc_alloc::width::positive_on_cells`]): a modulus is at least 1 for every parameter value of the
//! context, also where no conflict exists.

use polyalloc_alloc::pieces::{cell_polyhedra, conflict_polyhedra, revise_all};
use polyalloc_alloc::width::constant_hyperplane_modulus;
use polyalloc_alloc::{AllocError, Allocator, Problem};
use polyalloc_formulation::StorageRow;
use polyalloc_formulation::{AffExpr, ModularMapping};
use polyalloc_ilp::{SolveOptions, Solver};

const NAME: &str = "lefe";

/// The successive modulo method.
#[derive(Clone, Debug, Default)]
pub struct Lefe {
    /// Options of every ILP solve.
    pub solve: SolveOptions,
}

impl Allocator for Lefe {
    fn name(&self) -> &'static str {
        NAME
    }

    fn summary(&self) -> &'static str {
        "successive modulo along the canonical axes (Lefebvre, Feautrier 1998, as described by Bhaskaracharya et al. 2016, Sec. 2.1)"
    }

    fn find_mapping(&self, problem: &Problem, solver: &dyn Solver) -> Result<ModularMapping, AllocError> {
        let fe = AllocError::formulation(NAME);
        let params: Vec<String> = problem.params().to_vec();
        let pnames: Vec<&str> = params.iter().map(String::as_str).collect();
        let param_space = problem.param_space();
        let n = problem.n_dims();
        let mut pieces = conflict_polyhedra(problem, solver, NAME)?;
        let cells = cell_polyhedra(problem, NAME)?;
        let mut rows = Vec::with_capacity(n);
        for axis in 0..n {
            let mut unit = vec![0i64; n];
            unit[axis] = 1;
            let modulus = if pieces.is_empty() {
                AffExpr::constant(&param_space, 1)
            } else {
                constant_hyperplane_modulus(&pieces, &cells, &unit, &params, &param_space, solver, &self.solve, NAME, &format!("lefe-axis-{axis}"))?
            };
            // The conflicts of the next depth have equal components up to this axis.
            pieces = revise_all(&pieces, &unit, solver, NAME)?;
            rows.push(StorageRow { hyperplane: unit, modulus: Some(modulus) });
        }
        ModularMapping::new(&pnames, problem.array_tuple(), rows).map_err(fe)
    }
}
