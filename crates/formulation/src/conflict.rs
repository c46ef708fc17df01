//! Conflict sets (Bhaskaracharya et al. 2016, Sec. 2.1, Def. 2.3; Darte et al. 2015, Sec. 3.2): the relation of pairs of cells
//! of one array that hold simultaneously live values. They are given explicitly (as
//! printed in the papers) or computed from a program by `polyalloc-program`.

use crate::error::{Error, Result};
use crate::set::{Map, Set};

/// How a conflict relation lists its pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConflictForm {
    /// Each unordered pair at least once (Bhaskaracharya et al. 2016, Sec. 3.3.1 convention: `x` not written
    /// later than `y`); the symmetric closure is implied.
    Half,
    /// Both `(x, y)` and `(y, x)` are listed.
    Symmetric,
}

/// The conflict set `CS` of one array (Bhaskaracharya et al. 2016, Sec. 2.1, Def. 2.3): a relation
/// `A[x] -> A[y]` given as a union of conflict polyhedra (with local variables).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictSet {
    /// The array name.
    pub array: String,
    /// The conflict relation.
    pub relation: Map,
    /// Half or symmetric form.
    pub form: ConflictForm,
}

impl ConflictSet {
    /// Accepts an explicitly given conflict relation (e.g. as printed in Darte et al. 2015 or Bhaskaracharya et al. 2016).
    pub fn from_map(relation: Map, form: ConflictForm) -> Result<ConflictSet> {
        let sp = relation.space();
        let input = sp.input.as_ref().ok_or_else(|| Error::WrongKind("a conflict set is a relation A[x] -> A[y]".into()))?;
        if !input.same_shape(&sp.output) {
            return Err(Error::SpaceMismatch(format!("conflict relation between different arrays: `{sp}`")));
        }
        let array = input.name.clone().unwrap_or_default();
        Ok(ConflictSet { array, relation, form })
    }
    /// The space of a conflict relation of the `n`-dimensional array `array`:
    /// `[params] -> { array[x0, ..] -> array[y0, ..] }`.
    pub fn pair_space(params: &[String], array: &str, n: usize) -> crate::space::Space {
        let xs: Vec<String> = (0..n).map(|j| format!("x{j}")).collect();
        let ys: Vec<String> = (0..n).map(|j| format!("y{j}")).collect();
        let xr: Vec<&str> = xs.iter().map(String::as_str).collect();
        let yr: Vec<&str> = ys.iter().map(String::as_str).collect();
        let pr: Vec<&str> = params.iter().map(String::as_str).collect();
        crate::space::Space::map(&pr, crate::space::Tuple::new(array, &xr), crate::space::Tuple::new(array, &yr))
    }
    /// No two cells of the array conflict: the empty relation of [`ConflictSet::pair_space`].
    pub fn empty(params: &[String], array: &str, n: usize, form: ConflictForm) -> ConflictSet {
        ConflictSet { array: array.to_string(), relation: Set::empty(Self::pair_space(params, array, n)), form }
    }
    /// Parses an explicit conflict relation in isl notation.
    pub fn parse(text: &str, form: ConflictForm) -> Result<ConflictSet> {
        Self::from_map(Map::parse(text)?, form)
    }
    /// The relation with both orientations of every pair.
    pub fn symmetric(&self) -> Result<Map> {
        match self.form {
            ConflictForm::Symmetric => Ok(self.relation.clone()),
            ConflictForm::Half => self.relation.union(&self.relation.reverse()?),
        }
    }
    /// The set of conflicting differences `DS = { x - y : x conflicts with y }`
    /// (Darte et al. 2015, Sec. 3.2), symmetric with respect to 0.
    pub fn differences(&self) -> Result<Set> {
        self.symmetric()?.deltas()
    }
}

/// A conflict polyhedron set between two arrays of an [`InterConflictSet`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterConflict {
    /// Index of the array of the input tuple (in [`InterConflictSet::arrays`]).
    pub from: usize,
    /// Index of the array of the output tuple.
    pub to: usize,
    /// Pairs `(x, y)` of a cell `x` of `from` and a cell `y` of `to` whose values are live
    /// at the same time (each unordered pair listed at least once: half form), as a
    /// union of conflict polyhedra.
    pub relation: Map,
}

/// The conflicts of several arrays that may share storage (inter-array storage, the
/// SMO tool's inter-array inputs): conflict relations within one array (`from == to`,
/// an intra-array conflict set) and between two arrays. Every relation is in half form
/// (the symmetric closure is implied) and over the same parameter list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterConflictSet {
    /// The arrays (name and dimensions), in order.
    pub arrays: Vec<crate::space::Tuple>,
    /// The parameters of every relation, in order.
    pub params: Vec<String>,
    /// The conflict relations.
    pub relations: Vec<InterConflict>,
}

impl InterConflictSet {
    /// Checks that every relation goes from `arrays[from]` to `arrays[to]` (tuple names
    /// and arities) and aligns every relation's parameters to one list: `params`, then
    /// those of the relations not in it, in order of appearance.
    pub fn new(params: &[String], arrays: Vec<crate::space::Tuple>, relations: Vec<InterConflict>) -> Result<InterConflictSet> {
        let mut params: Vec<String> = params.to_vec();
        for (k, r) in relations.iter().enumerate() {
            let sp = r.relation.space();
            let (Some(a), Some(b)) = (arrays.get(r.from), arrays.get(r.to)) else {
                return Err(Error::SpaceMismatch(format!("relation {k}: array index out of range ({} arrays)", arrays.len())));
            };
            let input = sp.input.as_ref().ok_or_else(|| Error::WrongKind(format!("relation {k} is a set, not a relation")))?;
            if !input.same_shape(a) || !sp.output.same_shape(b) {
                return Err(Error::SpaceMismatch(format!("relation {k} is `{sp}`, expected a relation from {a} to {b}")));
            }
            for q in &sp.params {
                if !params.contains(q) {
                    params.push(q.clone());
                }
            }
        }
        let relations = relations
            .into_iter()
            .map(|r| {
                let relation = Set::from_pieces(r.relation.space().with_params(params.clone()), r.relation.pieces().to_vec())?;
                Ok(InterConflict { relation, ..r })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(InterConflictSet { arrays, params, relations })
    }

    /// The names of the arrays, in order.
    pub fn array_names(&self) -> Vec<String> {
        self.arrays.iter().map(|t| t.name.clone().unwrap_or_default()).collect()
    }
}
