//! Circuit-switch reconfiguration planners (seeds 002 and 003; see
//! `shared/reference/circuits-sharebackup-larry.md` and docs/reconfig.md).
//!
//! - [`sharebackup`]: failure groups of a fat tree spliced to shared backups
//!   by `replace()` calls, planned event by event, with an independent verifier.
//! - [`pool`]: backup-pool sizing (binomial) and its Monte Carlo cross-check.
//! - [`larry`]: the rack-set uplink controller, its baselines and the
//!   max-flow feasibility check with min-cut certificates.
//! - [`flow`]: the integral max flow (Dinic) both use.
//! - [`cost`]: static versus Larry versus ShareBackup counts and cost.

pub mod cost;
pub mod flow;
pub mod larry;
pub mod pool;
pub mod sharebackup;
