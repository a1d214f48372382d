/// A reproducible permutation of `0..<count`: Fisher–Yates driven by SplitMix64 from `seed`.
/// The rooms workload orders its clients' sends with it, so each client gets its own fixed
/// phase in the send period and the clients of one room do not send back to back.
public enum SeededShuffle {
    /// `0..<count` in an order that depends only on `count` and `seed`.
    public static func permutation(of count: Int, seed: UInt64) -> [Int] {
        var order = Array(0..<count)
        var state = seed
        for i in stride(from: count - 1, to: 0, by: -1) {
            let j = Int(next(&state) % UInt64(i + 1))
            order.swapAt(i, j)
        }
        return order
    }

    /// One SplitMix64 step (Steele, Lea and Flood's constants).
    static func next(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
