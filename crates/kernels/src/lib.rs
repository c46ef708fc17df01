//! # polyalloc-kernels: the kernels of Bhaskaracharya et al. 2016, Table II with folded storage
//!
//! The papers claim that a modular storage mapping (Bhaskaracharya et al. 2016, Sec. 3, "storage hyperplanes"
//! and "contraction moduli"; Darte et al. 2015, Sec. 2, lattice-based allocation) saves memory at
//! little or no cost in time. This crate measures that claim: each benchmark of Bhaskaracharya et al. 2016
//! Table II (and produce-consume, Bhaskaracharya et al. 2016, Fig. 2) is written **once** against the
//! [`layout::Layout`] abstraction (index function inlined, kernel monomorphised per
//! layout) and runs with
//!
//! * full storage (the totally expanded array: the reference),
//! * the baseline successive-modulo mapping (`lefe`, Lefebvre-Feautrier, Bhaskaracharya et al. 2016, Sec. 2.1),
//! * the mapping of any other conflict-set method (`smo`, `lattice`, ...),
//!
//! where every mapping is obtained **at run time** from the allocator
//! (the facade's `polyalloc::run::run` on the bench-suite example's conflict set, which
//! also verifies it with the exact checker): when a method improves, the kernels use the
//! improvement. Each folded run exists in two variants ([`Variant`]): `plain` (every
//! folded row computes a Euclidean remainder on every access) and `tuned` (the
//! mitigations of Bhaskaracharya et al. 2016, Sec. 5: subtract a base when the row's range fits in the modulus,
//! masks for power-of-two moduli, padding a modulus to a power of two only when the exact
//! checker proves the padded mapping valid, cheap conditional subtraction or narrow
//! unsigned remainder otherwise; all-`base` mappings collapse into one affine index
//! function, all-`base`/`mask` ones use a branch-free form; loop-invariant parts are
//! hoisted by the compiler from the inlined index function). Outputs (live-out values)
//! are compared bit for bit with the full-storage run; [`check_outputs`] turns any
//! difference into [`KernelError::Mismatch`].
//!
//! The loop structure of each kernel is the schedule under which the example's conflict
//! set was computed (`bench-suite/smo-*.json`): see the module docs of [`simple`],
//! [`tiled`], [`lbm`] and [`stencil`]. Tiles run in parallel with rayon where the paper
//! used OpenMP ([`wavefront`]). `cargo xtask kernels` drives [`measure`]; sizes and the
//! build profile are documented in `crates/kernels/README.md`.

// Index loops over small fixed-size arrays (`[i64; D]`, `[f64; Q]`) read like the
// formulas they implement and unroll the same; iterator rewrites would not help.
#![allow(clippy::needless_range_loop)]

pub mod layout;
pub mod lbm;
pub mod reference;
pub mod simple;
pub mod stencil;
pub mod tiled;
pub mod wavefront;

use layout::{ArraySpace, Full, Layout, LayoutPlan, Linear, Masked, Plain, Stepped, Tuned};
use polyalloc_alloc::Problem;
use polyalloc_formulation::{AffExpr, Checker, ModularMapping};
use std::path::Path;

/// Why a kernel run failed.
#[derive(Debug, thiserror::Error)]
pub enum KernelError {
    /// Bad sizes or a mapping that does not fit the kernel.
    #[error("{0}")]
    Config(String),
    /// Reading the example or running the allocator failed.
    #[error("{kernel}: method {method}: {message}")]
    Method { kernel: String, method: String, message: String },
    /// A folded run's outputs differ from the reference.
    #[error("{kernel}: {method} ({variant}): output differs from the full-storage reference at value {index}")]
    Mismatch { kernel: String, method: String, variant: String, index: usize },
}

/// The outputs of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOutput {
    /// The live-out values, as bit patterns (compared bit for bit).
    pub values: Vec<u64>,
    /// Cells allocated for the folded array (all tiles).
    pub folded_cells: usize,
    /// Bytes per cell.
    pub cell_bytes: usize,
    /// Time of the kernel proper: allocating its arrays and computing, not extracting
    /// the live-out values for the comparison.
    pub elapsed: std::time::Duration,
}

impl RunOutput {
    /// Bytes of the folded array(s).
    pub fn folded_bytes(&self) -> u64 {
        (self.folded_cells as u64).saturating_mul(self.cell_bytes as u64)
    }
}

/// A kernel written against [`Layout`]: the array space of its folded array (a box,
/// optionally with a membership test) and the run itself.
pub trait Body<const D: usize>: Sync {
    /// Dimension names of the folded array, as in the bench-suite example.
    fn dims(&self) -> &'static [&'static str];
    /// Bounding box of the array space (inclusive).
    fn space(&self) -> ([i64; D], [i64; D]);
    /// Membership in the array space (default: the whole box).
    fn member(&self, _x: &[i64]) -> bool {
        true
    }
    /// Runs the kernel with storage `l`.
    fn run<L: Layout<D>>(&self, l: &L) -> Result<RunOutput, KernelError>;
}

/// How a folded mapping's index is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Variant {
    /// The method's mapping as is: a Euclidean remainder per folded row and access.
    Plain,
    /// The Bhaskaracharya et al. 2016, Sec. 5 mitigations per row ([`layout::RowOp`]), evaluated per access.
    Tuned,
    /// The tuned rows with the innermost loop strength-reduced ([`layout::LineOp`]:
    /// hoisted, affine, split at the wrap points, or stepped with one compare).
    Stepped,
}

impl Variant {
    /// Every variant, in the order they are measured.
    pub const ALL: [Variant; 3] = [Variant::Plain, Variant::Tuned, Variant::Stepped];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Plain => "plain",
            Variant::Tuned => "tuned",
            Variant::Stepped => "stepped",
        }
    }
}

/// Storage of one run.
#[derive(Clone, Copy, Debug)]
pub enum Storage<'a> {
    Full,
    Folded(&'a LayoutPlan, Variant),
}

fn dispatch<const D: usize, K: Body<D>>(k: &K, s: Storage<'_>) -> Result<RunOutput, KernelError> {
    match s {
        Storage::Full => {
            let (lo, hi) = k.space();
            k.run(&Full::new(lo, hi)?)
        }
        Storage::Folded(p, v) => {
            // An all-`base` mapping is one affine index for both mitigated variants
            // (along a line it advances by a constant, as full storage does).
            if v != Variant::Plain {
                if let Some(l) = Linear::<D>::new(p)? {
                    return k.run(&l);
                }
            }
            macro_rules! go {
                ($m:literal) => {
                    match v {
                        Variant::Plain => k.run(&Plain::<D, $m>::new(p)?),
                        Variant::Tuned => match Masked::<D, $m>::new(p)? {
                            Some(l) => k.run(&l),
                            None => k.run(&Tuned::<D, $m>::new(p)?),
                        },
                        Variant::Stepped => k.run(&Stepped::<D, $m>::new(p)?),
                    }
                };
            }
            match p.rows.len() {
                1 => go!(1),
                2 => go!(2),
                3 => go!(3),
                4 => go!(4),
                m => Err(KernelError::Config(format!("mappings of {m} rows are not supported (1 to 4)"))),
            }
        }
    }
}

fn plan_body<const D: usize, K: Body<D>>(
    k: &K,
    mapping: &ModularMapping,
    moduli: &[Option<i64>],
    pad_ok: &mut dyn FnMut(usize, i64) -> Result<bool, KernelError>,
) -> Result<LayoutPlan, KernelError> {
    let dims: Vec<&str> = mapping.array.dims.iter().map(String::as_str).collect();
    if dims != k.dims() {
        return Err(KernelError::Config(format!("mapping over dimensions {dims:?}, the kernel's array is {:?}", k.dims())));
    }
    let (lo, hi) = k.space();
    let member = |x: &[i64]| k.member(x);
    let space = ArraySpace { lo: &lo, hi: &hi, member: Some(&member) };
    let hs: Vec<Vec<i64>> = mapping.rows.iter().map(|r| r.hyperplane.clone()).collect();
    layout::plan(&hs, moduli, &space, pad_ok)
}

/// The kernels of Bhaskaracharya et al. 2016, Table II and produce-consume.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KernelId {
    ProduceConsume,
    BlurInterleaved,
    BlurTiled,
    UnsharpMaskTiled,
    HarrisCornerTiled,
    LbmD2q9,
    LbmD3q19,
    LbmD3q27,
    DiamondTile,
    Stencil1dPllgmTile,
}

impl KernelId {
    /// Every kernel, in Table II order (produce-consume first).
    pub const ALL: [KernelId; 10] = [
        KernelId::ProduceConsume,
        KernelId::BlurInterleaved,
        KernelId::BlurTiled,
        KernelId::UnsharpMaskTiled,
        KernelId::HarrisCornerTiled,
        KernelId::LbmD2q9,
        KernelId::LbmD3q19,
        KernelId::LbmD3q27,
        KernelId::DiamondTile,
        KernelId::Stencil1dPllgmTile,
    ];

    /// The benchmark name (also the bench-suite file stem after `smo-`).
    pub fn name(self) -> &'static str {
        match self {
            KernelId::ProduceConsume => "produce-consume",
            KernelId::BlurInterleaved => "blur-interleaved",
            KernelId::BlurTiled => "blur-tiled",
            KernelId::UnsharpMaskTiled => "unsharp-mask-tiled",
            KernelId::HarrisCornerTiled => "harris-corner-tiled",
            KernelId::LbmD2q9 => "lbm-d2q9",
            KernelId::LbmD3q19 => "lbm-d3q19",
            KernelId::LbmD3q27 => "lbm-d3q27",
            KernelId::DiamondTile => "diamond-tile",
            KernelId::Stencil1dPllgmTile => "stencil-1d-pllgm-tile",
        }
    }

    /// Looks a name up.
    pub fn from_name(s: &str) -> Option<KernelId> {
        KernelId::ALL.into_iter().find(|k| k.name() == s)
    }

    /// The folded array's name in the example.
    pub fn array(self) -> &'static str {
        match self {
            KernelId::BlurInterleaved => "blurx",
            KernelId::HarrisCornerTiled => "sobel",
            KernelId::DiamondTile | KernelId::Stencil1dPllgmTile => "AB",
            _ => "A",
        }
    }

    /// The bench-suite example of this kernel in `view` (`smo-<name>.json` or
    /// `lattice-<name>.json`).
    pub fn example_path(self, suite_dir: &Path, view: SuiteView) -> std::path::PathBuf {
        suite_dir.join(format!("{}-{}.json", view.prefix(), self.name()))
    }

    /// The example whose conflict set `method` runs on: the first view in
    /// [`SuiteView::ALL`] order (Bhaskaracharya et al. 2016's own first) whose example exists and whose paper
    /// results (`paper[].method`, the registry name the example's data declares) report
    /// `method`, else Bhaskaracharya et al. 2016's. The views of one kernel have the same array space and
    /// conflict set (the lattice paper reuses Bhaskaracharya et al. 2016's benchmarks); the choice is the
    /// provenance recorded with the measurement, so that a lattice mapping is labelled
    /// with the paper that reports it.
    pub fn example_for(self, suite_dir: &Path, method: &str) -> Result<polyalloc_suite::Example, KernelError> {
        let load = |path: &Path| {
            polyalloc_suite::Example::load(path).map_err(|e| KernelError::Method {
                kernel: self.name().into(),
                method: method.into(),
                message: e.to_string(),
            })
        };
        let mut first = None;
        for view in SuiteView::ALL {
            let path = self.example_path(suite_dir, view);
            if view != SuiteView::Smo && !path.exists() {
                continue;
            }
            let ex = load(&path)?;
            if ex.paper.iter().any(|r| r.method == method) {
                return Ok(ex);
            }
            first.get_or_insert(ex);
        }
        match first {
            Some(ex) => Ok(ex),
            None => load(&self.example_path(suite_dir, SuiteView::Smo)),
        }
    }

    /// The sizes of `cargo xtask kernels` on a 2-core, 24 GB machine (see the README):
    /// the paper's sizes where the full-storage reference fits and a run takes at most
    /// about a second.
    pub fn default_size(self) -> Size {
        match self {
            KernelId::ProduceConsume => Size { n: 2048, t: 0, b: 0 },
            KernelId::BlurInterleaved => Size { n: 2048, t: 0, b: 0 },
            KernelId::BlurTiled => Size { n: 4096, t: 0, b: 512 },
            KernelId::UnsharpMaskTiled => Size { n: 2048, t: 0, b: 512 },
            KernelId::HarrisCornerTiled => Size { n: 4096, t: 0, b: 64 },
            KernelId::LbmD2q9 => Size { n: 128, t: 128, b: 0 },
            KernelId::LbmD3q19 => Size { n: 32, t: 32, b: 0 },
            KernelId::LbmD3q27 => Size { n: 32, t: 32, b: 0 },
            KernelId::DiamondTile => Size { n: 4096, t: 4096, b: 256 },
            KernelId::Stencil1dPllgmTile => Size { n: 4096, t: 4096, b: 8 },
        }
    }

    /// Small sizes for the tests (tile sizes above the examples' context bounds).
    pub fn small_size(self) -> Size {
        match self {
            KernelId::ProduceConsume => Size { n: 9, t: 0, b: 0 },
            KernelId::BlurInterleaved => Size { n: 12, t: 0, b: 0 },
            KernelId::BlurTiled => Size { n: 24, t: 0, b: 8 },
            KernelId::UnsharpMaskTiled => Size { n: 24, t: 0, b: 6 },
            KernelId::HarrisCornerTiled => Size { n: 20, t: 0, b: 5 },
            KernelId::LbmD2q9 => Size { n: 7, t: 7, b: 0 },
            KernelId::LbmD3q19 => Size { n: 5, t: 5, b: 0 },
            KernelId::LbmD3q27 => Size { n: 5, t: 4, b: 0 },
            KernelId::DiamondTile => Size { n: 30, t: 23, b: 4 },
            KernelId::Stencil1dPllgmTile => Size { n: 29, t: 20, b: 5 },
        }
    }
}

/// The bench-suite views of a kernel: Bhaskaracharya et al. 2016's own example (`smo-*`) and the lattice
/// paper's (Darte et al. 2015, `lattice-*`, for the kernels it reuses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuiteView {
    Smo,
    Lattice,
}

impl SuiteView {
    /// In order of preference.
    pub const ALL: [SuiteView; 2] = [SuiteView::Smo, SuiteView::Lattice];

    /// The file-name prefix in `bench-suite/`.
    pub fn prefix(self) -> &'static str {
        match self {
            SuiteView::Smo => "smo",
            SuiteView::Lattice => "lattice",
        }
    }
}

/// Problem size: `n` (image side, lattice side, stencil width), `t` (time steps), `b`
/// (tile size); unused fields are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    pub n: i64,
    pub t: i64,
    pub b: i64,
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = vec![format!("N={}", self.n)];
        if self.t > 0 {
            parts.push(format!("T={}", self.t));
        }
        if self.b > 0 {
            parts.push(format!("B={}", self.b));
        }
        f.write_str(&parts.join(" "))
    }
}

/// A kernel at a size, with its inputs generated.
#[allow(clippy::large_enum_variant)] // built once per kernel run; boxing buys nothing
pub enum Instance {
    ProduceConsume(simple::ProduceConsume),
    BlurInterleaved(simple::BlurInterleaved),
    BlurTiled(tiled::ColumnPipeline<tiled::Blur, 3>),
    UnsharpMaskTiled(tiled::ColumnPipeline<tiled::Unsharp, 5>),
    HarrisCornerTiled(tiled::ColumnPipeline<tiled::Harris, 3>),
    LbmD2q9(lbm::Lbm2),
    LbmD3q19(lbm::Lbm3<19>),
    LbmD3q27(lbm::Lbm3<27>),
    DiamondTile(stencil::Diamond),
    Stencil1dPllgmTile(stencil::Pllgm),
}

macro_rules! each {
    ($self:expr, $k:ident => $e:expr) => {
        match $self {
            Instance::ProduceConsume($k) => $e,
            Instance::BlurInterleaved($k) => $e,
            Instance::BlurTiled($k) => $e,
            Instance::UnsharpMaskTiled($k) => $e,
            Instance::HarrisCornerTiled($k) => $e,
            Instance::LbmD2q9($k) => $e,
            Instance::LbmD3q19($k) => $e,
            Instance::LbmD3q27($k) => $e,
            Instance::DiamondTile($k) => $e,
            Instance::Stencil1dPllgmTile($k) => $e,
        }
    };
}

impl Instance {
    /// Builds the kernel and its inputs.
    pub fn new(kernel: KernelId, s: Size) -> Result<Instance, KernelError> {
        Ok(match kernel {
            KernelId::ProduceConsume => {
                if s.n < 2 {
                    return Err(KernelError::Config(format!("produce-consume: N = {}, expected N >= 2", s.n)));
                }
                Instance::ProduceConsume(simple::ProduceConsume { n: s.n })
            }
            KernelId::BlurInterleaved => Instance::BlurInterleaved(simple::BlurInterleaved::new(s.n)?),
            KernelId::BlurTiled => Instance::BlurTiled(tiled::ColumnPipeline::new(s.n, s.b, 1)?),
            KernelId::UnsharpMaskTiled => Instance::UnsharpMaskTiled(tiled::ColumnPipeline::new(s.n, s.b, 3)?),
            KernelId::HarrisCornerTiled => Instance::HarrisCornerTiled(tiled::ColumnPipeline::new(s.n, s.b, 1)?),
            KernelId::LbmD2q9 => Instance::LbmD2q9(lbm::Lbm2::new(s.n, s.t)?),
            KernelId::LbmD3q19 => Instance::LbmD3q19(lbm::Lbm3::new(s.n, s.t)?),
            KernelId::LbmD3q27 => Instance::LbmD3q27(lbm::Lbm3::new(s.n, s.t)?),
            KernelId::DiamondTile => Instance::DiamondTile(stencil::Diamond::new(s.n, s.t, s.b)?),
            KernelId::Stencil1dPllgmTile => Instance::Stencil1dPllgmTile(stencil::Pllgm::new(s.n, s.t, s.b)?),
        })
    }

    /// The values of the mapping's parameters (`N` or the tile size `B`).
    pub fn param_value(&self, name: &str) -> Result<i64, KernelError> {
        let v = match (self, name) {
            (Instance::ProduceConsume(k), "N") => k.n,
            (Instance::BlurInterleaved(k), "N") => k.n,
            (Instance::BlurTiled(k), "B") => k.b,
            (Instance::UnsharpMaskTiled(k), "B") => k.b,
            (Instance::HarrisCornerTiled(k), "B") => k.b,
            (Instance::LbmD2q9(k), "N") => k.n,
            (Instance::LbmD3q19(k), "N") => k.n,
            (Instance::LbmD3q27(k), "N") => k.n,
            (Instance::DiamondTile(k), "B") => k.b,
            (Instance::Stencil1dPllgmTile(k), "B") => k.b,
            _ => return Err(KernelError::Config(format!("the kernel has no parameter `{name}`"))),
        };
        Ok(v)
    }

    /// Runs with `storage`.
    pub fn run(&self, storage: Storage<'_>) -> Result<RunOutput, KernelError> {
        each!(self, k => dispatch(k, storage))
    }

    /// Plans the layout of a mapping at this instance's parameters.
    pub fn plan(&self, mapping: &ModularMapping, pad_ok: &mut dyn FnMut(usize, i64) -> Result<bool, KernelError>) -> Result<LayoutPlan, KernelError> {
        let params: Vec<i64> = mapping.params.iter().map(|p| self.param_value(p)).collect::<Result<_, _>>()?;
        let moduli = mapping.moduli(&params).map_err(|e| KernelError::Config(e.to_string()))?;
        each!(self, k => plan_body(k, mapping, &moduli, pad_ok))
    }

    /// Whether `plan`'s tuned layout is full storage itself ([`layout::same_as_full`]).
    pub fn same_as_full(&self, plan: &LayoutPlan) -> Result<bool, KernelError> {
        each!(self, k => {
            let (lo, hi) = k.space();
            layout::same_as_full(plan, lo, hi)
        })
    }

    /// The live-out values computed by plain loops over full arrays, without tiles or
    /// layouts ([`mod@reference`]): the independent reference of the tests.
    pub fn reference(&self) -> Vec<u64> {
        match self {
            Instance::ProduceConsume(k) => reference::produce_consume(k.n),
            Instance::BlurInterleaved(k) => reference::blur_interleaved(k),
            Instance::BlurTiled(k) => tiled::reference(k),
            Instance::UnsharpMaskTiled(k) => tiled::reference(k),
            Instance::HarrisCornerTiled(k) => tiled::reference(k),
            Instance::LbmD2q9(k) => reference::lbm(k.vel(), 2, k.n, k.t),
            Instance::LbmD3q19(k) => reference::lbm(k.vel(), 3, k.n, k.t),
            Instance::LbmD3q27(k) => reference::lbm(k.vel(), 3, k.n, k.t),
            Instance::DiamondTile(k) => stencil::reference(k.n, k.t),
            Instance::Stencil1dPllgmTile(k) => stencil::reference(k.n, k.t),
        }
    }

    /// The mapping's parameter values, in the mapping's order.
    pub fn params_of(&self, mapping: &ModularMapping) -> Result<Vec<i64>, KernelError> {
        mapping.params.iter().map(|p| self.param_value(p)).collect()
    }
}

/// A verified mapping from a method.
#[derive(Clone, Debug)]
pub struct MethodMapping {
    pub method: String,
    /// The example (file stem) whose conflict set was used.
    pub example: String,
    pub mapping: ModularMapping,
    /// `proven` or `instances`.
    pub verification: String,
    pub problem: Problem,
}

/// Runs `method` on the kernel's example through the facade's one door,
/// [`polyalloc::run::run`] (which verifies the mapping with the exact checker), on
/// `backend`.
pub fn method_mapping(suite_dir: &Path, kernel: KernelId, method: &str, backend: &str) -> Result<MethodMapping, KernelError> {
    let err = |m: String| KernelError::Method { kernel: kernel.name().into(), method: method.into(), message: m };
    let ex = kernel.example_for(suite_dir, method)?;
    let registry = polyalloc::registry();
    if registry.allocator(method).is_none() {
        return Err(err(format!("not a conflict-set method; registered: {}", registry.names().join(", "))));
    }
    let m = registry.get(method).ok_or_else(|| err(format!("no method `{method}`")))?;
    let backend = polyalloc::backend(backend).map_err(|e| err(e.to_string()))?;
    let id = ex.id.clone();
    let input = polyalloc::Input::new(ex);
    let problem = input.problem(kernel.array()).map_err(|e| err(e.to_string()))?;
    let v =
        polyalloc::run::run(&input, m, kernel.array(), &backend, polyalloc::run::RunOptions::default()).map_err(|e| err(e.failure.to_string()))?;
    let mapping = v.outcome.mapping.ok_or_else(|| err("the method returned no mapping".into()))?;
    Ok(MethodMapping { method: method.to_string(), example: id, mapping, verification: polyalloc::Claim::from(&v.verification).to_string(), problem })
}

/// Whether `mm`'s mapping with row `row`'s modulus replaced by `p` is valid at the
/// parameter values `params` (the context fixed to them): proven by the exact checker
/// (symbolically) on `backend`; anything short of a proof is `false`.
pub fn padded_valid(mm: &MethodMapping, params: &[i64], row: usize, p: i64, backend: &str) -> Result<bool, KernelError> {
    let err = |m: String| KernelError::Method { kernel: mm.example.clone(), method: mm.method.clone(), message: m };
    let mut padded = mm.mapping.clone();
    let psp = padded.param_space();
    let Some(r) = padded.rows.get_mut(row) else { return Ok(false) };
    r.modulus = Some(AffExpr::constant(&psp, p));
    // `params` in the problem's parameter order (the mapping's may differ).
    let values: Vec<i64> = mm
        .problem
        .params()
        .iter()
        .map(|p| mm.mapping.params.iter().position(|q| q == p).and_then(|k| params.get(k).copied()))
        .collect::<Option<_>>()
        .ok_or_else(|| err(format!("the mapping's parameters {:?} do not cover the problem's {:?}", mm.mapping.params, mm.problem.params())))?;
    let Some(at) = mm.problem.at_instance(&values).map_err(|e| err(e.to_string()))? else { return Ok(false) };
    let solver = polyalloc_solvers::registry().create(backend).map_err(|e| err(e.to_string()))?;
    let verdict = Checker::new(solver.as_ref()).check_symbolic(&at.conflicts, &padded, at.context.as_ref()).map_err(|e| err(e.to_string()))?;
    Ok(matches!(verdict, polyalloc_formulation::checker::SymbolicVerdict::Valid))
}

/// Peak resident memory of this process (Linux `VmHWM`), in bytes.
pub fn peak_rss_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Resets the peak resident memory (Linux: writing `5` to `/proc/self/clear_refs`);
/// false when not possible.
pub fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// One measured configuration.
#[derive(Clone, Debug)]
pub struct Measurement {
    pub kernel: KernelId,
    pub size: Size,
    /// `full` for the reference, else the method name.
    pub method: String,
    pub example: String,
    /// `full`, `plain` or `tuned`.
    pub variant: String,
    /// The mapping as printed, and the per-row mitigations (`tuned`).
    pub mapping: String,
    pub mitigation: String,
    pub verification: String,
    /// Milliseconds per run.
    pub samples_ms: Vec<f64>,
    pub bytes: u64,
    /// Peak RSS of the process during these runs (`None` when unavailable).
    pub peak_rss: Option<u64>,
    pub output_equal: bool,
    /// First differing value (when not equal).
    pub first_difference: Option<usize>,
    /// The configuration is the program of another one, not run a second time (its
    /// samples, bytes and peak RSS are that one's): `full` when the mapping folds
    /// nothing and its tuned layout puts every cell where full storage does
    /// ([`layout::same_as_full`]); a method's name when an earlier method's mapping
    /// gives the same layout plan in the same variant (e.g. `smo` and `lattice` both
    /// finding `A[(y - 4x) mod (5B - 4)]`). `None`: measured.
    pub runs_as: Option<String>,
}

/// What a folded variant computes per storage row: `none` (plain), the tuned
/// mitigations (`base,urem`, ...), and for `stepped` also the innermost-loop scheme
/// per row (`base,urem; line hoist,step`). An all-`base` mapping runs as one affine
/// index in both mitigated variants.
pub fn scheme(plan: &LayoutPlan, variant: Variant) -> String {
    match variant {
        Variant::Plain => "none".into(),
        Variant::Tuned => plan.describe(),
        Variant::Stepped if plan.all_base() => plan.describe(),
        Variant::Stepped => format!("{}; line {}", plan.describe(), plan.describe_line()),
    }
}

fn first_diff(a: &[u64], b: &[u64]) -> Option<usize> {
    if a.len() != b.len() {
        return Some(a.len().min(b.len()));
    }
    a.iter().zip(b).position(|(x, y)| x != y)
}

/// One configuration of [`measure`] and what its runs gave so far.
struct Config<'p> {
    storage: Storage<'p>,
    m: Measurement,
    /// The configuration whose runs this one shares ([`Measurement::runs_as`]).
    shares: Option<usize>,
}

/// Runs `kernel` at `size`: the full-storage reference and every method's mapping in
/// every [`Variant`] (`stepped` only when it differs from `tuned`), `reps` rounds,
/// each running every configuration once, in an order rotated by one per round
/// (interleaved, so that a change of machine load hits all configurations alike
/// rather than one). A configuration that is the program of another one
/// ([`Measurement::runs_as`]) is not run: it gets that one's samples. Every run's
/// outputs are compared with the first full-storage run's; the measurements are
/// returned even on a mismatch (`output_equal = false`), so the caller can record them
/// before failing. Peak RSS: reset before each run, the maximum over the
/// configuration's runs. `progress` is told what runs.
pub fn measure(
    suite_dir: &Path,
    kernel: KernelId,
    size: Size,
    methods: &[String],
    backend: &str,
    reps: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<Measurement>, KernelError> {
    let inst = Instance::new(kernel, size)?;
    let measurement = |method: &str, example: String, variant: &str| Measurement {
        kernel,
        size,
        method: method.into(),
        example,
        variant: variant.into(),
        mapping: "full".into(),
        mitigation: String::new(),
        verification: String::new(),
        samples_ms: Vec::new(),
        bytes: 0,
        peak_rss: None,
        output_equal: true,
        first_difference: None,
        runs_as: None,
    };
    let mut plans = Vec::new();
    for method in methods {
        progress(&format!("{} {size}: {method} (allocating)", kernel.name()));
        let mm = method_mapping(suite_dir, kernel, method, backend)?;
        let params = inst.params_of(&mm.mapping)?;
        let mut pad_err = None;
        let plan = inst.plan(&mm.mapping, &mut |row, p| match padded_valid(&mm, &params, row, p, backend) {
            Ok(v) => Ok(v),
            Err(e) => {
                pad_err = Some(e.to_string());
                Ok(false)
            }
        })?;
        plans.push((mm, plan, pad_err));
    }
    let mut configs = vec![Config { storage: Storage::Full, m: measurement("full", format!("smo-{}", kernel.name()), "full"), shares: None }];
    for (mm, plan, pad_err) in &plans {
        for variant in Variant::ALL {
            // An all-`base` mapping runs the same code (`Linear`) tuned and stepped:
            // measured once, so that the best of two samples of one program does not
            // pass for a gain.
            if variant == Variant::Stepped && plan.all_base() {
                continue;
            }
            let mut m = measurement(&mm.method, mm.example.clone(), variant.name());
            m.mapping = mm.mapping.to_string();
            m.verification = mm.verification.clone();
            let scheme = scheme(plan, variant);
            m.mitigation = match (variant, pad_err) {
                (Variant::Plain, _) | (_, None) => scheme,
                (_, Some(e)) => format!("{scheme} (padding check failed: {e})"),
            };
            // One program is measured once, so that the noise between two runs of it
            // does not pass for a cost or a gain of folding: a mapping that folds
            // nothing, with the addresses of full storage once tuned, runs as the
            // full-storage program (what a compiler does with an identity layout); a
            // plan and variant already measured for another method is that program.
            let shares = if variant == Variant::Tuned && inst.same_as_full(plan)? {
                m.mitigation = format!("{} = full storage", m.mitigation);
                Some(0)
            } else {
                configs.iter().position(|c| matches!(c.storage, Storage::Folded(p, v) if v == variant && *p == *plan) && c.shares.is_none())
            };
            m.runs_as = shares.map(|k| configs[k].m.method.clone());
            configs.push(Config { storage: Storage::Folded(plan, variant), m, shares });
        }
    }
    let mut reference: Option<Vec<u64>> = None;
    for round in 0..reps.max(1) {
        progress(&format!("{} {size}: round {} of {} ({} configurations)", kernel.name(), round + 1, reps.max(1), configs.len()));
        // Rotated by one configuration per round (full storage first in the first
        // round, which gives the reference values), so that no configuration always
        // runs in the same position (e.g. right after the full-storage run's frees).
        // One run per sample: repeating a configuration back to back changes what the
        // allocator hands the full-storage array (fresh pages to fault, or memory
        // already touched), and with it full storage's time, by up to 2x on
        // blur-interleaved; interleaving keeps every configuration in the same
        // conditions.
        let n = configs.len();
        for i in 0..n {
            let c = &mut configs[(i + round) % n];
            if c.shares.is_some() {
                continue;
            }
            let reset = reset_peak_rss();
            let out = inst.run(c.storage)?;
            let rss = if reset { peak_rss_bytes() } else { None };
            c.m.samples_ms.push(out.elapsed.as_secs_f64() * 1e3);
            c.m.bytes = out.folded_bytes();
            c.m.peak_rss = c.m.peak_rss.max(rss);
            let reference = reference.get_or_insert_with(|| out.values.clone());
            if c.m.first_difference.is_none() {
                c.m.first_difference = first_diff(&out.values, reference);
                c.m.output_equal = c.m.first_difference.is_none();
            }
        }
    }
    // The configurations that are another one's program get its runs.
    for k in 0..configs.len() {
        if let Some(j) = configs[k].shares {
            let src = configs[j].m.clone();
            let m = &mut configs[k].m;
            m.samples_ms = src.samples_ms;
            m.bytes = src.bytes;
            m.peak_rss = src.peak_rss;
            m.output_equal = src.output_equal;
            m.first_difference = src.first_difference;
        }
    }
    Ok(configs.into_iter().map(|c| c.m).collect())
}

/// The first mismatch among measurements, as an error.
pub fn check_outputs(ms: &[Measurement]) -> Result<(), KernelError> {
    match ms.iter().find(|m| !m.output_equal) {
        None => Ok(()),
        Some(m) => Err(KernelError::Mismatch {
            kernel: m.kernel.name().into(),
            method: m.method.clone(),
            variant: m.variant.clone(),
            index: m.first_difference.unwrap_or(0),
        }),
    }
}
