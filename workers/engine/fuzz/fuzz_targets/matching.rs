//! Fuzz target: `lightpath_core::fuzz_support::matching` (its invariants are there).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    // The bool says whether the input was accepted; both kinds stay in the corpus.
    lightpath_core::fuzz_support::matching(data);
});
