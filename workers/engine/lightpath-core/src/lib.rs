//! Lightpath engine core: algorithms on the switch graph of multi-tier Clos
//! fabrics, as plain arrays and numbers in and plain data out.
//!
//! This crate has no Python bindings and does no I/O; `lightpath-py` wraps it
//! for Python, and other front ends can use it directly.
#![forbid(unsafe_code)]

pub mod corropt;
pub mod document;
pub mod fabric;
pub mod fuzz_support;
pub mod maintenance;
pub mod matching;
pub mod rail;
pub mod reconfig;
pub mod telemetry;

pub use fabric::{
    CountChange, FabricError, FabricGraph, LinkEnd, LinkId, PathCounts, PathError, SwitchId,
    TorCapacity,
};
