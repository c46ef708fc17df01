//! What the function's LLVM IR says about the arrays of a SCoP: where each lives
//! (a local `alloca`, a `malloc` of the function, a parameter, a global), whether it is
//! used outside the SCoP's region in the function, and its C name.
//!
//! The rule of `polyalloc fold` (documented in the README): an array local to the
//! function (on the stack or the heap) whose base pointer the function uses only
//! inside the SCoP (besides allocating, freeing and the lifetime markers) is
//! *scratch*: nothing of it lives after the SCoP. Every other array is live after the
//! SCoP as a whole, unless the user narrows it.
//!
//! The IR is read as text, line by line: function headers, block labels, terminators
//! (for the region's blocks) and the uses of a value name. Polly names an array after
//! its base pointer (`MemRef_A` for `%A` or `@A`, with `-polly-use-llvm-names`).

use polyalloc_suite::jscop::{ArrayLife, Storage};
use std::collections::{BTreeMap, BTreeSet};

/// A function of the module: its parameters and its blocks in order.
#[derive(Clone, Debug, Default)]
pub struct Function {
    pub name: String,
    pub params: Vec<String>,
    /// (label, instruction lines).
    pub blocks: Vec<(String, Vec<String>)>,
}

/// A module: functions and global names.
#[derive(Clone, Debug, Default)]
pub struct Module {
    pub functions: Vec<Function>,
    pub globals: BTreeSet<String>,
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '$' | '-')
}

/// The value names (`%x`, without the sigil) a line mentions, in order.
fn local_names(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let start = i + 1;
            let mut j = start;
            while j < b.len() && is_name_char(b[j] as char) {
                j += 1;
            }
            if j > start {
                out.push(&line[start..j]);
            }
            i = j;
        } else if b[i] == b';' {
            break; // a comment
        } else {
            i += 1;
        }
    }
    out
}

/// The label a block line defines (`for.cond:` or `12:`), if any.
fn label_of(line: &str) -> Option<String> {
    if line.starts_with(' ') || line.starts_with('\t') {
        return None;
    }
    let head = line.split(';').next()?.trim_end();
    let name = head.strip_suffix(':')?;
    let name = name.trim_matches('"');
    (!name.is_empty() && name.chars().all(|c| is_name_char(c) || c == ' ')).then(|| name.to_string())
}

impl Module {
    /// Reads the functions, their blocks and the global names of an `.ll` file.
    pub fn parse(text: &str) -> Module {
        let mut m = Module::default();
        let mut cur: Option<Function> = None;
        for line in text.lines() {
            if let Some(f) = cur.as_mut() {
                if line.starts_with('}') {
                    if let Some(f) = cur.take() {
                        m.functions.push(f);
                    }
                    continue;
                }
                if let Some(l) = label_of(line) {
                    f.blocks.push((l, Vec::new()));
                } else if !line.trim().is_empty() {
                    if f.blocks.is_empty() {
                        f.blocks.push(("entry".to_string(), Vec::new()));
                    }
                    if let Some(b) = f.blocks.last_mut() {
                        b.1.push(line.to_string());
                    }
                }
                continue;
            }
            if let Some(rest) = line.strip_prefix("define ") {
                let Some(at) = rest.find('@') else { continue };
                let after = &rest[at + 1..];
                let name: String = after.chars().take_while(|&c| is_name_char(c)).collect();
                let args = after[name.len()..].split(')').next().unwrap_or("");
                let params = local_names(args).into_iter().map(str::to_string).collect();
                cur = Some(Function { name, params, blocks: Vec::new() });
            } else if let Some(rest) = line.strip_prefix('@') {
                let name: String = rest.chars().take_while(|&c| is_name_char(c)).collect();
                if rest[name.len()..].trim_start().starts_with('=') {
                    m.globals.insert(name);
                }
            }
        }
        m
    }

    /// The function called `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }
}

/// The successors of a block (labels its terminator names).
fn successors(lines: &[String]) -> Vec<String> {
    // The terminator is the last instruction; a `switch` spans several lines.
    let start = lines.iter().rposition(|l| {
        let t = l.trim_start();
        t.starts_with("br ") || t.starts_with("switch ") || t.starts_with("ret") || t.starts_with("unreachable") || t.starts_with("indirectbr")
    });
    let Some(start) = start else { return Vec::new() };
    let mut out = Vec::new();
    for l in &lines[start..] {
        let mut rest = l.as_str();
        while let Some(at) = rest.find("label %") {
            let after = &rest[at + 7..];
            let name: String = after.trim_start_matches('"').chars().take_while(|&c| is_name_char(c)).collect();
            out.push(name);
            rest = after;
        }
    }
    out
}

impl Function {
    /// The blocks of the region from `entry` to `exit` (Polly's `%entry---%exit`): those
    /// reachable from `entry` without passing through `exit`.
    pub fn region_blocks(&self, entry: &str, exit: &str) -> BTreeSet<String> {
        let by_name: BTreeMap<&str, &Vec<String>> = self.blocks.iter().map(|(l, b)| (l.as_str(), b)).collect();
        let mut seen = BTreeSet::new();
        let mut stack = vec![entry.to_string()];
        while let Some(b) = stack.pop() {
            if b == exit || !seen.insert(b.clone()) {
                continue;
            }
            if let Some(lines) = by_name.get(b.as_str()) {
                stack.extend(successors(lines));
            }
        }
        seen
    }

    /// The line defining `%value`, if the function defines it.
    fn definition(&self, value: &str) -> Option<&str> {
        let prefix = format!("%{value} = ");
        self.blocks.iter().flat_map(|(_, b)| b).map(|l| l.trim_start()).find(|l| l.starts_with(&prefix))
    }

    /// Every line using `%value`, with its block (the definition excluded).
    fn uses<'a>(&'a self, value: &'a str) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        self.blocks.iter().flat_map(move |(label, lines)| {
            lines.iter().filter_map(move |l| {
                let t = l.trim_start();
                let names = local_names(t);
                let defines = t.starts_with(&format!("%{value} = "));
                let uses = names.iter().enumerate().any(|(k, n)| *n == value && !(k == 0 && defines));
                uses.then_some((label.as_str(), t))
            })
        })
    }
}

/// Polly's form of an LLVM name in an array name (`MemRef_smooth_S` for `@smooth.S`):
/// every character other than a letter, a digit or `_` becomes `_`.
fn isl_name(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

/// The LLVM name behind Polly's array name `value` in `f` (a local value, a parameter
/// or a global), as it is spelt in the IR.
fn resolve(module: &Module, f: &Function, value: &str) -> String {
    let locals = f.blocks.iter().flat_map(|(_, b)| b).filter_map(|l| l.trim_start().strip_prefix('%')?.split_once(" = ").map(|(n, _)| n));
    let names: Vec<&str> = locals.chain(f.params.iter().map(String::as_str)).chain(module.globals.iter().map(String::as_str)).collect();
    names.iter().find(|n| **n == value).or_else(|| names.iter().find(|n| isl_name(n) == value)).copied().unwrap_or(value).to_string()
}

/// Where the base pointer `value` of an array of `f` lives.
pub fn storage(module: &Module, f: &Function, value: &str) -> Storage {
    if let Some(def) = f.definition(value) {
        let rhs = def.split_once(" = ").map_or("", |(_, r)| r);
        if rhs.starts_with("alloca ") {
            return Storage::Stack;
        }
        let call = rhs.contains(" call ") || rhs.starts_with("call ") || rhs.starts_with("tail call ");
        if call && ["@malloc(", "@calloc(", "@aligned_alloc(", "@valloc(", "@memalign("].iter().any(|a| rhs.contains(a)) {
            return Storage::Heap;
        }
        return Storage::Unknown;
    }
    if f.params.iter().any(|p| p == value) {
        return Storage::Parameter;
    }
    if module.globals.contains(value) {
        return Storage::Global;
    }
    Storage::Unknown
}

/// True for a use that does not read or write the array's values: freeing it, the
/// lifetime markers, debug records.
fn harmless(line: &str) -> bool {
    ["@free(", "@llvm.lifetime.start", "@llvm.lifetime.end", "@llvm.dbg.", "#dbg_"].iter().any(|k| line.contains(k))
}

/// The C name of a heap array: the local variable its `malloc` result is stored into
/// in the IR before canonicalisation (`store ptr %call, ptr %bx`), if any.
pub fn heap_c_name(raw: &Module, function: &str, value: &str) -> Option<String> {
    let f = raw.function(function)?;
    let needle = format!("store ptr %{value}, ptr %");
    for (_, lines) in &f.blocks {
        for l in lines {
            if let Some(at) = l.find(&needle) {
                let var: String = l[at + needle.len()..].chars().take_while(|&c| is_name_char(c)).collect();
                if f.definition(&var).is_some_and(|d| d.contains("alloca ")) && !var.is_empty() {
                    return Some(var);
                }
            }
        }
    }
    None
}

/// The life of the array Polly calls `memref` in the SCoP of `function` spanning the
/// region `entry---exit`: its storage, whether it is scratch, and its C name.
pub fn array_life(canon: &Module, raw: Option<&Module>, function: &str, region: (&str, &str), memref: &str) -> ArrayLife {
    let value = memref.strip_prefix("MemRef_").unwrap_or(memref);
    let Some(f) = canon.function(function) else {
        return ArrayLife { name: value.to_string(), storage: Storage::Unknown, scratch: false, why: format!("no function `{function}` in the IR") };
    };
    let resolved = resolve(canon, f, value);
    let value = resolved.as_str();
    let storage = storage(canon, f, value);
    let name = match storage {
        Storage::Heap => raw.and_then(|r| heap_c_name(r, function, value)).unwrap_or_else(|| value.to_string()),
        // A function's `static` array is the global `@function.name`.
        Storage::Global => value.strip_prefix(&format!("{function}.")).unwrap_or(value).to_string(),
        _ => value.to_string(),
    };
    let (scratch, why) = match storage {
        Storage::Stack | Storage::Heap => {
            let blocks = f.region_blocks(region.0, region.1);
            let outside: Vec<&str> = f.uses(value).filter(|(b, l)| !blocks.contains(*b) && !harmless(l)).map(|(_, l)| l).collect();
            match outside.first() {
                None => (true, format!("local to `{function}` ({}) and used only in this SCoP", storage_word(storage))),
                Some(l) => {
                    let l = l.trim();
                    let short: String = l.chars().take(60).collect();
                    let more = if short.len() < l.len() { "..." } else { "" };
                    (false, format!("local to `{function}` but used outside this SCoP (`{short}{more}`): live after it as a whole"))
                }
            }
        }
        Storage::Parameter => (false, format!("a parameter of `{function}`: live after it as a whole")),
        Storage::Global if value.starts_with(&format!("{function}.")) => {
            (false, format!("a `static` array of `{function}` (kept from one call to the next): live after it as a whole"))
        }
        Storage::Global => (false, "a global array: live after the function as a whole".to_string()),
        Storage::Unknown => (false, format!("base pointer `%{value}` is not a local array, a parameter or a global: live after the SCoP as a whole")),
    };
    ArrayLife { name, storage, scratch, why }
}

fn storage_word(s: Storage) -> &'static str {
    match s {
        Storage::Stack => "on the stack",
        Storage::Heap => "on the heap",
        Storage::Parameter => "a parameter",
        Storage::Global => "a global",
        Storage::Unknown => "unknown",
    }
}

/// Polly's region name `%entry---%exit` as (entry, exit) block labels.
pub fn region_of(name: &str) -> Option<(String, String)> {
    let (a, b) = name.split_once("---")?;
    Some((a.trim_start_matches('%').trim_matches('"').to_string(), b.trim_start_matches('%').trim_matches('"').to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const IR: &str = r#"
@A = dso_local global [100 x [1000 x double]] zeroinitializer, align 16

define dso_local void @k(ptr noundef %in, ptr noundef %out) #0 {
entry:
  %bx = alloca [514 x [768 x float]], align 16
  %call = call noalias ptr @malloc(i64 noundef 100) #3
  call void @llvm.lifetime.start.p0(i64 1579008, ptr %bx) #3
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %i = phi i64 [ 0, %entry ], [ %inc, %for.inc ]
  %cmp = icmp slt i64 %i, 10
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %p = getelementptr inbounds float, ptr %bx, i64 %i
  %q = getelementptr inbounds float, ptr %call, i64 %i
  store float 0.0, ptr %p
  br label %for.inc

for.inc:
  %inc = add i64 %i, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %r = load float, ptr %call
  call void @free(ptr noundef %call) #3
  ret void
}
"#;

    #[test]
    fn arrays_are_classified_from_the_ir() {
        let m = Module::parse(IR);
        let f = m.function("k").expect("k");
        assert_eq!(f.params, ["in", "out"]);
        let region = f.region_blocks("for.cond", "for.end");
        assert_eq!(region.into_iter().collect::<Vec<_>>(), ["for.body", "for.cond", "for.inc"]);
        let life = |v: &str| array_life(&m, None, "k", ("for.cond", "for.end"), v);
        let bx = life("MemRef_bx");
        assert_eq!((bx.storage, bx.scratch), (Storage::Stack, true), "{}", bx.why);
        // %call is read after the region: not scratch.
        let call = life("MemRef_call");
        assert_eq!((call.storage, call.scratch), (Storage::Heap, false));
        assert!(call.why.contains("load float, ptr %call"), "{}", call.why);
        assert_eq!(life("MemRef_in").storage, Storage::Parameter);
        assert_eq!(life("MemRef_A").storage, Storage::Global);
        assert_eq!(life("MemRef_zz").storage, Storage::Unknown);
    }

    /// A function's `static` array is the global `@k.S`, which Polly calls `MemRef_k_S`:
    /// named `S`, live after the function (it is kept from one call to the next).
    #[test]
    fn static_arrays_are_globals_of_the_function() {
        let ir = "@k.S = internal global [4 x double] zeroinitializer, align 16\n\ndefine dso_local void @k() {\nentry:\n  ret void\n}\n";
        let m = Module::parse(ir);
        let life = array_life(&m, None, "k", ("entry", "exit"), "MemRef_k_S");
        assert_eq!((life.name.as_str(), life.storage, life.scratch), ("S", Storage::Global, false));
        assert!(life.why.contains("a `static` array of `k`"), "{}", life.why);
    }

    #[test]
    fn heap_arrays_take_the_name_of_their_variable() {
        let raw = "define dso_local void @k() {\nentry:\n  %bx = alloca ptr, align 8\n  %call = call noalias ptr @malloc(i64 noundef 8)\n  store ptr %call, ptr %bx, align 8\n  ret void\n}\n";
        assert_eq!(heap_c_name(&Module::parse(raw), "k", "call").as_deref(), Some("bx"));
    }
}
