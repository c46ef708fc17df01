//! Every kernel at small sizes, with full storage and with the mapping of every
//! registered method (obtained from the allocator, on every compiled-in backend), in
//! every variant and every innermost-loop scheme (`stepped` as planned, and with every
//! wrapping row forced to `split`, then to `step`), must give bit for bit the live-out
//! values of the plain full-array loops of `polyalloc_kernels::reference` (written
//! without tiles or layouts), which are also the full-storage run's.

use polyalloc_kernels::layout::{self, ArraySpace};
use polyalloc_kernels::{method_mapping, padded_valid, Instance, KernelId, Storage, Variant};
use std::path::PathBuf;

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("..").join("bench-suite")
}

/// Methods that must give a mapping for every kernel example.
const REQUIRED: [&str; 3] = ["lefe", "smo", "lattice"];

fn check_kernel(k: KernelId) {
    let inst = Instance::new(k, k.small_size()).unwrap();
    let reference = inst.reference();
    assert!(!reference.is_empty());
    let full = inst.run(Storage::Full).unwrap();
    assert_eq!(full.values, reference, "{}: full storage differs from the plain loops", k.name());
    let registry = polyalloc::registry();
    // Every backend held to every paper result (`polyalloc_solvers::LIMITED` excepted).
    for backend in polyalloc_solvers::paper_backends() {
        for method in registry.names().into_iter().filter(|m| registry.allocator(m).is_some()) {
            let mm = match method_mapping(&suite_dir(), k, method, backend) {
                Ok(mm) => mm,
                Err(e) if !REQUIRED.contains(&method) => {
                    eprintln!("{}: {method}: skipped: {e}", k.name());
                    continue;
                }
                Err(e) => panic!("{}: {method} on {backend}: {e}", k.name()),
            };
            let params = inst.params_of(&mm.mapping).unwrap();
            let plan = inst.plan(&mm.mapping, &mut |row, p| padded_valid(&mm, &params, row, p, backend)).unwrap();
            let (split, step) = (plan.with_split_min_run(1), plan.with_split_min_run(i64::MAX));
            let runs = Variant::ALL.into_iter().map(|v| (v, &plan)).chain([(Variant::Stepped, &split), (Variant::Stepped, &step)]);
            for (v, plan) in runs {
                let out = inst.run(Storage::Folded(plan, v)).unwrap();
                assert_eq!(
                    out.values,
                    reference,
                    "{}: {method} {} ({}; {}) differs from the reference",
                    k.name(),
                    v.name(),
                    mm.mapping,
                    polyalloc_kernels::scheme(plan, v)
                );
                if v == Variant::Plain {
                    if let Ok(size) = mm.mapping.size_for(&params) {
                        // The folded array is one data tile of the mapping's size per tile.
                        assert_eq!(out.folded_cells as i128 % size, 0, "{}: {method}", k.name());
                    }
                }
            }
        }
    }
}

#[test]
fn produce_consume() {
    check_kernel(KernelId::ProduceConsume);
}
#[test]
fn blur_interleaved() {
    check_kernel(KernelId::BlurInterleaved);
}
#[test]
fn blur_tiled() {
    check_kernel(KernelId::BlurTiled);
}
#[test]
fn unsharp_mask_tiled() {
    check_kernel(KernelId::UnsharpMaskTiled);
}
#[test]
fn harris_corner_tiled() {
    check_kernel(KernelId::HarrisCornerTiled);
}
#[test]
fn lbm_d2q9() {
    check_kernel(KernelId::LbmD2q9);
}
#[test]
fn lbm_d3q19() {
    check_kernel(KernelId::LbmD3q19);
}
#[test]
fn lbm_d3q27() {
    check_kernel(KernelId::LbmD3q27);
}
#[test]
fn diamond_tile() {
    check_kernel(KernelId::DiamondTile);
}
#[test]
fn stencil_1d_pllgm_tile() {
    check_kernel(KernelId::Stencil1dPllgmTile);
}

/// The comparison can fail: an invalid mapping (every cell of the data tile in one
/// location) gives different outputs.
#[test]
fn invalid_mapping_is_detected() {
    for k in [KernelId::BlurTiled, KernelId::Stencil1dPllgmTile, KernelId::LbmD2q9] {
        let inst = Instance::new(k, k.small_size()).unwrap();
        let d = if k == KernelId::LbmD2q9 { 3 } else { 2 };
        let (lo, hi) = (vec![0; d], vec![100; d]);
        let space = ArraySpace { lo: &lo, hi: &hi, member: None };
        let mut h = vec![0; d];
        h[d - 1] = 1;
        let plan = layout::plan(&[h], &[Some(1)], &space, &mut |_, _| Ok(false)).unwrap();
        for v in Variant::ALL {
            let out = inst.run(Storage::Folded(&plan, v)).unwrap();
            assert_ne!(out.values, inst.reference(), "{}: a one-cell array cannot be valid", k.name());
        }
    }
}

/// Bhaskaracharya et al. 2016, Table II, column "Storage reduction" (baseline size over SMO size at the
/// benchmark's size): the allocators' mappings evaluated at the paper's sizes.
#[test]
fn table_ii_storage_reduction() {
    let cases: [(KernelId, i64, f64); 9] = [
        (KernelId::BlurInterleaved, 8192, 1.50),
        (KernelId::BlurTiled, 512, 170.8),
        (KernelId::UnsharpMaskTiled, 512, 102.6),
        (KernelId::HarrisCornerTiled, 64, 21.56),
        (KernelId::LbmD2q9, 1024, 2.00),
        (KernelId::LbmD3q19, 200, 2.00),
        (KernelId::LbmD3q27, 200, 2.00),
        (KernelId::DiamondTile, 256, 85.44),
        (KernelId::Stencil1dPllgmTile, 8, 2.91),
    ];
    let backend = polyalloc_solvers::DEFAULT_BACKEND;
    for (k, p, paper) in cases {
        let lefe = method_mapping(&suite_dir(), k, "lefe", backend).unwrap().mapping.size_for(&[p]).unwrap();
        let smo = method_mapping(&suite_dir(), k, "smo", backend).unwrap().mapping.size_for(&[p]).unwrap();
        let ratio = lefe as f64 / smo as f64;
        // The paper prints 3 to 4 significant digits (LBM: 2N^2 / (N^2 + 2N) -> 2.00).
        assert!((ratio - paper).abs() / paper < 0.01, "{}: {ratio} vs paper {paper}", k.name());
    }
}

/// Padding a modulus to a power of two (Bhaskaracharya et al. 2016, Sec. 5) is used only when the exact checker
/// proves it: `(i - t) mod (2N - 1)` of produce-consume (Bhaskaracharya et al. 2016, Sec. 3.1) padded to 32 at
/// N = 16 keeps every conflict difference `|i - t - (i2 - t2)| <= 2N - 2 < 32` apart;
/// an already invalid mapping (modulus 3) stays invalid when padded to 4.
#[test]
fn padding_is_checked() {
    let backend = polyalloc_solvers::DEFAULT_BACKEND;
    let mm = method_mapping(&suite_dir(), KernelId::ProduceConsume, "smo", backend).unwrap();
    assert_eq!(mm.mapping.rows.len(), 1);
    assert!(padded_valid(&mm, &[16], 0, 32, backend).unwrap());
    let mut bad = mm.clone();
    bad.mapping = polyalloc_formulation::ModularMapping::parse("[N] -> { A[t, i] -> A[(i - t) mod 3] }").unwrap();
    assert!(!padded_valid(&bad, &[16], 0, 4, backend).unwrap());
    // Independent brute force of the first claim: distinct folded cells for every
    // conflicting pair of the printed conflict set (004 Fig. 2(c)) at N = 16.
    let n = 16i64;
    let conflict = |t: i64, i: i64, t2: i64, i2: i64| (t2 == t && i2 > i) || (t2 == t + 1 && i2 < i) || (t2 > t && i == n);
    for t in 1..=n {
        for i in 1..=n {
            for t2 in 1..=n {
                for i2 in 1..=n {
                    if conflict(t, i, t2, i2) || conflict(t2, i2, t, i) {
                        assert_ne!((i - t).rem_euclid(32), (i2 - t2).rem_euclid(32));
                    }
                }
            }
        }
    }
}

/// A recorded mismatch becomes an error naming the kernel, method and variant.
#[test]
fn mismatch_is_an_error() {
    use polyalloc_kernels::{check_outputs, KernelError, Measurement, Size};
    let m = |equal: bool| Measurement {
        kernel: KernelId::BlurTiled,
        size: Size { n: 24, t: 0, b: 8 },
        method: "smo".into(),
        example: "smo-blur-tiled".into(),
        variant: "tuned".into(),
        mapping: String::new(),
        mitigation: String::new(),
        verification: String::new(),
        samples_ms: vec![1.0],
        bytes: 0,
        peak_rss: None,
        output_equal: equal,
        first_difference: if equal { None } else { Some(7) },
        runs_as: None,
    };
    assert!(check_outputs(&[m(true), m(true)]).is_ok());
    match check_outputs(&[m(true), m(false)]) {
        Err(KernelError::Mismatch { kernel, method, variant, index }) => {
            assert_eq!((kernel.as_str(), method.as_str(), variant.as_str(), index), ("blur-tiled", "smo", "tuned", 7));
        }
        other => panic!("expected a mismatch error, got {other:?}"),
    }
}

/// A method's conflict set comes from the example of the paper that reports the method
/// on the kernel (its `paper` results): the lattice paper's view for `lattice` where
/// it exists, Bhaskaracharya et al. 2016's otherwise and for the methods both report.
#[test]
fn example_follows_the_reporting_paper() {
    let dir = suite_dir();
    let id = |k: KernelId, m: &str| k.example_for(&dir, m).unwrap().id;
    assert_eq!(id(KernelId::LbmD2q9, "lattice"), "lattice-lbm-d2q9");
    assert_eq!(id(KernelId::LbmD2q9, "smo"), "smo-lbm-d2q9");
    assert_eq!(id(KernelId::LbmD2q9, "lefe"), "smo-lbm-d2q9");
    assert_eq!(id(KernelId::HarrisCornerTiled, "lattice"), "smo-harris-corner-tiled");
    assert_eq!(id(KernelId::ProduceConsume, "lattice"), "smo-produce-consume");
}

/// `lefe` keeps every cell of a tiled kernel's data tile (`A[x mod B, y mod B]`): its
/// tuned layout is full storage itself, which `cargo xtask kernels` runs as the
/// full-storage program; SMO's folded tile is not.
#[test]
fn lefe_on_a_tile_is_the_full_storage_layout() {
    let backend = polyalloc_solvers::DEFAULT_BACKEND;
    for k in [KernelId::BlurTiled, KernelId::UnsharpMaskTiled, KernelId::HarrisCornerTiled] {
        let inst = Instance::new(k, k.small_size()).unwrap();
        for (method, expected) in [("lefe", true), ("smo", false)] {
            let mm = method_mapping(&suite_dir(), k, method, backend).unwrap();
            let plan = inst.plan(&mm.mapping, &mut |_, _| Ok(false)).unwrap();
            assert_eq!(inst.same_as_full(&plan).unwrap(), expected, "{}: {method}: {}", k.name(), mm.mapping);
        }
    }
}

/// `measure` runs one program once: `lefe`'s tuned run on a tile is the full-storage
/// program and gets its samples; `lattice`'s, with the same plan as `smo`'s, gets
/// `smo`'s; `smo`'s own runs are measured.
#[test]
fn one_program_is_measured_once() {
    use polyalloc_kernels::measure;
    let k = KernelId::BlurTiled;
    let methods: Vec<String> = REQUIRED.iter().map(|m| m.to_string()).collect();
    let ms = measure(&suite_dir(), k, k.small_size(), &methods, polyalloc_solvers::DEFAULT_BACKEND, 2, &mut |_| {}).unwrap();
    let get =
        |method: &str, variant: &str| ms.iter().find(|m| m.method == method && m.variant == variant).unwrap_or_else(|| panic!("{method} {variant}"));
    let full = get("full", "full");
    let (lefe, smo, lattice) = (get("lefe", "tuned"), get("smo", "tuned"), get("lattice", "tuned"));
    assert_eq!(full.samples_ms.len(), 2);
    assert_eq!((lefe.runs_as.as_deref(), &lefe.samples_ms), (Some("full"), &full.samples_ms));
    assert_eq!(smo.runs_as, None);
    assert_eq!(smo.mapping, lattice.mapping, "the bench-suite's smo and lattice mappings of blur-tiled");
    assert_eq!((lattice.runs_as.as_deref(), &lattice.samples_ms), (Some("smo"), &smo.samples_ms));
    assert!(ms.iter().all(|m| m.output_equal));
}
