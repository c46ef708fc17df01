//! # polyalloc-alloc-ov: occupancy vectors (Thies, Vivien, Amarasinghe)
//!
//! The method of paper Thies et al. 2007 ("A Step Towards Unifying Schedule and Storage
//! Optimization"), for programs in its domain (Sec. 4.1): single assignment, the
//! iteration space of each statement is the data space of the array it writes,
//! one-dimensional affine schedules `Theta_S(x, n) = a_S . x + b_S . n + c_S` (Eq. 3).
//! An **occupancy vector** `v` of an array collapses the cells `l` and `l + k v`
//! (Sec. 3.3.1); it is valid for a schedule when no value is overwritten before its
//! last read. Unlike the conflict-set allocators, the input is the program itself
//! (the one program model of polyalloc, built from the `program` section of a
//! bench-suite file, and the file's `ov` section), and the answer is a vector, a set of
//! schedules, or both; the storage mapping a vector induces is then converted to the
//! common [`polyalloc_formulation::ModularMapping`] form and verified by the exact
//! checker against the conflict set of the program under concrete schedules, like every
//! other method: the three methods [`Ov`], [`Aov`] and [`Uov`] ([`method`]) return it
//! with one obligation per schedule, and polyalloc's facade verifies each.
//!
//! ## What is implemented
//!
//! * [`method`]: the methods `ov`, `aov`, `uov` of polyalloc's registry, their targets
//!   (the arrays of the `ov` section), obligations, execution checks and typed details
//!   ([`OvDetails`], [`AovDetails`], [`UovDetails`]).
//! * [`section`]: the `ov` section and the paper entries the methods answer for, typed.
//! * [`model`]: the method's formulation of the program ([`OvFormulation`], a view of the
//!   one program model `polyalloc_program::Program` and of the `ov` section): statements,
//!   flow dependences `P_j = (R_j, T_j, h_j, P_j)` (Eq. 2), computed from the program's
//!   read accesses (default) or read from the file's `ov.dependences`, and the
//!   schedule-coefficient space `E` named as in the paper (`a, b, c, d, e`, with `_k` per
//!   statement when there are several).
//! * [`solve`]: the schedule constraints (6) and storage constraints (7), plus the
//!   write-order condition of the occupancy vector (Sec. 3.3.1, condition 2),
//!   linearised by the **vertex method** (Sec. 3.2.4, 4.5: vertices of the dependence
//!   domains `P_j` and of the storage domains `Z_j`, rays for unbounded parameters,
//!   Eq. 12). Then
//!   * **Problem 2.1** ([`solve::Engine::ov_for_schedule`], Sec. 4.6.1): the shortest
//!     integer occupancy vector for a given schedule, minimum Manhattan length then the
//!     evenness objective `sum_ij ||v_i| - |v_j||`;
//!   * **Problem 2.2** ([`solve::Engine::schedules_for`], Sec. 4.6.2): the linearised
//!     constraints on the schedules valid for given vectors, printed like the paper
//!     (`a - 2*b >= 0`), and the schedule of least latency (an ILP);
//!   * **Problem 2.3** ([`solve::Engine::aov`], Sec. 4.6.3): the shortest affine
//!     occupancy vector (AOV), valid for every legal one-dimensional affine schedule,
//!     with **Farkas' lemma over the schedule polyhedron `R`** for each linearised
//!     storage form (a feasibility problem per form, solved through the
//!     [`polyalloc_ilp::Solver`] trait).
//! * The paper's own integer programs ([`solve::Engine::paper_ilp`]): the storage
//!   constraints with `v` symbolic (vertex method on `P_j`, the paper's assumption that
//!   `Z_j` is non-empty), the Manhattan and evenness objectives by
//!   [`polyalloc_ilp::LexSolve`], for a given schedule (Sec. 4.6.1) or with Farkas'
//!   multipliers over `R` and `v` unknown (Sec. 4.6.3, the system of Sec. 5.1.4). It is
//!   reported next to the exact search, whose answer is the one used (see below); it
//!   applies to arrays with one writer.
//! * [`uov`]: the universal occupancy vector check of Strout et al. (Sec. 6) for
//!   stencils, so that Example 1 reports UOV `(3, 0)` next to AOV `(2, 1)`.
//! * [`mapping`]: the storage mapping of Sec. 3.3.2 (unimodular completion, projection
//!   `Pi_v`, modulation for non-primitive vectors, offset), printed as the paper's
//!   transformed code prints it (`A[2*j - i + m]`) and as a modular mapping.
//!
//! ## Design decisions and deviations (with the reason)
//!
//! * **Vertex method, exact, for both linearisations of `x` and `n`**, Farkas only for
//!   the last step (the schedule polyhedron), exactly the split the paper recommends
//!   (Sec. 3.2.4, 4.5, 4.7: "the Farkas method can be applied only once"). The storage
//!   domain `Z_j` depends on `v`, so its vertices are parametric in `v` (the paper
//!   decomposes the `v` space into chambers, Sec. 4.5.2). We do not build chambers:
//!   the integer vectors are **enumerated** by increasing Manhattan length, then
//!   evenness, then decreasing lexicographic order, and each candidate is decided
//!   exactly (for a fixed `v`, `Z_j` is an ordinary polyhedron: its vertices are
//!   evaluated exactly for a given schedule, and each resulting form is proven on every
//!   legal schedule by a Farkas feasibility problem through the solver). The first valid
//!   candidate is therefore the optimum of the paper's two-stage integer program, with
//!   integrality guaranteed (the paper solves the relaxation and notes it is integral
//!   on its examples). The search is bounded by [`solve::OvOptions::max_length`].
//! * The vertex method is exact over the **rational** points of each domain; on
//!   integer points it is conservative (a constraint may be required at a rational
//!   vertex that is no iteration), as in the paper (Sec. 3.1, Feautrier's remark).
//!   Domains are integer-tightened first.
//! * **Write order.** Sec. 3.3.1 requires `l` to be written before `l + v`; the paper
//!   relies on it without listing it among (13). We add it as a constraint family (the
//!   storage constraint is only meaningful with it). Consequence, as the paper notes
//!   (Sec. 4.6.1): an array none of whose values is read gets `v = 0` (one cell).
//! * **Several writers of one array** (Example 3: `S1` on the faces, `S2` inside): the
//!   next writer of `h(x) + v` is whichever statement's domain piece contains it, so a
//!   storage family is built for every (writer, domain piece), each on its own `Z`;
//!   write-order families for every pair of pieces. This is the paper's reasoning for
//!   Example 3 ("the domains of the three constraints above are empty").
//! * Problem 2.3 first refutes a candidate exactly with the known legal schedules
//!   (the program's and the file's `legal_schedules`), then proves it with Farkas.
//! * Strict storage constraint (read strictly before overwrite): option
//!   [`solve::OvOptions::strict`]; Example 1 then gives the OV `(2, 0)` of Fig. 7.
//! * The checker's conflict sets use the bench-suite semantics (reads before writes
//!   at one time step), i.e. Eq. (7).

pub mod geom;
pub mod mapping;
pub mod method;
pub mod model;
pub mod print;
pub mod section;
pub mod solve;
pub mod uov;

use polyalloc_alloc::{Input, Problem};
use polyalloc_formulation::{AffExpr, BasicSet, Set, Tuple};
use polyalloc_ilp::{SolveError, Solver};
use polyalloc_program::Program;
use polyalloc_suite::{Example, SuiteError};
use std::collections::BTreeMap;

pub use mapping::{induced, Induced};
pub use method::{
    random_legal_trace, read_details, sequential, Aov, AovDetails, InducedDetails, Modulation, Ov, OvDetails, PaperIlp, ScheduleLegality,
    ScheduleRef, Uov, UovDetails, ValidSchedulesDetails,
};
pub use model::{DependenceSource, OvFormulation};
pub use section::{OvSection, PaperEntries, ScheduleText};
pub use solve::{Engine, Found, OvOptions, ValidSchedules};

/// Why an occupancy-vector computation failed.
#[derive(Clone, Debug, thiserror::Error)]
pub enum OvError {
    /// The input is malformed (file, field, what was expected).
    #[error("{0}")]
    Input(String),
    /// The program is outside the paper's domain or a case we do not handle.
    #[error("not supported: {0}")]
    Unsupported(String),
    /// No legal one-dimensional affine schedule (Eq. (6) has no solution).
    #[error("no legal one-dimensional affine schedule for {0}")]
    NoSchedule(String),
    /// The bounded search found nothing.
    #[error("{0}")]
    NotFound(String),
    /// A solver failed (other than infeasibility where infeasibility is an answer); the
    /// solver's kind is kept.
    #[error("solver: {0}")]
    Solver(#[source] SolveError),
    /// Exact arithmetic overflowed.
    #[error("integer overflow in {0}")]
    Overflow(String),
    #[error(transparent)]
    Formulation(#[from] polyalloc_formulation::Error),
    #[error(transparent)]
    LinAlg(#[from] polyalloc_formulation::int::lin::LinAlgError),
    #[error("ILP model: {0}")]
    Model(#[from] polyalloc_ilp::ModelError),
    #[error(transparent)]
    Program(#[from] polyalloc_program::ProgramError),
    /// The example could not be read (its program, its context, its instances).
    #[error(transparent)]
    Suite(#[from] SuiteError),
}

/// Formats `sum coeffs[k] * names[k] + constant` as the paper writes it:
/// `2*j - i + m`, `a + 2*b - 1`, `0`.
pub fn fmt_linear(coeffs: &[i64], names: &[String], constant: i64) -> String {
    polyalloc_formulation::format_linear(coeffs, names, constant, "*")
}

/// Everything the method reads from one example: the one program model, the method's
/// formulation of it, the `ov` section and paper entries, the data spaces.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The example's program in the one program model (`Example::program_model`).
    pub program: Program,
    /// The method's formulation of it (Eqs. 2-3).
    pub form: OvFormulation,
    /// The file's `ov` section.
    pub section: OvSection,
    /// The paper entries the method answers for.
    pub paper: PaperEntries,
    /// Array -> (tuple, data space aligned to the program's parameters).
    pub arrays: BTreeMap<String, (Tuple, BasicSet)>,
    /// The file's `ov.legal_schedules`, as points of `E`.
    pub legal: Vec<Vec<i64>>,
}

impl Setup {
    /// Reads an example that has an `ov` section and a `program`.
    pub fn from_example(ex: &Example, source: DependenceSource) -> Result<Setup, OvError> {
        let file = ex.file.display();
        let section = OvSection::of(ex)?.ok_or_else(|| OvError::Unsupported(format!("{file}: no `ov` section (not an occupancy-vector example)")))?;
        let program = ex.program_model()?.ok_or_else(|| OvError::Input(format!("{file}: field `program`: missing")))?;
        let form = OvFormulation::new(&ex.id, &program, &section, source)?;
        let mut arrays = BTreeMap::new();
        for a in form.writers.keys() {
            let spec = ex.arrays.get(a).ok_or_else(|| OvError::Input(format!("{file}: no entry `arrays.{a}`")))?;
            let set = Set::parse(&spec.space).map_err(|e| OvError::Input(format!("{file}: arrays.{a}.space: {e}")))?;
            let [piece] = set.pieces() else {
                return Err(OvError::Unsupported(format!("{file}: the data space of `{a}` must be one polyhedron")));
            };
            arrays.insert(a.clone(), (set.space().output.clone(), piece.align_params(&form.params)?));
        }
        let legal = section
            .legal_schedules
            .iter()
            .enumerate()
            .map(|(k, s)| form.parse_schedule(s).map_err(|e| OvError::Input(format!("{file}: ov.legal_schedules[{k}]: {e}"))))
            .collect::<Result<Vec<_>, _>>()?;
        let paper = PaperEntries::of(ex)?;
        Ok(Setup { program, form, section, paper, arrays, legal })
    }

    /// An engine whose witnesses are the program's schedule and the legal schedules
    /// (only those that satisfy the schedule constraints exactly).
    pub fn engine<'a>(&'a self, solver: &'a dyn Solver, opts: OvOptions) -> Result<Engine<'a>, OvError> {
        let mut e = Engine::new(&self.form, solver, opts);
        let mut ok = Vec::new();
        for t in std::iter::once(self.form.program_schedule()).chain(self.legal.iter().cloned()) {
            if e.is_legal(&t)? && !ok.contains(&t) {
                ok.push(t);
            }
        }
        e.witnesses = ok;
        Ok(e)
    }

    /// The program's schedule followed by every schedule of `ov.legal_schedules`,
    /// without repetition: the schedules an affine occupancy vector is verified under.
    pub fn schedules_to_check(&self) -> Vec<Vec<i64>> {
        let mut out = vec![self.form.program_schedule()];
        for l in &self.legal {
            if !out.contains(l) {
                out.push(l.clone());
            }
        }
        out
    }

    /// A schedule point as isl relations per statement (`[m, n] -> { S[i, j] -> [i] }`).
    pub fn isl_schedule(&self, th: &[i64]) -> BTreeMap<String, String> {
        let strs = self.form.schedule_strings(th);
        self.form
            .statements
            .iter()
            .map(|st| {
                (st.name.clone(), format!("[{}] -> {{ {}[{}] -> [{}] }}", self.form.params.join(", "), st.name, st.dims.join(", "), strs[&st.name]))
            })
            .collect()
    }

    /// The conflict-set problem of `array` with every statement scheduled by `th`.
    pub fn problem_under(&self, ex: &Example, array: &str, th: &[i64]) -> Result<Problem, OvError> {
        problem_with_schedules(ex, &self.program, array, &self.form.affine_schedules(&self.program, th)?)
    }
}

/// The allocation problem (conflict set) of `array` for `program` (the example's program
/// in the one program model) with statement `k` scheduled by `schedules[k]`: the
/// program's conflict set (`polyalloc_program::Program::conflict_set`), the example's
/// context, data space and instances.
pub fn problem_with_schedules(ex: &Example, program: &Program, array: &str, schedules: &[AffExpr]) -> Result<Problem, OvError> {
    if schedules.len() != program.statements.len() {
        return Err(OvError::Input(format!("{}: {} schedules for {} statements", ex.id, schedules.len(), program.statements.len())));
    }
    let mut p = program.clone();
    for (st, e) in p.statements.iter_mut().zip(schedules) {
        st.schedule = vec![e.clone()];
    }
    let conflicts = p.conflict_set(array)?;
    let rel_params = conflicts.relation.space().params.clone();
    let instances = ex
        .instances
        .iter()
        .map(|inst| rel_params.iter().map(|p| inst.get(p).copied()).collect::<Option<Vec<i64>>>())
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| OvError::Input(format!("{}: every instance must give the parameters {rel_params:?}", ex.file.display())))?;
    let space = match ex.arrays.get(array) {
        Some(spec) => Some(Set::parse(&spec.space).map_err(|e| OvError::Input(format!("{}: arrays.{array}.space: {e}", ex.file.display())))?),
        None => None,
    };
    Ok(Problem { example: ex.id.clone(), conflicts, context: ex.context_set()?, space, instances })
}

/// [`problem_with_schedules`] computed once per input: the conflict set of `array`
/// under `schedules` does not depend on the method or the backend, so the three methods,
/// every backend and the paper comparison share it (keyed by the schedules' affine
/// forms, however they were written).
pub fn problem_cached(input: &Input, program: &Program, array: &str, schedules: &[AffExpr]) -> Result<Problem, OvError> {
    let key = format!("alloc-ov/problem/{array}/{:?}", schedules.iter().map(|e| &e.coeffs).collect::<Vec<_>>());
    input.memo(&key, || problem_with_schedules(&input.example, program, array, schedules))
}

/// The allocation problem (conflict set) of `array` for the example's program with its
/// schedules replaced by `schedule` (statement -> isl relation; statements it does not
/// name keep theirs), shared through the input like [`problem_cached`].
pub fn problem_under_input(input: &Input, array: &str, schedule: &ScheduleText) -> Result<Problem, OvError> {
    let ex = &input.example;
    let program = ex.program_model()?.ok_or_else(|| OvError::Input(format!("{}: field `program`: missing", ex.file.display())))?;
    let schedules = schedules_of(ex, &program, schedule)?;
    problem_cached(input, &program, array, &schedules)
}

/// The allocation problem (conflict set) of `array` for the example's program with its
/// schedules replaced by `schedule` (statement -> isl relation; statements it does not
/// name keep theirs).
pub fn problem_under(ex: &Example, array: &str, schedule: &ScheduleText) -> Result<Problem, OvError> {
    let program = ex.program_model()?.ok_or_else(|| OvError::Input(format!("{}: field `program`: missing", ex.file.display())))?;
    let schedules = schedules_of(ex, &program, schedule)?;
    problem_with_schedules(ex, &program, array, &schedules)
}

fn schedules_of(ex: &Example, program: &Program, schedule: &ScheduleText) -> Result<Vec<AffExpr>, OvError> {
    let mut schedules = Vec::new();
    for st in &program.statements {
        schedules.push(match schedule.get(&st.name) {
            Some(text) => model::schedule_expr(st, text)?,
            None => {
                let [e] = st.schedule.as_slice() else {
                    return Err(OvError::Unsupported(format!("{}: statement `{}` needs a one-dimensional schedule", ex.id, st.name)));
                };
                e.clone()
            }
        });
    }
    Ok(schedules)
}
