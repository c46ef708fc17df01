//! Runs the lattice methods on the `lattice-*` bench-suite files and prints the result.
use polyalloc_alloc::{allocate, Allocator};
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
                match allocate(m.as_ref(), &problem, &solver) {
                    Ok(a) => println!(
                        "{} {} {}: {} size {:?} [{}] {:?}",
                        ex.id,
                        array,
                        m.name(),
                        a.mapping,
                        a.size.map(|s| s.to_string()),
                        a.verification.label(),
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
