/// The state machine's random numbers: a SplitMix64 sequence from a fixed seed, so a formula's
/// `random` gives the same numbers on every machine and in every replay.
struct SeededRandom: Sendable, Hashable {
    /// The seed every state machine starts from.
    static let seed: UInt64 = 0x5269_7665_5379_6E63

    private(set) var state: UInt64

    /// A sequence from `state` (the fixed seed unless restoring one).
    init(state: UInt64 = SeededRandom.seed) {
        self.state = state
    }

    /// The next number of the sequence, in 0..<1 (24 bits, as a Float holds them exactly).
    mutating func nextFloat() -> Float {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return Float(mixed >> 40) / Float(1 << 24)
    }
}
