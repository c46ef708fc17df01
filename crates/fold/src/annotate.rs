//! What the caller reads after the kernel, in the user's words: `polyalloc live-out`
//! annotations in the C source and `--live-out` on the command line.
//!
//! ```c
//! // polyalloc live-out: { A[t, i] : t = T - 1 }
//! /* polyalloc live-out(kernel_lcs): { L[i, j] : i = M and j = N } */
//! ```
//!
//! The set is in isl notation over the C array names, with the C subscripts in order;
//! it may name several arrays (`{ A[t, i] : t = T - 1; B[i] }`) and use the function's
//! parameters (`T` of `void k(int T, double A[T][N])`). Object-like macros whose value
//! is an integer expression (`#define T 100`, `#define N (M + 2)`) are replaced by
//! their values, as the C compiler sees them (`clang -E -dM`). Without `(function)`,
//! an annotation applies to the arrays of that name and number of dimensions in every
//! function. The command
//! line's `--live-out [FUNCTION:]SET` is the same, and replaces an annotation of the
//! same array.

use crate::error::FoldError;
use std::collections::BTreeMap;
use std::path::Path;

/// One narrowed live-out set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveOutSpec {
    /// The function it applies to (`None`: every function).
    pub function: Option<String>,
    /// The set in isl notation, macros replaced.
    pub set: String,
    /// Where it was written (`x.c:12` or `--live-out`).
    pub origin: String,
}

/// The annotations of a C source text (macros not yet replaced).
pub fn annotations(source: &str, file: &Path) -> Result<Vec<LiveOutSpec>, FoldError> {
    const KEY: &str = "polyalloc live-out";
    let mut out = Vec::new();
    for (at, _) in source.match_indices(KEY) {
        let line = source[..at].matches('\n').count() + 1;
        let origin = format!("{}:{line}", file.display());
        // The comment kind: the text runs to the end of the line (`//`) or to `*/`.
        let line_start = source[..at].rfind('\n').map_or(0, |k| k + 1);
        let block = source[..at].rfind("/*").is_some_and(|o| source[o..at].find("*/").is_none()) && !source[line_start..at].contains("//");
        let rest = &source[at + KEY.len()..];
        let end = if block { rest.find("*/").unwrap_or(rest.len()) } else { rest.find('\n').unwrap_or(rest.len()) };
        let text = rest[..end].trim();
        out.push(parse_spec(text, &origin)?);
    }
    Ok(out)
}

/// `[(function)]: SET` (an annotation after its key) or `[FUNCTION:]SET` (the command
/// line, `from_cli`).
fn parse_spec(text: &str, origin: &str) -> Result<LiveOutSpec, FoldError> {
    let bad = |why: &str| {
        FoldError::Input(format!(
            "{origin}: polyalloc live-out: {why}; expected `polyalloc live-out: {{ A[t, i] : t = T - 1 }}` or `polyalloc live-out(function): ...`"
        ))
    };
    let (function, rest) = if let Some(r) = text.strip_prefix('(') {
        let (f, r) = r.split_once(')').ok_or_else(|| bad("`(` without `)`"))?;
        (Some(f.trim().to_string()), r.trim_start())
    } else {
        (None, text)
    };
    let set = rest.strip_prefix(':').ok_or_else(|| bad("no `:` before the set"))?.trim();
    if !set.starts_with('{') && !set.starts_with('[') {
        return Err(bad("the set must start with `{` (or `[params] ->`)"));
    }
    Ok(LiveOutSpec { function: function.filter(|f| !f.is_empty()), set: set.to_string(), origin: origin.to_string() })
}

/// A `--live-out [FUNCTION:]SET` argument.
pub fn from_cli(text: &str) -> Result<LiveOutSpec, FoldError> {
    let t = text.trim();
    let (function, set) = match t.find(['{', '[']) {
        Some(at) if at > 0 && t[..at].trim_end().ends_with(':') => {
            let f = t[..at].trim_end().trim_end_matches(':').trim();
            (Some(f.to_string()), &t[at..])
        }
        _ => (None, t),
    };
    if !set.starts_with('{') && !set.starts_with('[') {
        return Err(FoldError::Input(format!("--live-out `{text}`: expected [FUNCTION:]{{ A[t, i] : ... }}")));
    }
    Ok(LiveOutSpec { function: function.filter(|f| !f.is_empty()), set: set.to_string(), origin: "--live-out".into() })
}

/// The object-like macros of `clang -E -dM` output whose value is an integer
/// expression (after replacing the macros it uses).
pub fn integer_macros(dm: &str) -> BTreeMap<String, String> {
    let mut raw: BTreeMap<String, String> = BTreeMap::new();
    for line in dm.lines() {
        let Some(rest) = line.strip_prefix("#define ") else { continue };
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let after = &rest[name.len()..];
        if name.is_empty() || after.starts_with('(') || name.starts_with("__") {
            continue; // function-like or reserved
        }
        raw.insert(name, after.trim().to_string());
    }
    let mut out = BTreeMap::new();
    for name in raw.keys() {
        if let Some(v) = expand(name, &raw, 0) {
            out.insert(name.clone(), v);
        }
    }
    out
}

fn expand(name: &str, raw: &BTreeMap<String, String>, depth: usize) -> Option<String> {
    if depth > 16 {
        return None;
    }
    let body = raw.get(name)?;
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| -> Option<()> {
        if !word.is_empty() {
            if word.chars().all(|c| c.is_ascii_digit()) {
                out.push_str(word);
            } else if let Some(v) = word.strip_suffix(['L', 'l', 'U', 'u']).filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit())) {
                out.push_str(v);
            } else {
                out.push_str(&expand(word, raw, depth + 1)?);
            }
            word.clear();
        }
        Some(())
    };
    for c in body.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else if "+-*() \t".contains(c) {
            flush(&mut word, &mut out)?;
            out.push(c);
        } else {
            return None;
        }
    }
    flush(&mut word, &mut out)?;
    let t = out.trim();
    (!t.is_empty()).then(|| format!("({t})"))
}

/// `set` with every identifier that is an integer macro replaced by its value.
pub fn replace_macros(set: &str, macros: &BTreeMap<String, String>) -> String {
    let names: BTreeMap<String, String> = macros.clone();
    polyalloc_suite::jscop::rename_identifiers(set, &names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_in_line_and_block_comments() {
        let src =
            "#define T 100\n// polyalloc live-out: { A[t, i] : t = T - 1 }\nvoid f();\n/* polyalloc live-out(k): { L[i, j] : i = M and j = N } */\n";
        let a = annotations(src, Path::new("x.c")).unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a[0], LiveOutSpec { function: None, set: "{ A[t, i] : t = T - 1 }".into(), origin: "x.c:2".into() });
        assert_eq!(a[1].function.as_deref(), Some("k"));
        assert_eq!(a[1].set, "{ L[i, j] : i = M and j = N }");
        let e = annotations("// polyalloc live-out { A[i] }\n", Path::new("y.c")).unwrap_err();
        assert!(e.to_string().starts_with("y.c:1: polyalloc live-out: no `:`"), "{e}");
    }

    #[test]
    fn integer_macros_are_replaced() {
        let m = integer_macros("#define T 100\n#define N (M + 2)\n#define M 8L\n#define F(x) x\n#define S \"s\"\n#define __x 1\n");
        assert_eq!(m.get("T").map(String::as_str), Some("(100)"));
        assert_eq!(m.get("N").map(String::as_str), Some("(((8) + 2))"));
        assert!(!m.contains_key("F") && !m.contains_key("S") && !m.contains_key("__x"));
        assert_eq!(replace_macros("{ A[t, i] : t = T - 1 }", &m), "{ A[t, i] : t = (100) - 1 }");
    }

    #[test]
    fn command_line_sets() {
        assert_eq!(from_cli("k: { A[i] }").unwrap().function.as_deref(), Some("k"));
        assert_eq!(from_cli("[N] -> { A[i] : i = N }").unwrap().function, None);
        assert!(from_cli("A[i]").is_err());
    }
}
