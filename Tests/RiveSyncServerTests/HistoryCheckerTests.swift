import RiveSyncJSON
import Testing

/// The history checker itself: each invariant flags a history that breaks it.
@Suite struct HistoryCheckerTests {
    func check(_ events: [JSONValue]) -> [String] {
        var checker = HistoryChecker()
        events.forEach { checker.record($0) }
        return checker.violations()
    }

    let valid: [JSONValue] = [
        ["client": "a", "kind": "start", "seq": 0], ["client": "b", "kind": "start", "seq": 0],
        ["client": "a", "kind": "invoke", "op": "a1"],
        ["client": "a", "kind": "batch", "seq": 1, "commands": [7], "effects": "h1"],
        ["client": "a", "kind": "ok", "op": "a1", "command": 7, "seq": 1],
        ["client": "b", "kind": "batch", "seq": 1, "commands": [7], "effects": "h1"],
    ]

    @Test func aValidHistoryPasses() {
        #expect(check(valid).isEmpty)
    }

    @Test func disagreementIsFound() {
        var events = valid
        events[5] = ["client": "b", "kind": "batch", "seq": 1, "commands": [7], "effects": "other"]
        #expect(check(events).first?.hasPrefix("agreement") == true)
    }

    @Test func aGapIsFound() {
        let events = valid + [["client": "b", "kind": "batch", "seq": 3, "commands": [], "effects": "h3"]]
        #expect(check(events).first?.hasPrefix("contiguity") == true)
    }

    @Test func aLostAckIsFound() {
        var events = valid
        events[4] = ["client": "a", "kind": "ok", "op": "a1", "command": 8, "seq": 1]
        #expect(check(events).contains { $0.hasPrefix("lost ack") })
    }

    @Test func aPhantomIsFound() {
        let events =
            valid + [
                ["client": "a", "kind": "batch", "seq": 2, "commands": [9], "effects": "h2"],
                ["client": "b", "kind": "batch", "seq": 2, "commands": [9], "effects": "h2"],
            ]
        #expect(check(events).contains { $0.hasPrefix("phantoms") })
        let explained = events + [["client": "b", "kind": "invoke", "op": "b1"], ["client": "b", "kind": "info", "op": "b1"]]
        #expect(check(explained).isEmpty, "a request with an unknown outcome explains one unacked command")
    }

    @Test func sessionOrderIsChecked() {
        let events =
            valid + [
                ["client": "a", "kind": "batch", "seq": 2, "commands": [10], "effects": "h2"],
                ["client": "a", "kind": "ok", "op": "a2", "command": 10, "seq": 2],
                ["client": "a", "kind": "ok", "op": "a3", "command": 7, "seq": 1],
            ]
        #expect(check(events).contains { $0.hasPrefix("session FIFO") })
    }
}
