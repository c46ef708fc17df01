//! The input: a sequence of tight, rectangular loop nests and its loop dependence graph
//! (LDG, Definition 2), read from the `flow` section of a bench-suite example
//! (bench-suite/README.md, section 9) and validated.

use crate::error::{input, Result};
use crate::vecs::Vector;
use polyalloc_formulation::Polynomial;
use serde::Deserialize;

/// A local write reference `w_{i,k}` as given in the file.
#[derive(Clone, Debug, Deserialize)]
pub struct WriteSpec {
    pub id: String,
    #[serde(rename = "ref")]
    pub reference: String,
    pub array: String,
    /// 1-based statement index, when two statements write the same `ref` text.
    #[serde(default)]
    pub statement: Option<usize>,
}

/// One loop nest `L_i` as given in the file.
#[derive(Clone, Debug, Deserialize)]
pub struct NestSpec {
    pub name: String,
    pub bounds: Vec<[String; 2]>,
    pub body: Vec<String>,
    #[serde(default)]
    pub local_writes: Vec<WriteSpec>,
}

/// A local array region.
#[derive(Clone, Debug, Deserialize)]
pub struct RegionSpec {
    pub array: String,
    pub region: String,
}

/// One LDG edge as given in the file.
#[derive(Clone, Debug, Deserialize)]
pub struct EdgeSpec {
    pub from: String,
    pub to: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub array: Option<String>,
    pub distance: Vec<i64>,
    #[serde(default, rename = "ref")]
    pub reference: Option<String>,
    #[serde(default)]
    pub write: Option<String>,
    #[serde(default)]
    pub extension: Option<Vec<i64>>,
}

/// The `flow` section (fields the method uses; others are ignored).
#[derive(Clone, Debug, Deserialize)]
pub struct FlowSpec {
    pub index_names: Vec<String>,
    pub trip_counts: Vec<String>,
    pub coalescing: Vec<String>,
    pub nests: Vec<NestSpec>,
    #[serde(default)]
    pub local_regions: Vec<RegionSpec>,
    pub edges: Vec<EdgeSpec>,
}

/// Dependence type: the program model's (an LDG edge is flow, anti or output).
pub use polyalloc_program::deps::DepKind;

/// A validated LDG edge `e` with distance `d_e` (and, for flow edges of local writes,
/// the write reference index and the extension vector `o_e`).
#[derive(Clone, Debug)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub kind: DepKind,
    pub distance: Vector,
    /// Index into [`LoopSequence::writes`] for flow dependences of local writes.
    pub write: Option<usize>,
    /// `o_e` (Sec. 3.3) for those.
    pub extension: Option<Vector>,
    pub array: Option<String>,
    pub reference: Option<String>,
}

/// A validated local write reference `w_{i,k}`.
#[derive(Clone, Debug)]
pub struct Write {
    pub id: String,
    /// The nest `i`.
    pub nest: usize,
    /// `k` (1-based within the nest).
    pub k: usize,
    pub reference: String,
    pub array: String,
    pub statement: Option<usize>,
}

/// A local array region `A(lo1:hi1, lo2:hi2, ...)`.
#[derive(Clone, Debug)]
pub struct Region {
    pub array: String,
    pub text: String,
    pub bounds: Vec<(Polynomial, Polynomial)>,
}

impl Region {
    /// The number of elements, `prod (hi - lo + 1)`.
    pub fn size(&self) -> Result<Polynomial> {
        let mut p = Polynomial::constant(1);
        for (lo, hi) in &self.bounds {
            p = p.checked_mul(&hi.checked_sub(lo)?.checked_add(&Polynomial::constant(1))?)?;
        }
        Ok(p)
    }
}

/// A loop nest with its bounds as polynomials.
#[derive(Clone, Debug)]
pub struct Nest {
    pub name: String,
    pub bounds: Vec<(Polynomial, Polynomial)>,
    pub body: Vec<String>,
}

/// The validated loop sequence (Fig. 2(a)) and its LDG `G = (V, E)`.
#[derive(Clone, Debug)]
pub struct LoopSequence {
    /// n.
    pub depth: usize,
    pub index_names: Vec<String>,
    /// `b`.
    pub trip_counts: Vec<Polynomial>,
    /// `s`.
    pub coalescing: Vec<Polynomial>,
    pub nests: Vec<Nest>,
    pub writes: Vec<Write>,
    pub regions: Vec<Region>,
    pub edges: Vec<Edge>,
    /// The example's parameters.
    pub params: Vec<String>,
}

fn poly(field: &str, text: &str) -> Result<Polynomial> {
    Polynomial::parse(text).map_err(|e| input(field, format!("`{text}` is not a polynomial: {e}")))
}

/// Parses `A(2:JN, 2:KN)`.
fn parse_region(field: &str, text: &str) -> Result<(String, Vec<(Polynomial, Polynomial)>)> {
    let open = text.find('(').ok_or_else(|| input(field, format!("`{text}`: expected `A(lo:hi, ...)`")))?;
    let close = text.rfind(')').ok_or_else(|| input(field, format!("`{text}`: missing `)`")))?;
    if close < open {
        return Err(input(field, format!("`{text}`: expected `A(lo:hi, ...)`")));
    }
    let name = text[..open].trim().to_string();
    let mut bounds = Vec::new();
    for part in text[open + 1..close].split(',') {
        let (lo, hi) = part.split_once(':').ok_or_else(|| input(field, format!("`{part}`: expected `lo:hi`")))?;
        bounds.push((poly(field, lo.trim())?, poly(field, hi.trim())?));
    }
    Ok((name, bounds))
}

impl LoopSequence {
    /// The loop sequence of an example: its `flow` section read and validated; `None`
    /// when the example has no `flow` section.
    pub fn of_example(ex: &polyalloc_alloc::Example) -> Result<Option<LoopSequence>> {
        ex.extra.get("flow").map(|section| LoopSequence::from_json(section, &ex.params)).transpose()
    }

    /// Reads and validates the `flow` section. `params` are the example's parameters.
    pub fn from_json(value: &serde_json::Value, params: &[String]) -> Result<LoopSequence> {
        let spec: FlowSpec = serde_json::from_value(value.clone()).map_err(|e| input("flow", e.to_string()))?;
        Self::from_spec(&spec, params)
    }

    /// Validates a parsed section.
    pub fn from_spec(spec: &FlowSpec, params: &[String]) -> Result<LoopSequence> {
        let n = spec.index_names.len();
        if n == 0 {
            return Err(input("index_names", "at least one loop level is needed"));
        }
        if spec.trip_counts.len() != n || spec.coalescing.len() != n {
            return Err(input("trip_counts/coalescing", format!("expected {n} entries (one per loop level)")));
        }
        let trip_counts = spec.trip_counts.iter().map(|t| poly("trip_counts", t)).collect::<Result<Vec<_>>>()?;
        let coalescing = spec.coalescing.iter().map(|t| poly("coalescing", t)).collect::<Result<Vec<_>>>()?;
        // Sec. 3.1: s_n = 1, s_h = s_{h+1} b_{h+1}.
        if coalescing[n - 1] != Polynomial::constant(1) {
            return Err(input("coalescing", "s_n must be 1 (Sec. 3.1)"));
        }
        for h in 0..n - 1 {
            if coalescing[h] != coalescing[h + 1].checked_mul(&trip_counts[h + 1])? {
                return Err(input("coalescing", format!("s_{} must equal s_{} * b_{} (Sec. 3.1)", h + 1, h + 2, h + 2)));
            }
        }
        if spec.nests.is_empty() {
            return Err(input("nests", "at least one loop nest is needed"));
        }
        let mut nests = Vec::new();
        let mut writes = Vec::new();
        for (i, ns) in spec.nests.iter().enumerate() {
            let field = format!("nests[{i}] ({})", ns.name);
            if ns.bounds.len() != n {
                return Err(input(&field, format!("expected {n} loop bounds")));
            }
            let mut bounds = Vec::new();
            for (h, [lo, hi]) in ns.bounds.iter().enumerate() {
                let lo = poly(&field, lo)?;
                let hi = poly(&field, hi)?;
                // Sec. 2: every loop at level h has the trip count b_h.
                let trips = hi.checked_sub(&lo)?.checked_add(&Polynomial::constant(1))?;
                if trips != trip_counts[h] {
                    return Err(input(
                        &field,
                        format!(
                            "level {} has trip count {trips}, but b_{} = {} (Sec. 2: all loops at one level have the same trip count)",
                            h + 1,
                            h + 1,
                            trip_counts[h]
                        ),
                    ));
                }
                bounds.push((lo, hi));
            }
            if nests.iter().any(|m: &Nest| m.name == ns.name) {
                return Err(input(&field, "duplicate nest name"));
            }
            for (k, w) in ns.local_writes.iter().enumerate() {
                if writes.iter().any(|x: &Write| x.id == w.id) {
                    return Err(input(&field, format!("duplicate write id `{}`", w.id)));
                }
                if let Some(st) = w.statement {
                    if st == 0 || st > ns.body.len() {
                        return Err(input(&field, format!("write `{}`: statement {st} out of range", w.id)));
                    }
                }
                writes.push(Write {
                    id: w.id.clone(),
                    nest: i,
                    k: k + 1,
                    reference: w.reference.clone(),
                    array: w.array.clone(),
                    statement: w.statement,
                });
            }
            nests.push(Nest { name: ns.name.clone(), bounds, body: ns.body.clone() });
        }
        let mut regions = Vec::new();
        for (r, rs) in spec.local_regions.iter().enumerate() {
            let field = format!("local_regions[{r}]");
            let (name, bounds) = parse_region(&field, &rs.region)?;
            if name != rs.array {
                return Err(input(&field, format!("region `{}` is not of array `{}`", rs.region, rs.array)));
            }
            regions.push(Region { array: rs.array.clone(), text: rs.region.clone(), bounds });
        }
        for w in &writes {
            if !regions.iter().any(|r| r.array == w.array) {
                return Err(input("local_writes", format!("write `{}` writes array `{}` which has no local region", w.id, w.array)));
            }
        }
        let nest_index = |field: &str, name: &str| -> Result<usize> {
            nests.iter().position(|x| x.name == name).ok_or_else(|| input(field, format!("unknown nest `{name}`")))
        };
        let mut edges = Vec::new();
        for (e, es) in spec.edges.iter().enumerate() {
            let field = format!("edges[{e}]");
            let from = nest_index(&field, &es.from)?;
            let to = nest_index(&field, &es.to)?;
            if from > to {
                return Err(input(&field, format!("dependence from {} to the earlier nest {}: impossible in a loop sequence", es.from, es.to)));
            }
            if es.distance.len() != n {
                return Err(input(&field, format!("distance must have {n} components")));
            }
            let kind = match es.kind.as_str() {
                "flow" => DepKind::Flow,
                "anti" => DepKind::Anti,
                "output" => DepKind::Output,
                k => return Err(input(&field, format!("type `{k}`: expected flow, anti or output"))),
            };
            let write = match &es.write {
                None => None,
                Some(id) => {
                    if kind != DepKind::Flow {
                        return Err(input(&field, "`write` is only meaningful on flow edges"));
                    }
                    let w = writes.iter().position(|w| &w.id == id).ok_or_else(|| input(&field, format!("unknown write `{id}`")))?;
                    if writes[w].nest != from {
                        return Err(input(&field, format!("write `{id}` is not in the source nest {}", es.from)));
                    }
                    Some(w)
                }
            };
            let extension = match (&es.extension, write) {
                (Some(o), Some(_)) => {
                    let zero = vec![0; n];
                    let mut unit = vec![0; n];
                    unit[n - 1] = 1;
                    if *o != zero && *o != unit {
                        return Err(input(&field, "extension must be 0 or (0, .., 0, 1) (Sec. 3.3)"));
                    }
                    Some(o.clone())
                }
                (None, Some(_)) => return Err(input(&field, "a flow edge of a local write needs `extension`")),
                (Some(_), None) => return Err(input(&field, "`extension` without `write`")),
                (None, None) => None,
            };
            // Dependences of a nest on itself are preserved by fusion (Sec. 4.1); they
            // count only in Assumption 3's sums and, for local writes, as M-edges.
            edges.push(Edge {
                from,
                to,
                kind,
                distance: es.distance.clone(),
                write,
                extension,
                array: es.array.clone(),
                reference: es.reference.clone(),
            });
        }
        Ok(LoopSequence {
            depth: n,
            index_names: spec.index_names.clone(),
            trip_counts,
            coalescing,
            nests,
            writes,
            regions,
            edges,
            params: params.to_vec(),
        })
    }

    /// Values of the parameters for evaluation.
    pub fn env<'a>(&'a self, values: &'a std::collections::BTreeMap<String, i64>) -> Vec<(&'a str, i64)> {
        values.iter().map(|(k, v)| (k.as_str(), *v)).collect()
    }

    /// `b` at an instance.
    pub fn trip_counts_at(&self, values: &std::collections::BTreeMap<String, i64>) -> Result<Vec<i128>> {
        let env = self.env(values);
        Ok(self.trip_counts.iter().map(|p| p.eval(&env)).collect::<std::result::Result<Vec<_>, _>>()?)
    }

    /// `s` at an instance.
    pub fn coalescing_at(&self, values: &std::collections::BTreeMap<String, i64>) -> Result<Vec<i128>> {
        let env = self.env(values);
        Ok(self.coalescing.iter().map(|p| p.eval(&env)).collect::<std::result::Result<Vec<_>, _>>()?)
    }

    /// `u . s` as a polynomial.
    pub fn times_s(&self, u: &[i64]) -> Result<Polynomial> {
        let mut p = Polynomial::zero();
        for (x, s) in u.iter().zip(&self.coalescing) {
            p = p.checked_add(&s.checked_scale(*x)?)?;
        }
        Ok(p)
    }

    /// The write references of nest `i`, in order (`w_{i,1}, ..`).
    pub fn writes_of(&self, i: usize) -> Vec<usize> {
        (0..self.writes.len()).filter(|w| self.writes[*w].nest == i).collect()
    }
}
