//! The good_lp backends of this build, registered as `goodlp-<solver>`.

use polyalloc_ilp::Registry;

/// Registers every compiled-in good_lp solver (none without a `goodlp-*` feature).
pub(crate) fn register(r: &mut Registry) {
    macro_rules! goodlp {
        ($feature:literal, $kind:ident) => {
            #[cfg(feature = $feature)]
            {
                use polyalloc_backend_goodlp::{GoodLpKind, GoodLpSolver};
                let kind = GoodLpKind::$kind;
                r.register(kind.name(), kind.description(), || Ok(Box::new(GoodLpSolver::new(GoodLpKind::$kind)?)));
            }
        };
    }
    goodlp!("goodlp-microlp", Microlp);
    goodlp!("goodlp-highs", Highs);
    goodlp!("goodlp-cbc", Cbc);
    goodlp!("goodlp-lpsolve", LpSolve);
    let _ = r;
}
