//! Runs the lattice methods on the `lattice-*` bench-suite files and prints the result.
use polyalloc_alloc::{verify, AllocError, Allocator};
use polyalloc_alloc_lattice::{Lattice, LatticeH1, LatticeH2};
use polyalloc_backend_microlp::MicrolpSolver;
use polyalloc_suite::{default_dir, load_dir};

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let solver = MicrolpSolver;
    let methods: Vec<Box<dyn Allocator>> = vec![Box::new(LatticeH1::default()), Box::new(LatticeH2::default()), Box::new(Lattice::default())];
    for ex in load_dir(&default_dir()).unwrap_or_default() {
        if !ex.id.starts_with("lattice-") || !ex.id.contains(&filter) {
            continue;
        }
        for array in ex.allocatable_arrays() {
            let Ok(problem) = ex.problem(&array) else { continue };
            for m in &methods {
                let t = std::time::Instant::now();
                // The method's mapping, then the exact checker (a method never checks itself).
                let found = m.find_mapping(&problem, &solver).and_then(|mapping| {
                    let v = verify(&problem, &mapping, &solver, m.name())?;
                    let size = mapping.size().map_err(AllocError::formulation(m.name()))?;
                    Ok((mapping, size, v))
                });
                match found {
                    Ok((mapping, size, v)) => println!(
                        "{} {} {}: {} size {:?} [{}] {:?}",
                        ex.id,
                        array,
                        m.name(),
                        mapping,
                        size.map(|s| s.to_string()),
                        v.label(),
                        t.elapsed()
                    ),
                    Err(e) => println!("{} {} {}: ERROR {e} {:?}", ex.id, array, m.name(), t.elapsed()),
                }
            }
            if let Ok(r) = LatticeH2::default().run(&problem, &solver) {
                println!("   h2: reuse {:?} rho {:?} stop {:?}", r.reuse_vectors, r.rho, r.stop);
            }
        }
    }
}
