//! Issue 16: under concurrent use, 8 `polyalloc allocate` processes at once on
//! different examples give exactly the output of the same commands run one after the
//! other (timing fields excepted: they are measurements).

use std::process::{Command, Output};

const EXAMPLES: [&str; 8] = [
    "smo-produce-consume",
    "smo-produce-consume-n9",
    "lattice-reverse-l",
    "lattice-stencil-2d-5x5",
    "smo-stencil-1d-pllgm-tile",
    "lattice-blur-interleaved",
    "pugh-example1",
    "flow-example1",
];

fn command(id: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_polyalloc"));
    let file = polyalloc_suite::default_dir().join(format!("{id}.json"));
    c.arg("allocate").arg(file).arg("--json");
    c
}

/// The records of a run without their timing fields, with the exit code.
fn normalised(out: &Output) -> (Option<i32>, Vec<serde_json::Value>) {
    let mut recs = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let mut v: serde_json::Value = serde_json::from_str(line).expect("one JSON record per line");
        strip_times(&mut v);
        recs.push(v);
    }
    (out.status.code(), recs)
}

fn strip_times(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            m.retain(|k, _| !(k == "ms" || k.ends_with("_ms") || k.ends_with("_seconds")));
            m.values_mut().for_each(strip_times);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(strip_times),
        _ => {}
    }
}

#[test]
fn eight_processes_at_once_give_the_serial_outputs() {
    let serial: Vec<_> = EXAMPLES.iter().map(|id| normalised(&command(id).output().expect("runs"))).collect();
    for (id, (code, recs)) in EXAMPLES.iter().zip(&serial) {
        assert_eq!(*code, Some(0), "{id}");
        assert!(!recs.is_empty(), "{id}");
    }
    let children: Vec<_> = EXAMPLES
        .iter()
        .map(|id| command(id).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().expect("spawns"))
        .collect();
    let concurrent: Vec<_> = children.into_iter().map(|c| normalised(&c.wait_with_output().expect("waits"))).collect();
    for ((id, s), c) in EXAMPLES.iter().zip(&serial).zip(&concurrent) {
        assert_eq!(s, c, "{id}: the concurrent run differs from the serial one");
    }
}
