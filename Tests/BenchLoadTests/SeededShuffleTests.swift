import BenchLoadKit
import Testing

/// The send order of the room clients.
struct SeededShuffleTests {
    @Test func isAReproduciblePermutation() {
        let order = SeededShuffle.permutation(of: 1000, seed: 42)
        #expect(order.sorted() == Array(0..<1000))
        #expect(order == SeededShuffle.permutation(of: 1000, seed: 42))
        #expect(order != SeededShuffle.permutation(of: 1000, seed: 43))
        #expect(order != Array(0..<1000))
        #expect(SeededShuffle.permutation(of: 0, seed: 1).isEmpty)
        #expect(SeededShuffle.permutation(of: 1, seed: 1) == [0])
    }

    @Test func spreadsTheClientsOfARoomOverThePeriod() {
        // 125 rooms × 8 clients: in send order, the 8 clients of a room are not bunched
        // together as they are in connection order (where each room's 8 sends span 7 slots).
        let order = SeededShuffle.permutation(of: 1000, seed: 7)
        var slots: [Int: [Int]] = [:]
        for (slot, connection) in order.enumerated() { slots[connection / 8, default: []].append(slot) }
        let spans = slots.values.map { $0.max()! - $0.min()! }
        #expect(spans.filter { $0 < 100 }.count < 5)
    }
}
