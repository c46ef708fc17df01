//! Placeholder: the formulation crate lands in the next commit.
