//! SplitMix64: a small seeded generator, so a seed gives the same schedule on
//! every platform and release.

pub(crate) struct SplitMix(u64);

impl SplitMix {
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in 0..bound (bound > 0), without modulo bias worth noting at
    /// the sizes used here (bound far below 2^32).
    pub(crate) fn below(&mut self, bound: u64) -> u64 {
        ((self.next() >> 32) * bound) >> 32
    }
}
