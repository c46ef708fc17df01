//! `cargo run -p polyalloc-kernels --example measure -- KERNEL [REPS] [small]`: one
//! kernel's measurements without the harness (what `cargo xtask kernels` records).

use polyalloc_kernels::{check_outputs, measure, KernelId};
use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(k) = args.first().and_then(|a| KernelId::from_name(a)) else {
        let names: Vec<&str> = KernelId::ALL.iter().map(|k| k.name()).collect();
        eprintln!("usage: measure KERNEL [REPS] [small]; kernels: {}", names.join(", "));
        std::process::exit(1);
    };
    let reps = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(3);
    let size = if args.iter().any(|a| a == "small") { k.small_size() } else { k.default_size() };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("..").join("bench-suite");
    let methods = vec!["lefe".to_string(), "smo".to_string(), "lattice".to_string()];
    match measure(&dir, k, size, &methods, polyalloc_solvers::DEFAULT_BACKEND, reps, &mut |w| eprintln!("{w}")) {
        Ok(ms) => {
            for m in &ms {
                let mut s = m.samples_ms.clone();
                s.sort_by(|a, b| a.total_cmp(b));
                println!(
                    "{:10} {:6} {:40} {:28} median {:9.2} ms  bytes {:12}  rss {:?}  equal {}",
                    m.method,
                    m.variant,
                    m.mapping,
                    m.mitigation,
                    s[s.len() / 2],
                    m.bytes,
                    m.peak_rss,
                    m.output_equal
                );
            }
            if let Err(e) = check_outputs(&ms) {
                eprintln!("error: {e}");
                std::process::exit(3);
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
