//! The layering rules of the workspace (README, "Workspace map"), checked on the sources
//! so that they cannot silently regress:
//!
//! * no cycle between the files of a crate (a file's `crate::module` uses, and items
//!   re-exported at the crate root resolved to the module that defines them);
//! * the method crates (one per paper) never depend on each other, and no crate
//!   depends on the CLI;
//! * one home per concept: one `gcd`, one executor, one program model, one method
//!   trait, one method registry;
//! * one door: every method runs through the facade's `run`, which verifies its answer.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    xtask::workspace_root()
}

/// The library crates of the workspace: (crate dir, its `src` dir).
fn crates() -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    let dir = root().join("crates");
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir).expect("crates/").filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for d in entries {
        if d.join("Cargo.toml").is_file() && d.join("src").is_dir() {
            let src = d.join("src");
            out.push((d, src));
        }
    }
    out.push((root().join("xtask"), root().join("xtask/src")));
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "target") {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Source without comments (line comments, doc comments) and string literals, so that
/// only code is scanned.
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Identifiers following `crate::` (`crate::a::b` gives `a`, `crate::{a, B}` gives both).
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(pos) = rest.find("crate::") {
        let before_ok = pos == 0 || !rest[..pos].chars().next_back().is_some_and(is_ident);
        let after = &rest[pos + "crate::".len()..];
        if before_ok {
            if let Some(group) = after.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let path: Vec<String> = item.trim().split("::").map(|s| s.trim().chars().take_while(|c| is_ident(*c)).collect()).collect();
                    if path.first().is_some_and(|s| !s.is_empty()) {
                        out.push(path);
                    }
                }
            } else {
                let text: String = after.chars().take_while(|c| is_ident(*c) || *c == ':').collect();
                let path: Vec<String> = text.split("::").filter(|s| !s.is_empty()).map(String::from).collect();
                if !path.is_empty() {
                    out.push(path);
                }
            }
        }
        rest = after;
    }
    out
}

/// `pub use module::{A, B}` / `pub use module::A` of a crate root: item -> module.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for stmt in lib.split(';') {
        let s = stmt.trim();
        let Some(body) = s.strip_prefix("pub use ") else { continue };
        let Some((module, items)) = body.split_once("::") else { continue };
        let items = items.trim().trim_start_matches('{').trim_end_matches('}');
        for it in items.split(',') {
            let name = it.trim().split(" as ").last().unwrap_or("").trim().to_string();
            if !name.is_empty() {
                out.insert(name, module.trim().to_string());
            }
        }
    }
    out
}

/// Module name of a file relative to `src`: `a/b.rs` -> `a::b`, `a/mod.rs` -> `a`.
fn module_name(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    let parts: Vec<String> = parts.into_iter().filter(|p| p != "mod").collect();
    parts.join("::")
}

/// Strongly connected components with more than one file.
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Kosaraju: order by finish time, then components on the reversed graph.
    fn visit(v: &str, edges: &BTreeMap<String, BTreeSet<String>>, seen: &mut BTreeSet<String>, order: &mut Vec<String>) {
        if !seen.insert(v.to_string()) {
            return;
        }
        for w in edges.get(v).into_iter().flatten() {
            visit(w, edges, seen, order);
        }
        order.push(v.to_string());
    }
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    for v in edges.keys() {
        visit(v, edges, &mut seen, &mut order);
    }
    let mut rev: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (v, ws) in edges {
        for w in ws {
            rev.entry(w.clone()).or_default().insert(v.clone());
        }
    }
    let mut assigned = BTreeSet::new();
    let mut out = Vec::new();
    for v in order.iter().rev() {
        if assigned.contains(v) {
            continue;
        }
        let mut comp = Vec::new();
        let mut stack = vec![v.clone()];
        while let Some(x) = stack.pop() {
            if !assigned.insert(x.clone()) {
                continue;
            }
            comp.push(x.clone());
            for w in rev.get(&x).into_iter().flatten() {
                if !assigned.contains(w) {
                    stack.push(w.clone());
                }
            }
        }
        if comp.len() > 1 {
            comp.sort();
            out.push(comp);
        }
    }
    out
}

#[test]
fn no_cycles_between_the_files_of_a_crate() {
    let mut found = Vec::new();
    for (dir, src) in crates() {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let modules: BTreeMap<String, String> =
            files.iter().map(|f| (module_name(&src, f), code_of(&std::fs::read_to_string(f).expect("readable source")))).collect();
        let root_items = modules.get("lib").map(|c| reexports(c)).unwrap_or_default();
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (m, code) in &modules {
            if m == "lib" || m == "main" {
                continue; // the crate root declares the modules: structure, not a use
            }
            let e = edges.entry(m.clone()).or_default();
            for path in crate_paths(code) {
                // The longest prefix naming a file of the crate.
                let target = (1..=path.len()).rev().map(|k| path[..k].join("::")).find(|p| modules.contains_key(p));
                let target = target.or_else(|| root_items.get(&path[0]).cloned().filter(|t| modules.contains_key(t)));
                if let Some(t) = target.filter(|t| t != m && t != "lib") {
                    e.insert(t);
                }
            }
        }
        for c in cycles(&edges) {
            let what: Vec<String> = c.iter().map(|v| format!("{v} -> {:?}", edges[v].iter().filter(|w| c.contains(w)).collect::<Vec<_>>())).collect();
            found.push(format!("{}: {}", dir.strip_prefix(root()).unwrap_or(&dir).display(), what.join("; ")));
        }
    }
    assert!(found.is_empty(), "files importing each other in a circle:\n{}", found.join("\n"));
}

/// `[dependencies]` package names of a crate manifest.
fn dependencies(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).expect("manifest");
    let mut out = Vec::new();
    let mut in_deps = false;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            in_deps = l == "[dependencies]";
            continue;
        }
        if in_deps {
            if let Some((name, _)) = l.split_once('=') {
                let name = name.trim().trim_end_matches(".workspace").to_string();
                if !name.is_empty() && !name.starts_with('#') {
                    out.push(name);
                }
            }
        }
    }
    out
}

#[test]
fn method_crates_are_independent_and_nothing_depends_on_the_cli() {
    let methods =
        ["polyalloc-alloc-lefe", "polyalloc-alloc-smo", "polyalloc-alloc-lattice", "polyalloc-alloc-ov", "polyalloc-alloc-flow", "polyalloc-sched"];
    let mut bad = Vec::new();
    let mut manifests: Vec<PathBuf> = crates().into_iter().map(|(d, _)| d.join("Cargo.toml")).collect();
    manifests.push(root().join("tests/Cargo.toml"));
    for m in manifests {
        let text = std::fs::read_to_string(&m).expect("manifest");
        let name = text.lines().find_map(|l| l.trim().strip_prefix("name = ")).map(|s| s.trim_matches('"').to_string()).unwrap_or_default();
        let deps = dependencies(&m);
        if deps.iter().any(|d| d == "polyalloc-cli") {
            bad.push(format!("{name} depends on the CLI crate"));
        }
        if methods.contains(&name.as_str()) {
            for d in deps.iter().filter(|d| methods.contains(&d.as_str())) {
                bad.push(format!("method crate {name} depends on method crate {d}"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Files of the workspace's libraries and binaries (not tests) whose code defines `what`.
fn definitions(what: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (_, src) in crates() {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for f in files {
            let code = code_of(&std::fs::read_to_string(&f).expect("readable source"));
            let hits = code.match_indices(what).filter(|(i, _)| !code[i + what.len()..].starts_with(is_ident)).count();
            for _ in 0..hits {
                out.push(f.strip_prefix(root()).unwrap_or(&f).display().to_string());
            }
        }
    }
    out
}

#[test]
fn one_home_per_concept() {
    for (what, home) in [
        ("fn gcd", "crates/formulation/src/int/mod.rs"),
        ("fn gcd_i128", "crates/formulation/src/int/mod.rs"),
        ("struct Executor", "crates/program/src/exec.rs"),
        ("struct Program", "crates/program/src/model.rs"),
        ("trait Method", "crates/alloc/src/method.rs"),
        ("enum DepKind", "crates/program/src/deps.rs"),
        ("fn hermite_normal_form", "crates/formulation/src/int/lin.rs"),
        ("fn orthogonal_complement", "crates/formulation/src/int/lin.rs"),
    ] {
        let defs = definitions(what);
        assert_eq!(defs, vec![home.to_string()], "`{what}` must be defined once, in {home}");
    }
    // The guard test: the model's, and its evaluation at fixed parameter values (the
    // simulations' fast path, which falls back to the model's and is checked against it
    // by crates/program/tests/simulation.rs).
    let mut guard_tests = definitions("fn happens_at");
    guard_tests.sort();
    assert_eq!(guard_tests, vec!["crates/program/src/compiled.rs".to_string(), "crates/program/src/model.rs".to_string()]);
    // Two registries, of two concepts: the solver backends (ILP layer) and the methods
    // (facade).
    assert_eq!(definitions("struct Registry"), vec!["crates/ilp/src/registry.rs".to_string(), "crates/polyalloc/src/registry.rs".to_string()]);
}

/// One door: every method runs through the facade's `run` (which verifies the answer
/// with the exact checker before returning it). No library offers a second entry point
/// that runs a method and verifies it on its own terms (the CLI's `allocate`
/// subcommand handler calls `run`).
#[test]
fn one_door() {
    assert_eq!(definitions("fn run(input: &Input"), vec!["crates/polyalloc/src/run.rs".to_string()]);
    for second in ["fn allocate_recorded", "struct Allocation"] {
        assert_eq!(definitions(second), Vec::<String>::new(), "`{second}`: a second door beside `polyalloc::run`");
    }
    assert_eq!(definitions("fn allocate"), vec!["crates/cli/src/main.rs".to_string()], "`fn allocate` outside the CLI's subcommand");
}
