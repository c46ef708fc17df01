//! # polyalloc-formulation: the shared polyhedral layer of every allocator
//!
//! Every intra-array storage method of polyalloc (successive modulo / Lefebvre–Feautrier,
//! SMO storage hyperplanes, the lattice method) works on the same objects, provided here:
//!
//! * **Parametric integer sets and relations** in the notation of isl and of the papers
//!   ([`Set`] = union of [`BasicSet`]s with existential locals; [`Map`] / [`BasicMap`] are
//!   the same types over a relation space `A[t, i] -> A[t2, i2]`), with a parser and a
//!   printer (print, then parse, gives the same set), exact integer arithmetic (overflow
//!   is an [`Error::Overflow`]), intersection, union, substitution, application and
//!   composition, reverse, domain and range, exact projection and rational
//!   Fourier–Motzkin projection with redundancy removal, emptiness / sample points /
//!   lexicographic minima through any [`polyalloc_ilp::Solver`] (parameters are
//!   variables), and enumeration of integer points for concrete parameters by scanning.
//! * **Farkas linearization** ([`farkas::nonneg_on`]): the affine form of Farkas' lemma
//!   (Bhaskaracharya et al. 2016, Sec. 2, Lemma 2.2; Darte et al. 2015, Sec. 4.1.1) that turns "this affine form, whose
//!   coefficients are ILP unknowns, is non-negative on that polyhedron" into multipliers
//!   and coefficient-matching equalities of a [`polyalloc_ilp::Model`].
//! * **Conflict sets** ([`ConflictSet`]): the relation of pairs of cells that are
//!   simultaneously live (Bhaskaracharya et al. 2016, Sec. 2.1, Def. 2.3, "conflict set"), given explicitly
//!   (as the papers print them) or computed from a program by `polyalloc-program`; and
//!   the set of conflicting differences (Darte et al. 2015, Sec. 3.2).
//! * **Exact coalescing** ([`coalesce()`], [`Set::coalesce`]): fewer pieces, the same
//!   integer points for every parameter value (after isl's `isl_map_coalesce`); its
//!   drop-only mode ([`remove_contained`]) is applied to every conflict set computed
//!   from a program.
//! * **Modular mappings** ([`ModularMapping`]): storage hyperplanes (Bhaskaracharya et al. 2016, Sec. 3.2) with
//!   moduli affine in the parameters, printed as `A[(i - t) mod (2N - 1)]`, with their
//!   size as a [`Polynomial`].
//! * **The exact checker** ([`checker`]), which shares no code path with any allocator:
//!   a symbolic proof by its own ILPs, a concrete check by enumeration with
//!   counterexamples.
//! * **Shared (inter-array) storage** ([`SharedMapping`]): several arrays in one storage,
//!   a hyperplane and an offset per array and row, one modulus per row; the conflicts
//!   within and between the arrays ([`InterConflictSet`]); and its exact checker
//!   ([`shared_checker`]), an exact reduction to the intra-array checker, with a direct
//!   enumeration at instances.
//!
//! Layering: this crate depends only on `polyalloc-ilp`; the program model
//! (`polyalloc-program`) and the allocator crates build on it.
//! Paper numbers refer to `shared/papers/`: Bhaskaracharya et al. 2016 = Bhaskaracharya, Bondhugula, Cohen (SMO),
//! Darte et al. 2015 = Darte, Isoard, Yuki (lattice-based allocation).
//!
//! ## Worked example: Bhaskaracharya et al. 2016, Fig. 2 (produce-consume)
//!
//! ```
//! use polyalloc_formulation::{ConflictForm, ConflictSet, ModularMapping, BasicSet, Polynomial};
//! use polyalloc_formulation::checker::{Checker, SymbolicVerdict, check_concrete, ConcreteVerdict};
//! use polyalloc_backend_microlp::MicrolpSolver;
//!
//! // The conflict set printed in Bhaskaracharya et al. 2016, Fig. 2(c) (half form: (t, i) written first).
//! let cs = ConflictSet::parse(
//!     "[N] -> { A[t, i] -> A[t2, i2] : 1 <= t, i, t2, i2 <= N and
//!        ((t2 = t and i2 >= i + 1) or (t2 = t + 1 and i2 <= i - 1) or (t2 >= t + 1 and i = N)) }",
//!     ConflictForm::Half,
//! )?;
//!
//! // The SMO mapping of Bhaskaracharya et al. 2016, Sec. 3.1, its size 2N - 1, and the symbolic proof.
//! let smo = ModularMapping::parse("[N] -> { A[t, i] -> A[(i - t) mod (2N - 1)] }")?;
//! assert_eq!(smo.to_string(), "A[(i - t) mod (2N - 1)]");
//! assert_eq!(smo.size()?, Some(Polynomial::parse("2*N - 1")?));
//! let solver = MicrolpSolver;
//! let ctx = BasicSet::parse("[N] -> { : N >= 2 }")?;
//! assert_eq!(Checker::new(&solver).check_symbolic(&cs, &smo, Some(&ctx))?, SymbolicVerdict::Valid);
//!
//! // One cell less is wrong, with a counterexample.
//! let bad = ModularMapping::parse("[N] -> { A[t, i] -> A[(i - t) mod (2N - 2)] }")?;
//! assert!(matches!(check_concrete(&cs, &bad, &[4], 1_000_000)?, ConcreteVerdict::Invalid(_)));
//! # Ok::<(), polyalloc_formulation::Error>(())
//! ```

mod aff;
mod basic;
pub mod checker;
pub mod coalesce;
mod conflict;
mod error;
pub mod farkas;
mod fm;
pub mod generators;
pub mod ilp;
pub mod int;
mod mapping;
mod parse;
mod poly;
mod print;
mod scan;
mod set;
mod shared;
pub mod shared_checker;
mod space;

pub use aff::{format_linear, Aff, AffExpr, Constraint, ConstraintKind};
pub use basic::{BasicMap, BasicSet};
pub use checker::{check_concrete, Checker};
pub use coalesce::{coalesce, remove_contained, CoalesceMode, CoalesceStats};
pub use conflict::{ConflictForm, ConflictSet, InterConflict, InterConflictSet};
pub use error::{Error, ParseError, Result};
pub use ilp::Sample;
pub use mapping::{ModularMapping, StorageRow};
pub use parse::{MAX_DNF_PIECES, MAX_LOCALS, MAX_NESTING};
pub use poly::{Monomial, Polynomial};
pub use set::{Map, RowVisitor, Set, MAX_PRODUCT_PIECES};
pub use shared::{SharedMapping, SharedPart};
pub use space::{Space, Tuple};
