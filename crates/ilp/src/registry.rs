//! The backend registry: names to solver constructors.

use crate::solve::{SolveError, Solver};

/// Builds a solver instance.
pub type SolverFactory = fn() -> Result<Box<dyn Solver>, SolveError>;

/// Asked for a backend that is not compiled in.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error("unknown backend `{name}`; compiled in: {}", available.join(", "))]
pub struct UnknownBackend {
    pub name: String,
    pub available: Vec<String>,
}

struct Entry {
    name: &'static str,
    description: &'static str,
    factory: SolverFactory,
}

/// Maps backend names (`microlp`, `highs`, `cbc`) to constructors. The first registered
/// backend is the default. `polyalloc-solvers` builds the registry of compiled-in ones.
#[derive(Default)]
pub struct Registry {
    entries: Vec<Entry>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a backend (a later registration under the same name replaces it).
    pub fn register(&mut self, name: &'static str, description: &'static str, factory: SolverFactory) {
        self.entries.retain(|e| e.name != name);
        self.entries.push(Entry { name, description, factory });
    }

    /// Names in registration order.
    pub fn names(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.name).collect()
    }

    /// `(name, description)` pairs.
    pub fn describe(&self) -> Vec<(&'static str, &'static str)> {
        self.entries.iter().map(|e| (e.name, e.description)).collect()
    }

    /// The default backend's name (the first registered).
    pub fn default_name(&self) -> Option<&'static str> {
        self.entries.first().map(|e| e.name)
    }

    fn unknown(&self, name: &str) -> UnknownBackend {
        UnknownBackend { name: name.to_string(), available: self.names().iter().map(|s| s.to_string()).collect() }
    }

    /// Looks a name up without constructing the solver.
    pub fn contains(&self, name: &str) -> bool {
        self.entries.iter().any(|e| e.name == name)
    }

    /// Constructs the named backend.
    pub fn create(&self, name: &str) -> Result<Box<dyn Solver>, RegistryError> {
        let entry = self.entries.iter().find(|e| e.name == name).ok_or_else(|| self.unknown(name))?;
        Ok((entry.factory)()?)
    }

    /// Resolves a user's backend selection: `all`, one name, or a comma-separated list.
    pub fn select(&self, spec: &str) -> Result<Vec<&'static str>, UnknownBackend> {
        if spec.trim() == "all" {
            return Ok(self.names());
        }
        spec.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| self.entries.iter().find(|e| e.name == s).map(|e| e.name).ok_or_else(|| self.unknown(s)))
            .collect()
    }
}

/// Failure to create a backend.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error(transparent)]
    Unknown(#[from] UnknownBackend),
    #[error(transparent)]
    Create(#[from] SolveError),
}
