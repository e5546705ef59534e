/// A small, fast, seeded random number generator (SplitMix64, Steele, Lea & Flood 2014).
///
/// The whole dataset is a function of `--seed`: every object draws from its own
/// `SplitMix64(seed:stream:)`, so any record can be regenerated on its own, in any order.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// An independent generator for item `stream` of a run seeded with `seed`. The stream index is
    /// scrambled (SplitMix64's finaliser, a bijection) before it is mixed into the state, so that
    /// streams are not shifted copies of each other (with a plain `stream × γ` offset, stream
    /// *p + 1*'s draws would be stream *p*'s one step later, and neighbouring objects' values alike).
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ 0x5DEE_CE66_D1CE_4E5B)
        state = mixer.next() ^ Self.finalize(stream &+ 0xA076_1D64_78BD_642F)
        _ = next()
    }

    static func finalize(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1) with 53 random bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
