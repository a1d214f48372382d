/// A reproducible permutation of `0..<count`: Fisher–Yates driven by `SplitMix64` from `seed`.
/// The rooms workload orders its clients' sends with it, so each client gets its own fixed
/// phase in the send period and the clients of one room do not send back to back.
public enum SeededShuffle {
    /// `0..<count` in an order that depends only on `count` and `seed`.
    public static func permutation(of count: Int, seed: UInt64) -> [Int] {
        var order = Array(0..<count)
        var generator = SplitMix64(seed: seed)
        for i in stride(from: count - 1, to: 0, by: -1) {
            let j = Int(generator.next() % UInt64(i + 1))
            order.swapAt(i, j)
        }
        return order
    }
}
