//! Bad input never panics: every parser of the crate (isl sets and maps, modular
//! mappings, polynomials, conflict sets) returns a typed error on arbitrary text, on
//! token soups that look like isl, and on well-formed text with extreme coefficients;
//! set operations on extreme coefficients give results or `Overflow` errors, never a
//! panic or a silently wrapped value.

use polyalloc_formulation::{ConflictForm, ConflictSet, Map, ModularMapping, Polynomial, Set};
use proptest::prelude::*;

/// Tokens of the isl subset, including ones that are wrong where they land.
const TOKENS: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    "->",
    ":",
    ";",
    ",",
    "and",
    "or",
    "not",
    "mod",
    "floor",
    "exists",
    "=",
    "<=",
    ">=",
    "<",
    ">",
    "!=",
    "+",
    "-",
    "*",
    "/",
    "N",
    "M",
    "i",
    "j",
    "A",
    "S",
    "0",
    "1",
    "2",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
    " ",
    "true",
    "false",
    "max",
    "min",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..40).prop_map(|t| t.join(" "))
}

fn all_parsers(text: &str) {
    let _ = Set::parse(text);
    let _ = Map::parse(text);
    let _ = ModularMapping::parse(text);
    let _ = Polynomial::parse(text);
    let _ = ConflictSet::parse(text, ConflictForm::Half);
    let _ = ConflictSet::parse(text, ConflictForm::Symmetric);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_does_not_panic(text in "\\PC{0,80}") {
        all_parsers(&text);
    }

    #[test]
    fn isl_like_token_soup_does_not_panic(text in soup()) {
        all_parsers(&text);
    }

    /// Well-formed sets with coefficients up to the i64 range: parse, print, intersect,
    /// project and enumerate give results or errors.
    #[test]
    fn extreme_coefficients_do_not_panic(a in any::<i64>(), b in any::<i64>(), c in any::<i64>(), n in 1i64..4) {
        let text = format!("[N] -> {{ S[i, j] : {a}*i + {b}*j <= {c} and 0 <= i <= N and 0 <= j <= N }}");
        let text = text.replace("+ -", "- ").replace("--", "");
        if let Ok(s) = Set::parse(&text) {
            let printed = s.to_string();
            let _ = Set::parse(&printed);
            if let Ok(t) = Set::parse("[N] -> { S[i, j] : i >= j }") {
                let _ = s.intersect(&t);
            }
            let _ = s.enumerate(&[n], 1000);
            let _ = s.project_out(1, 1);
            let _ = s.fm_project_out(0, 1);
            let _ = s.remove_rationally_empty();
            let _ = s.lexmin_concrete(&[n]);
            let _ = s.lexmax_concrete(&[n]);
            let _ = s.contains(&[n], &[1, 1]);
        }
        let poly = format!("{a}*N^2 + {b}*N + {c}");
        if let Ok(p) = Polynomial::parse(&poly.replace("+ -", "- ")) {
            let _ = p.checked_mul(&p);
            let _ = p.eval(&[("N", i64::MAX)]);
        }
        let mapping = format!("[N] -> {{ A[i, j] -> A[({a}i + {b}j) mod ({c}N + 1)] }}");
        if let Ok(m) = ModularMapping::parse(&mapping.replace("+ -", "- ")) {
            let _ = m.size_for(&[n]);
            let _ = m.to_string();
        }
    }
}
