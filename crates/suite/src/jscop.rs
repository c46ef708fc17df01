//! Reader of Polly's JSCoP files (`*.jscop`).
//!
//! Polly (LLVM's polyhedral optimiser) exports each static control part (SCoP) it finds
//! as one JSON file (`opt -polly-export-jscop`): the parameters' context, the arrays
//! with their element type and sizes (the outermost size may be `*`), and per statement
//! its iteration domain, its schedule (the original order) and its memory accesses
//! (`read` or `write`, an isl relation each), all in isl notation. This reader turns
//! one file into an [`Example`] of the bench-suite model with a program, so that every
//! method of polyalloc runs on a compiler's SCoP as on a hand-written example:
//!
//! * **Names.** `MemRef_A` is the array `A` (the C name, with `-polly-use-llvm-names`);
//!   a file written by `polyalloc fold` also names the arrays Polly calls after an LLVM
//!   value (`MemRef_call` for a `malloc`ed `bx` is `bx`). Parameters keep their names.
//! * **Scalars.** Zero-dimensional arrays (Polly's `__phi` and `__s2a` scalars, and
//!   other scalars it demotes to memory) hold one value each: nothing folds them, and
//!   they are left out with their accesses.
//! * **Accesses.** Every access of a statement is kept, in order, whatever array it
//!   names (a statement may read several arrays). Writes of a statement that covers a
//!   non-affine region (Polly names them `A__TO__B`) may not happen: they are also
//!   recorded as reads of the same cells, so that the value the write may leave in
//!   place stays live. Relations that are functions only on the domain (Polly's floor
//!   divisions for arrays reached through a pointer to rows) are read as the function
//!   they are there (`polyalloc_program::access`).
//! * **What lives after the SCoP** (live-out). A JSCoP does not say which arrays are
//!   local to the function. Without more information every array is live-out as a
//!   whole (the safe reading: then nothing folds). The field `polyalloc` (ignored by
//!   Polly), which `polyalloc fold` writes from the function's code, says more: an
//!   array local to the function (`alloca` or `malloc` there, used only inside the
//!   SCoP) is scratch, nothing of it is live-out; another array is live-out as a whole
//!   unless `live_out` narrows it. [`JscopOptions`] gives the same from the command
//!   line.
//! * **Array spaces** are the boxes of the declared sizes; a dimension of unknown size
//!   (`*`) is bounded by the cells the statements access when the SCoP has no
//!   parameters, and below by 0 otherwise.
//! * **Parameters.** Polly's context bounds each parameter by its C type's range; those
//!   rows are type information and are dropped (they exceed what some solvers
//!   represent), so the context holds what else Polly knows. A live-out set may name
//!   the parameters without declaring them (`{ A[t, i] : t = T - 1 }`).
//! * **Inputs.** Cells the SCoP reads before it writes them hold values from before
//!   the SCoP: like every cell only read, they are not part of a conflict set, and a
//!   mapping folds the values the SCoP writes (`polyalloc fold` keeps such cells where
//!   they are, and its check refuses a folding that would lose one).
//! * **Instances.** A SCoP without parameters has one instance (its sizes are fixed);
//!   otherwise the values given by [`JscopOptions::params`], if any.
//!
//! Errors name the file and the statement and access (`statements[2].accesses[1]`),
//! or the array, and what was expected.

use crate::{ArraySpec, Example, ProgramSpec, Relations, Source, StatementSpec, SuiteError};
use polyalloc_formulation::Set;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The file name suffix of the format.
pub const EXTENSION: &str = ".jscop";

/// True for a file named `*.jscop`.
pub fn is_jscop(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.len() > EXTENSION.len() && n.ends_with(EXTENSION))
}

/// One JSCoP file, as Polly writes and reads it (unknown fields are kept).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct Jscop {
    /// The region (`%for.cond---%for.end26`).
    pub name: String,
    /// The parameters' context (`[T, N] -> { : ... }`).
    pub context: String,
    /// The arrays.
    #[serde(default)]
    pub arrays: Vec<JscopArray>,
    /// The statements.
    pub statements: Vec<JscopStatement>,
    /// What polyalloc knows of the arrays' lifetimes (ignored by Polly).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub polyalloc: Option<Liveness>,
    /// Other fields.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// One array of a JSCoP.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct JscopArray {
    /// `MemRef_A`.
    pub name: String,
    /// Sizes, outermost first (`*` for an unknown outermost size).
    #[serde(default)]
    pub sizes: Vec<String>,
    /// The element type (`double`, `float`, `i32`).
    #[serde(rename = "type")]
    pub ty: String,
    /// Other fields (`allocation` of a new array).
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// One statement of a JSCoP.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct JscopStatement {
    pub name: String,
    pub domain: String,
    pub schedule: String,
    pub accesses: Vec<JscopAccess>,
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// One memory access of a statement.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct JscopAccess {
    /// `read` or `write`.
    pub kind: String,
    /// `{ Stmt[i0, i1] -> MemRef_A[i0, 1 + i1] }`.
    pub relation: String,
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// Where an array of a SCoP lives, as found in the function's code.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Storage {
    /// A local array of the function (`alloca`).
    Stack,
    /// An array the function allocates (`malloc`, `calloc`, `aligned_alloc`).
    Heap,
    /// A parameter of the function.
    Parameter,
    /// A global array.
    Global,
    /// Something else (a pointer loaded from memory, ...).
    Unknown,
}

/// One array's entry in [`Liveness`].
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct ArrayLife {
    /// The C name.
    pub name: String,
    /// Where it lives.
    pub storage: Storage,
    /// True when nothing of it lives after the SCoP (local to the function and used
    /// nowhere else in it).
    pub scratch: bool,
    /// Why it is or is not scratch, in words.
    #[serde(default)]
    pub why: String,
}

/// What `polyalloc fold` writes into the field `polyalloc` of a JSCoP.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
pub struct Liveness {
    /// The function of the SCoP.
    #[serde(default)]
    pub function: String,
    /// By Polly's array name (`MemRef_call`).
    #[serde(default)]
    pub arrays: BTreeMap<String, ArrayLife>,
    /// Narrowed live-out sets over C names (an isl union set), for arrays that are not
    /// scratch; an array it does not name is live-out as a whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live_out: Option<String>,
}

/// Options of the reader, from the command line.
#[derive(Clone, Debug, Default)]
pub struct JscopOptions {
    /// Arrays (C names) that are scratch: nothing of them is live-out.
    pub scratch: Vec<String>,
    /// Narrowed live-out sets (an isl union set over C names).
    pub live_out: Option<String>,
    /// Parameter values of the instance (a SCoP with parameters).
    pub params: BTreeMap<String, i64>,
}

impl Jscop {
    /// Parses the JSON of a JSCoP file (errors name the file, line and column).
    pub fn parse(text: &str, path: &Path) -> Result<Jscop, SuiteError> {
        serde_json::from_str(text).map_err(|e| SuiteError::Json {
            file: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: e.to_string().split(" at line ").next().unwrap_or_default().to_string(),
        })
    }

    /// The function of the SCoP: the `polyalloc` field's, else the file name's part
    /// before `___` (Polly names files `FUNCTION___REGION.jscop`).
    pub fn function(&self, path: &Path) -> String {
        if let Some(f) = self.polyalloc.as_ref().map(|l| l.function.clone()).filter(|f| !f.is_empty()) {
            return f;
        }
        let stem = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        stem.split("___").next().unwrap_or(stem).to_string()
    }

    /// The C name of a Polly array name: the `polyalloc` field's, else without the
    /// `MemRef_` prefix.
    pub fn c_name(&self, memref: &str) -> String {
        if let Some(l) = self.polyalloc.as_ref().and_then(|p| p.arrays.get(memref)) {
            return l.name.clone();
        }
        memref.strip_prefix("MemRef_").unwrap_or(memref).to_string()
    }

    /// True for the zero-dimensional arrays (scalars).
    pub fn is_scalar(&self, memref: &str) -> bool {
        self.arrays.iter().find(|a| a.name == memref).is_none_or(|a| a.sizes.is_empty())
    }
}

/// Renames the identifiers of `text` found in `names` (whole identifiers only).
pub fn rename_identifiers(text: &str, names: &BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if !word.is_empty() {
            out.push_str(names.get(word.as_str()).map_or(word.as_str(), String::as_str));
            word.clear();
        }
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' || (c == '\'' && !word.is_empty()) {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Reads a JSCoP file into an example (see the module documentation).
pub fn read(text: &str, path: &Path, options: &JscopOptions) -> Result<Example, SuiteError> {
    let jscop = Jscop::parse(text, path)?;
    to_example(&jscop, path, options)
}

/// The output tuple name and arity of an access relation.
fn accessed_array(relation: &str) -> Result<(String, usize), String> {
    let sets = Set::parse_union(relation).map_err(|e| e.to_string())?;
    let [s] = sets.as_slice() else {
        return Err(format!("expected one relation from the statement to one array, found {} spaces", sets.len()));
    };
    if !s.space().is_map() {
        return Err("expected a relation `Stmt[..] -> MemRef_A[..]`, found a set".into());
    }
    let name = s.space().output.name.clone().ok_or("the accessed array has no name")?;
    Ok((name, s.space().n_out()))
}

/// An example from a parsed JSCoP.
pub fn to_example(jscop: &Jscop, path: &Path, options: &JscopOptions) -> Result<Example, SuiteError> {
    let file = path.to_path_buf();
    let field_err = |field: String, message: String| SuiteError::Field { file: file.clone(), field, message };
    let function = jscop.function(path);
    let context = Set::parse(&jscop.context).map_err(|e| field_err("context".into(), e.to_string()))?;
    if context.space().n_dim() != 0 {
        return Err(field_err("context".into(), "expected a set of parameters `[N] -> { : ... }`".into()));
    }
    let params = context.space().params.clone();
    // Polly bounds every parameter by its C type's range (`-2147483648 <= N <=
    // 2147483647`): type information, true of every value the program can take, and
    // beyond what some solvers represent. Those rows are dropped.
    let context = {
        let mut pieces = Vec::new();
        for p in context.pieces() {
            let mut b = polyalloc_formulation::BasicSet::universe(p.space().clone());
            for r in p.equalities() {
                b.add_eq_row(r.clone()).map_err(|e| field_err("context".into(), e.to_string()))?;
            }
            for r in p.inequalities() {
                let vars: Vec<i64> = r[1..].iter().copied().filter(|&v| v != 0).collect();
                let type_bound = vars.len() == 1 && vars[0].abs() == 1 && r[0].unsigned_abs() >= (i32::MAX as u64);
                if !type_bound {
                    b.add_ineq_row(r.clone()).map_err(|e| field_err("context".into(), e.to_string()))?;
                }
            }
            pieces.push(b);
        }
        Set::from_pieces(context.space().clone(), pieces).map_err(|e| field_err("context".into(), e.to_string()))?
    };
    for name in options.params.keys() {
        if !params.contains(name) {
            return Err(field_err(
                "context".into(),
                format!(
                    "`{name}` is not a parameter of the SCoP (parameters: {})",
                    if params.is_empty() { "none".into() } else { params.join(", ") }
                ),
            ));
        }
    }
    // Names: MemRef -> C name, for every array with dimensions.
    let mut rename: BTreeMap<String, String> = BTreeMap::new();
    for (k, a) in jscop.arrays.iter().enumerate() {
        if a.sizes.is_empty() {
            continue;
        }
        let c = jscop.c_name(&a.name);
        if params.contains(&c) || rename.values().any(|v| *v == c) {
            return Err(field_err(format!("arrays[{k}]"), format!("array `{}` would be named `{c}`, which is taken", a.name)));
        }
        rename.insert(a.name.clone(), c);
    }
    let param_prefix = params_prefix(&params);
    let declared = |text: &str| with_params(&params, text);
    let mut statements = Vec::new();
    for (k, s) in jscop.statements.iter().enumerate() {
        let mut writes = Vec::new();
        let mut reads = Vec::new();
        let may_write = s.name.contains("__TO__");
        for (j, a) in s.accesses.iter().enumerate() {
            let field = format!("statements[{k}].accesses[{j}] ({})", s.name);
            let (array, arity) = accessed_array(&a.relation).map_err(|m| field_err(format!("{field}.relation"), m))?;
            if arity == 0 {
                continue; // a scalar
            }
            match jscop.arrays.iter().find(|x| x.name == array) {
                None => return Err(field_err(format!("{field}.relation"), format!("`{array}` is not an array of the SCoP (field `arrays`)"))),
                Some(x) if x.sizes.len() != arity => {
                    return Err(field_err(
                        format!("{field}.relation"),
                        format!("`{array}` has {} dimensions (field `arrays`), the access {arity}", x.sizes.len()),
                    ))
                }
                Some(_) => {}
            }
            let rel = declared(&rename_identifiers(&a.relation, &rename));
            match a.kind.as_str() {
                "read" => reads.push(rel),
                "write" | "may_write" | "must_write" => {
                    if may_write || a.kind == "may_write" {
                        reads.push(rel.clone());
                    }
                    writes.push(rel);
                }
                other => return Err(field_err(format!("{field}.kind"), format!("expected `read` or `write`, found `{other}`"))),
            }
        }
        // A schedule of several pieces (Polly's, for a statement whose domain is a
        // union): one statement per piece, on the part of the domain it covers.
        let field = format!("statements[{k}] ({})", s.name);
        let sched = Set::parse(&declared(&s.schedule)).map_err(|e| field_err(format!("{field}.schedule"), e.to_string()))?;
        if sched.n_pieces() <= 1 {
            statements.push(StatementSpec {
                name: s.name.clone(),
                domain: declared(&s.domain),
                schedule: declared(&s.schedule),
                writes: Relations(writes),
                reads: Relations(reads),
                extra: BTreeMap::new(),
            });
            continue;
        }
        let domain = Set::parse(&declared(&s.domain)).map_err(|e| field_err(format!("{field}.domain"), e.to_string()))?;
        for (j, piece) in sched.pieces().iter().enumerate() {
            let name = if j == 0 { s.name.clone() } else { format!("{}__{j}", s.name) };
            let part = piece
                .domain()
                .and_then(|d| d.align_params(&domain.space().params))
                .and_then(|d| d.with_space(domain.space().clone()))
                .and_then(|d| domain.intersect(&Set::from_basic(d)))
                .map_err(|e| field_err(format!("{field}.schedule"), e.to_string()))?;
            let one =
                Set::from_pieces(sched.space().clone(), vec![piece.clone()]).map_err(|e| field_err(format!("{field}.schedule"), e.to_string()))?;
            let to = BTreeMap::from([(s.name.clone(), name.clone())]);
            let ren = |t: &String| rename_identifiers(t, &to);
            statements.push(StatementSpec {
                name: name.clone(),
                domain: ren(&part.to_string()),
                schedule: ren(&one.to_string()),
                writes: Relations(writes.iter().map(ren).collect()),
                reads: Relations(reads.iter().map(ren).collect()),
                extra: BTreeMap::new(),
            });
        }
    }
    // Instances: none needed without parameters; else the given values.
    let instance: Option<BTreeMap<String, i64>> = if params.is_empty() {
        Some(BTreeMap::new())
    } else if params.iter().all(|p| options.params.contains_key(p)) {
        Some(options.params.clone())
    } else {
        None
    };
    let mut ex = Example {
        id: path
            .file_name()
            .and_then(|n| n.to_str())
            .map(|n| n.strip_suffix(EXTENSION).unwrap_or(n).to_string())
            .unwrap_or_else(|| jscop.name.clone()),
        title: format!("SCoP {} of function {function} (Polly JSCoP)", jscop.name),
        source: Source { paper: "polly-jscop".into(), location: path.display().to_string() },
        params: params.clone(),
        context: Some(context.to_string()),
        arrays: BTreeMap::new(),
        program: Some(ProgramSpec { statements, live_out: None, ignored_arrays: Vec::new(), extra: BTreeMap::new() }),
        instances: instance.into_iter().collect(),
        paper: Vec::new(),
        note: Some("read from a Polly JSCoP file (crates/suite/src/jscop.rs)".into()),
        extra: BTreeMap::new(),
        file: file.clone(),
    };
    // The program, to bound the arrays' unknown sizes and to check the accesses.
    let program = ex.program_model()?.ok_or_else(|| field_err("statements".into(), "no statements".into()))?;
    let mut spaces = BTreeMap::new();
    for (k, a) in jscop.arrays.iter().enumerate() {
        let Some(c) = rename.get(&a.name) else { continue };
        let n = a.sizes.len();
        let dims: Vec<String> = (0..n).map(|j| format!("i{j}")).collect();
        let mut cons = Vec::new();
        for (j, size) in a.sizes.iter().enumerate() {
            let d = &dims[j];
            cons.push(format!("{d} >= 0"));
            match size_expr(size, &params) {
                Some(e) => cons.push(format!("{d} < {e}")),
                None if params.is_empty() => {
                    if let Some(hi) = accessed_max(&program, c, j).map_err(|m| field_err(format!("arrays[{k}]"), m))? {
                        cons.push(format!("{d} <= {hi}"));
                    }
                }
                None => {}
            }
        }
        let space = format!("{param_prefix}{{ {c}[{}] : {} }}", dims.join(", "), cons.join(" and "));
        Set::parse(&space).map_err(|e| field_err(format!("arrays[{k}].sizes"), format!("the array space `{space}`: {e}")))?;
        spaces.insert(c.clone(), space);
    }
    // Live-out: scratch arrays none, narrowed arrays their set, the others whole.
    let life = jscop.polyalloc.clone().unwrap_or_default();
    let scratch: Vec<String> = rename
        .iter()
        .filter(|(m, c)| life.arrays.get(*m).is_some_and(|l| l.scratch) || options.scratch.contains(c))
        .map(|(_, c)| c.clone())
        .collect();
    for s in &options.scratch {
        if !rename.values().any(|c| c == s) {
            return Err(field_err(
                "arrays".into(),
                format!("--scratch: no array `{s}` in the SCoP (arrays: {})", rename.values().cloned().collect::<Vec<_>>().join(", ")),
            ));
        }
    }
    let mut narrowed: BTreeMap<String, String> = BTreeMap::new();
    for (what, text) in [("polyalloc.live_out", life.live_out.as_deref()), ("--live-out", options.live_out.as_deref())] {
        let Some(text) = text else { continue };
        // The SCoP's parameters may be named without declaring them.
        let text = declared(text);
        for set in Set::parse_union(&text).map_err(|e| field_err(what.into(), e.to_string()))? {
            let sp = set.space();
            let Some(name) = sp.output.name.clone().filter(|_| !sp.is_map()) else {
                return Err(field_err(what.into(), "expected sets of array cells `{ A[t, i] : ... }`".into()));
            };
            let Some(space) = spaces.get(&name) else {
                return Err(field_err(
                    what.into(),
                    format!("no array `{name}` in the SCoP (arrays: {})", spaces.keys().cloned().collect::<Vec<_>>().join(", ")),
                ));
            };
            let arity = Set::parse(space).map(|s| s.space().n_dim()).unwrap_or(0);
            if sp.n_dim() != arity {
                return Err(field_err(what.into(), format!("`{name}` has {arity} dimensions, the live-out set {}", sp.n_dim())));
            }
            if let Some(p) = sp.params.iter().find(|p| !params.contains(p)) {
                return Err(field_err(what.into(), format!("`{p}` is not a parameter of the SCoP")));
            }
            // Later sets (the command line's) replace earlier ones of the same array.
            narrowed.insert(name, set.to_string());
        }
    }
    let mut live_out = Vec::new();
    for (c, space) in &spaces {
        if scratch.contains(c) {
            continue;
        }
        live_out.push(narrowed.get(c).cloned().unwrap_or_else(|| space.clone()));
    }
    for (c, space) in &spaces {
        ex.arrays.insert(c.clone(), ArraySpec { space: space.clone(), conflicts: None, conflicts_form: None, extra: BTreeMap::new() });
    }
    if let Some(p) = ex.program.as_mut() {
        p.live_out = if live_out.is_empty() { None } else { Some(join_union(&param_prefix, &live_out)) };
    }
    let mut lives = BTreeMap::new();
    for c in spaces.keys() {
        let what = if scratch.contains(c) {
            "scratch"
        } else if narrowed.contains_key(c) {
            "live-out (narrowed)"
        } else {
            "live-out (whole)"
        };
        lives.insert(c.clone(), serde_json::Value::String(what.into()));
    }
    ex.extra.insert("jscop_liveness".into(), serde_json::Value::Object(lives.into_iter().collect()));
    ex.validate()?;
    Ok(ex)
}

/// The declaration of `params` before an isl text (`[T, N] -> `; empty without any).
pub fn params_prefix(params: &[String]) -> String {
    if params.is_empty() {
        String::new()
    } else {
        format!("[{}] -> ", params.join(", "))
    }
}

/// `text` with `params` declared when it declares none (Polly writes a SCoP's texts
/// without a declaration when it has no parameters; a user's set names them freely).
pub fn with_params(params: &[String], text: &str) -> String {
    let t = text.trim_start();
    if t.starts_with('{') {
        format!("{}{t}", params_prefix(params))
    } else {
        t.to_string()
    }
}

/// One isl union text of several sets or relations (each `[P] -> { ... }`, over
/// parameters among those of `prefix`): their pieces under `prefix`.
pub fn join_union(prefix: &str, sets: &[String]) -> String {
    let bodies: Vec<&str> = sets
        .iter()
        .filter_map(|s| {
            let at = s.find('{')?;
            let body = s[at + 1..].trim_end().strip_suffix('}')?.trim();
            (!body.is_empty()).then_some(body)
        })
        .collect();
    format!("{prefix}{{ {} }}", bodies.join("; "))
}

/// An isl expression for a size Polly prints (`1000`, `%N`, `(zext i32 %N to i64)`,
/// `(1 + %N)`), over the SCoP's parameters; `None` for `*` and other forms.
fn size_expr(size: &str, params: &[String]) -> Option<String> {
    let s = size.trim();
    if let Ok(v) = s.parse::<i64>() {
        return Some(v.to_string());
    }
    let inner = s.strip_prefix('(').and_then(|t| t.strip_suffix(')')).map(str::trim);
    if let Some(t) = inner {
        for cast in ["zext ", "sext "] {
            if let Some(rest) = t.strip_prefix(cast) {
                // `zext i32 %N to i64`
                let mut parts = rest.split_whitespace();
                let (_ty, v, to) = (parts.next()?, parts.next()?, parts.next()?);
                if to != "to" {
                    return None;
                }
                return size_expr(v, params);
            }
        }
        // A sum `(a + b + ...)` of sizes.
        let terms: Option<Vec<String>> = t.split(" + ").map(|x| size_expr(x, params)).collect();
        return terms.filter(|v| v.len() > 1).map(|v| format!("({})", v.join(" + ")));
    }
    let name = s.strip_prefix('%')?;
    params.iter().any(|p| p == name).then(|| name.to_string())
}

/// The largest index of dimension `dim` of `array` that a statement accesses (rational
/// bound, integer-tightened); `None` when unbounded.
fn accessed_max(program: &polyalloc_program::Program, array: &str, dim: usize) -> Result<Option<i64>, String> {
    let mut hi: Option<i64> = None;
    for s in &program.statements {
        for a in s.writes.iter().chain(&s.reads) {
            if a.array != array {
                continue;
            }
            let Some(e) = a.index.get(dim) else { continue };
            let dom = match &a.guard {
                Some(g) => s.domain.intersect(&Set::from_basic(g.clone())).map_err(|e| e.to_string())?,
                None => s.domain.clone(),
            };
            match polyalloc_program::access::range_on(e, &dom).map_err(|e| e.to_string())? {
                Some((_, h)) => hi = Some(hi.map_or(h, |x| x.max(h))),
                None => return Ok(None),
            }
        }
    }
    Ok(hi)
}
