//! The one method registry: every method of polyalloc by name, in paper order. The
//! CLI, the harness (`cargo xtask`), the kernels and the tests all take methods from
//! here; a method is added by registering it once below.

use crate::error::Error;
use polyalloc_alloc::{Allocator, Method, OnConflictSets};
use std::sync::OnceLock;

/// Names to methods.
pub struct Registry {
    methods: Vec<Box<dyn Method>>,
}

/// Every method compiled into this build, in a fixed order: the conflict-set methods
/// (successive modulo, SMO and its orientation-independent variant `smo-sym`, the lattice heuristics),
/// inter-array storage (`smo-inter`,
/// the SMO tool's extension), the program methods (occupancy vectors, Pugh's
/// scheduling, network-flow contraction), `lattice-exact` (the least lattice at one instance), then
/// `best`, whose ties are decided by its own rule ([`crate::best::winner`]) and, last, by this order.
///
/// A new method is its own crate (implementing [`Method`], or [`Allocator`] for a
/// conflict-set method) plus one line here, one dependency line in this crate's
/// manifest and its entry in the workspace manifest.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut r = Registry { methods: Vec::new() };
        r.register(Box::new(OnConflictSets(polyalloc_alloc_lefe::Lefe::default())));
        r.register(Box::new(OnConflictSets(polyalloc_alloc_smo::Smo::default())));
        r.register(Box::new(OnConflictSets(polyalloc_alloc_smo::SmoSym::default())));
        r.register(Box::new(OnConflictSets(polyalloc_alloc_lattice::LatticeH1::default())));
        r.register(Box::new(OnConflictSets(polyalloc_alloc_lattice::LatticeH2::default())));
        r.register(Box::new(OnConflictSets(polyalloc_alloc_lattice::Lattice::default())));
        r.register(Box::new(polyalloc_alloc_smo::SmoInter::default()));
        r.register(Box::new(polyalloc_alloc_ov::Ov));
        r.register(Box::new(polyalloc_alloc_ov::Aov));
        r.register(Box::new(polyalloc_alloc_ov::Uov));
        r.register(Box::new(polyalloc_sched::ScheduleMethod));
        r.register(Box::new(polyalloc_alloc_flow::Flow));
        r.register(Box::new(polyalloc_alloc_lattice::LatticeExact));
        r.register(Box::new(crate::best::Best::new(|| registry().all().collect())));
        r
    })
}

impl Registry {
    fn register(&mut self, m: Box<dyn Method>) {
        self.methods.retain(|x| x.name() != m.name());
        self.methods.push(m);
    }

    /// The method called `name`.
    pub fn get(&self, name: &str) -> Option<&dyn Method> {
        self.methods.iter().find(|m| m.name() == name).map(|m| m.as_ref())
    }

    /// The conflict-set allocator called `name` (for callers with a problem of their
    /// own); `None` for unknown names and for methods that do not take a conflict set.
    pub fn allocator(&self, name: &str) -> Option<&dyn Allocator> {
        self.get(name).and_then(|m| m.as_allocator())
    }

    /// All methods in registration order.
    pub fn all(&self) -> impl Iterator<Item = &dyn Method> {
        self.methods.iter().map(|m| m.as_ref())
    }

    /// All names in registration order.
    pub fn names(&self) -> Vec<&'static str> {
        self.methods.iter().map(|m| m.name()).collect()
    }

    /// Resolves `all`, a name, or a comma-separated list; an unknown name is an input
    /// error that lists the available methods. `all` is every method but `best` (which
    /// runs the others itself).
    pub fn select(&self, spec: &str) -> Result<Vec<&dyn Method>, Error> {
        let chosen: Vec<&dyn Method> = if spec.trim() == "all" {
            self.all().filter(|m| m.answer() != polyalloc_alloc::Answer::BestOfOthers).collect()
        } else {
            spec.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| {
                    self.get(s).ok_or_else(|| {
                        let hint = nearest(s, &self.names()).map(|n| format!(" (did you mean `{n}`?)")).unwrap_or_default();
                        Error::Input(format!("unknown method `{s}`{hint}; available: {}", self.names().join(", ")))
                    })
                })
                .collect::<Result<_, _>>()?
        };
        if chosen.is_empty() {
            return Err(Error::Input(format!("no method selected; available: {}", self.names().join(", "))));
        }
        Ok(chosen)
    }
}

/// The name of `names` nearest to `typed` by edit distance, when it is a plausible typo
/// (at most 2 edits, and fewer than the typed length).
fn nearest<'a>(typed: &str, names: &[&'a str]) -> Option<&'a str> {
    let typed = typed.to_lowercase();
    names.iter().map(|n| (edit_distance(&typed, n), *n)).filter(|&(d, _)| d <= 2 && d < typed.chars().count()).min_by_key(|&(d, _)| d).map(|(_, n)| n)
}

/// Levenshtein distance (insertions, deletions, substitutions), by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = (diag + usize::from(ca != cb)).min(row[j] + 1).min(up + 1);
            diag = up;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_gets_the_nearest_name() {
        assert_eq!(edit_distance("smo", "smo"), 0);
        assert_eq!(edit_distance("lattic", "lattice"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        let names = ["lefe", "smo", "smo-sym", "lattice", "lattice-exact", "best"];
        assert_eq!(nearest("smp", &names), Some("smo"));
        assert_eq!(nearest("Lattise", &names), Some("lattice"));
        assert_eq!(nearest("bset", &names), Some("best"));
        assert_eq!(nearest("xyz", &names), None);
        assert_eq!(nearest("simplex", &names), None);
    }
}
