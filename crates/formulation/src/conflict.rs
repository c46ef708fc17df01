//! Conflict sets (004 Sec. 2.1, Def. 2.3; 001 Sec. 3.2): the relation of pairs of cells
//! of one array that hold simultaneously live values. They are given explicitly (as
//! printed in the papers) or computed from a program by `polyalloc-program`.

use crate::error::{Error, Result};
use crate::set::{Map, Set};

/// How a conflict relation lists its pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConflictForm {
    /// Each unordered pair at least once (004 Sec. 3.3.1 convention: `x` not written
    /// later than `y`); the symmetric closure is implied.
    Half,
    /// Both `(x, y)` and `(y, x)` are listed.
    Symmetric,
}

/// The conflict set `CS` of one array (004 Sec. 2.1, Def. 2.3): a relation
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
    /// Accepts an explicitly given conflict relation (e.g. as printed in 001 or 004).
    pub fn from_map(relation: Map, form: ConflictForm) -> Result<ConflictSet> {
        let sp = relation.space();
        let input = sp.input.as_ref().ok_or_else(|| Error::WrongKind("a conflict set is a relation A[x] -> A[y]".into()))?;
        if !input.same_shape(&sp.output) {
            return Err(Error::SpaceMismatch(format!("conflict relation between different arrays: `{sp}`")));
        }
        let array = input.name.clone().unwrap_or_default();
        Ok(ConflictSet { array, relation, form })
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
    /// (001 Sec. 3.2), symmetric with respect to 0.
    pub fn differences(&self) -> Result<Set> {
        self.symmetric()?.deltas()
    }
}
