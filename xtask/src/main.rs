fn main() { eprintln!("xtask: no commands yet"); std::process::exit(1); }
