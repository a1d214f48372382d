import RiveSyncCore
import RiveSyncTransport
import Testing

/// The worker shell's timers (a `TimerHeap` of the core's timers, the earliest run whenever one
/// of the host's closures fires): taken earliest first, in the order asked among equal
/// deadlines, each once.
struct WorkerTimerOrderTests {
    @Test func timersAreTakenByDeadlineThenInTheOrderAsked() {
        var timers = TimerHeap<WorkerTimer>()
        let asked: [(WorkerTimer, UInt64)] = [
            (.advance(target: "a"), 30), (.catchUpCheck, 10), (.advance(target: "b"), 30), (.presencePeers, 20),
            (.presenceMessage(target: "a"), 10), (.advance(target: "c"), 5), (.presenceGrace(target: "b"), 30),
        ]
        for (timer, at) in asked { timers.insert(timer, at: at) }
        var taken: [WorkerTimer] = []
        while let timer = timers.popFirst(dueBy: .max) { taken.append(timer) }
        #expect(
            taken == [
                .advance(target: "c"), .catchUpCheck, .presenceMessage(target: "a"), .presencePeers, .advance(target: "a"),
                .advance(target: "b"), .presenceGrace(target: "b"),
            ])
    }

    @Test func timersAddedBetweenTakesKeepTheOrder() {
        var timers = TimerHeap<WorkerTimer>()
        var taken: [UInt64] = []
        // Deadlines pseudo-randomly spread, some equal; one in three takes between adds.
        var seed: UInt64 = 7
        var expected: [UInt64] = []
        for index in 0..<300 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let at = (seed >> 33) % 50 + UInt64(index)
            timers.insert(.advance(target: String(at)), at: at)
            expected.append(at)
            if index % 3 == 0, case .advance(let target, _)? = timers.popFirst(dueBy: .max) {
                let first = expected.min()!
                #expect(UInt64(target) == first)
                expected.remove(at: expected.firstIndex(of: first)!)
                taken.append(first)
            }
        }
        var rest: [UInt64] = []
        while case .advance(let target, _)? = timers.popFirst(dueBy: .max) { rest.append(UInt64(target)!) }
        #expect(rest == expected.sorted())
        #expect(taken.count + rest.count == 300)
        #expect(timers.popFirst(dueBy: .max) == nil)
    }
}
