//! Errors of fabric construction and path counting. Messages name the offending
//! switch or link index so that a caller can point at the bad input row.

use std::fmt;

use super::{LinkId, MAX_TIERS, SwitchId};

/// Which end of a link an error refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkEnd {
    /// The `link_lower` end.
    Lower,
    /// The `link_upper` end.
    Upper,
}

impl fmt::Display for LinkEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LinkEnd::Lower => "lower",
            LinkEnd::Upper => "upper",
        })
    }
}

/// The input arrays do not describe a valid fabric.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FabricError {
    /// `num_tiers` is 0 or above [`MAX_TIERS`].
    TierCount {
        /// The number given.
        num_tiers: u32,
    },
    /// More switches than a [`SwitchId`] can address.
    TooManySwitches {
        /// The number given.
        count: usize,
    },
    /// More links than a [`LinkId`] can address.
    TooManyLinks {
        /// The number given.
        count: usize,
    },
    /// A switch's tier is not below `num_tiers`.
    SwitchTier {
        /// The switch index.
        switch: usize,
        /// Its tier.
        tier: u32,
        /// The fabric's number of tiers.
        num_tiers: u32,
    },
    /// `link_lower` and `link_upper` differ in length.
    LinkArrayLengths {
        /// Length of `link_lower`.
        lower: usize,
        /// Length of `link_upper`.
        upper: usize,
    },
    /// A link names a switch index that does not exist.
    UnknownSwitch {
        /// The link index.
        link: usize,
        /// Which end is bad.
        end: LinkEnd,
        /// The switch index given.
        switch: SwitchId,
        /// The number of switches.
        num_switches: usize,
    },
    /// A link's ends are not on adjacent tiers.
    LinkNotAdjacent {
        /// The link index.
        link: usize,
        /// Tier of the `link_lower` end.
        lower_tier: u32,
        /// Tier of the `link_upper` end.
        upper_tier: u32,
    },
    /// A link's ends are on adjacent tiers but given in the wrong order.
    LinkReversed {
        /// The link index.
        link: usize,
        /// Tier of the `link_lower` end.
        lower_tier: u32,
        /// Tier of the `link_upper` end.
        upper_tier: u32,
    },
}

impl fmt::Display for FabricError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FabricError::TierCount { num_tiers } => {
                write!(
                    f,
                    "num_tiers must be between 1 and {MAX_TIERS}, got {num_tiers}"
                )
            }
            FabricError::TooManySwitches { count } => {
                write!(
                    f,
                    "{count} switches is more than the engine can index ({})",
                    u32::MAX
                )
            }
            FabricError::TooManyLinks { count } => {
                write!(
                    f,
                    "{count} links is more than the engine can index ({})",
                    u32::MAX
                )
            }
            FabricError::SwitchTier {
                switch,
                tier,
                num_tiers,
            } => write!(
                f,
                "switch {switch} has tier {tier} but the fabric has {num_tiers} tiers (0 to {})",
                num_tiers - 1
            ),
            FabricError::LinkArrayLengths { lower, upper } => write!(
                f,
                "link_lower has length {lower} but link_upper has length {upper}; they must be equal"
            ),
            FabricError::UnknownSwitch {
                link,
                end,
                switch,
                num_switches,
            } => write!(
                f,
                "link {link}: {end} switch {switch} does not exist (the fabric has {num_switches} switches)"
            ),
            FabricError::LinkNotAdjacent {
                link,
                lower_tier,
                upper_tier,
            } => write!(
                f,
                "link {link} joins tiers {lower_tier} and {upper_tier}; links must join adjacent tiers"
            ),
            FabricError::LinkReversed {
                link,
                lower_tier,
                upper_tier,
            } => write!(
                f,
                "link {link} goes from tier {lower_tier} down to tier {upper_tier}; \
                 link_lower must name the lower-tier switch"
            ),
        }
    }
}

impl std::error::Error for FabricError {}

/// Path counting could not be done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    /// The usable-link mask does not have one entry per link.
    MaskLength {
        /// Number of links in the fabric.
        expected: usize,
        /// Length of the mask given.
        got: usize,
    },
    /// A link index is out of range.
    UnknownLink {
        /// The link index given.
        link: LinkId,
        /// Number of links in the fabric.
        num_links: usize,
    },
    /// A switch has more paths than fit in a u64.
    Overflow {
        /// The switch whose count overflowed.
        switch: SwitchId,
    },
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PathError::MaskLength { expected, got } => write!(
                f,
                "usable mask has length {got} but the fabric has {expected} links"
            ),
            PathError::UnknownLink { link, num_links } => write!(
                f,
                "link {link} does not exist (the fabric has {num_links} links)"
            ),
            PathError::Overflow { switch } => write!(
                f,
                "the number of up-paths of switch {switch} exceeds {} (64-bit overflow)",
                u64::MAX
            ),
        }
    }
}

impl std::error::Error for PathError {}
