//! Shared helpers for the criterion benchmarks: the corpus and the naive floors.
