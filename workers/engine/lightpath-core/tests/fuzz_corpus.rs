//! The fuzz targets' bodies (`lightpath_core::fuzz_support`) on stable: the
//! committed seed corpus (`workers/engine/fuzz/seeds/<target>/`, findings
//! included) replayed, and random bytes from proptest. `make fuzz` runs the
//! same bodies under libFuzzer on nightly.

use std::path::PathBuf;

use lightpath_core::fuzz_support;
use proptest::prelude::*;

/// Every seed of `target`, by file name.
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/seeds")
        .join(target);
    let mut seeds: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    seeds.sort();
    seeds
}

/// Replays `target`'s seeds; returns the names of those its reader accepted.
fn replay(target: &str, body: fn(&[u8]) -> bool) -> Vec<String> {
    seeds(target)
        .into_iter()
        .filter(|(_, data)| body(data))
        .map(|(name, _)| name)
        .collect()
}

#[test]
fn document_seeds() {
    let accepted = replay("document", fuzz_support::document);
    // The hand-made documents must stay readable, or the corpus tests only refusals.
    for name in ["two_tier", "thresholds"] {
        assert!(accepted.contains(&name.to_string()), "{name} refused");
    }
    assert!(!accepted.contains(&"reused_port".to_string()));
}

#[test]
fn telemetry_seeds() {
    let accepted = replay("telemetry", fuzz_support::telemetry);
    for name in ["three_polls", "resets_and_nulls"] {
        assert!(accepted.contains(&name.to_string()), "{name} not read");
    }
    assert!(!accepted.contains(&"bad_line".to_string()));
}

#[test]
fn matching_seeds() {
    let accepted = replay("matching", fuzz_support::matching);
    for name in ["replay_exact", "drain_multiport_zones"] {
        assert!(accepted.contains(&name.to_string()), "{name} refused");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn document_bytes(data in prop::collection::vec(any::<u8>(), 0..160)) {
        fuzz_support::document(&data);
    }

    #[test]
    fn matching_bytes(data in prop::collection::vec(any::<u8>(), 0..120)) {
        fuzz_support::matching(&data);
    }

    /// COPY lines from a grammar close to the real one, so that most are read.
    #[test]
    fn telemetry_lines(rows in prop::collection::vec(
        (0i64..3, 0i64..3, any::<bool>(), 0i64..200,
         prop::collection::vec(prop::option::of(0u64..5000), 5), any::<bool>(), 0u8..8),
        0..40,
    )) {
        let mut rows = rows;
        rows.sort_by_key(|r| (r.0, r.1, r.2, r.3));
        rows.dedup_by_key(|r| (r.0, r.1, r.2, r.3));
        let text: String = rows
            .iter()
            .map(|(batch, link, side, time, counters, dark, oper)| {
                let counters: Vec<String> = counters
                    .iter()
                    .map(|c| c.map_or("\\N".to_string(), |c| c.to_string()))
                    .collect();
                let side = if *side { 't' } else { 'f' };
                let rx = if *dark { "\\N" } else { "-3.5" };
                let dark = if *dark { 't' } else { 'f' };
                let oper = if *oper == 0 { "\\N".to_string() } else { oper.to_string() };
                format!(
                    "{batch}\t{link}\t{side}\t{time}\t{}\t{rx}\t\\N\t1.5\t\\N\t6\t40\t3.3\t{dark}\tf\t{oper}\n",
                    counters.join("\t")
                )
            })
            .collect();
        prop_assert!(fuzz_support::telemetry(text.as_bytes()), "{}", text);
    }
}
