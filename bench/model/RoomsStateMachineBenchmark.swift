import Foundation
import RiveSyncModel

/// The evaluator's cost per advance on the rooms shape (issue 22): R rooms, each a state machine
/// target of a real `.riv` with its own instance, in one `FileRuntime` as the daemon holds a file.
/// Baseline in the same run: the same schema with its graph emptied, i.e. the same view model
/// and no state machine to run, which is what the daemon did with a JSON schema file before.
struct RoomsStateMachineBenchmark {
    enum Variant: String, CaseIterable {
        case stateMachine = "state machine"
        case noGraph = "baseline (no graph)"
    }

    var fixture: RoomsFixture
    var rooms: Int
    var passes = 5
    /// Frames of 1/60 s run after each pass of writes, for (c).
    var frames = 10

    /// Per-advance samples in nanoseconds, and what else the report needs.
    struct Result {
        var settledEmpty: [Double] = []
        var write: [Double] = []
        var running: [Double] = []
        /// Of the `running` samples, how many advanced a target that was not settled.
        var runningUnsettled = 0
        var settledAfterCreate = 0
        var bytesPerRoom: Double?
    }

    func run(_ variant: Variant) throws -> Result {
        var schema = try fixture.schema()
        if variant == .noGraph { schema.graph = RiveGraph() }
        var result = Result()
        let before = residentBytes()
        var runtime = FileRuntime(schema: schema)
        let names = (0..<rooms).map { "room\($0)" }
        for name in names {
            let main = try runtime.createInstance(fixture.instance)
            try runtime.createStateMachine(named: name, artboard: fixture.artboard, main: main)
        }
        // A new state machine starts unsettled in its entry states: the daemon ticks it until settled.
        for name in names {
            var ticks = 0
            repeat {
                _ = try runtime.advance(name, elapsed: ticks == 0 ? 0 : 1.0 / 60)
                ticks += 1
            } while !runtime.isSettled(name) && ticks < 600
            if runtime.isSettled(name) { result.settledAfterCreate += 1 }
        }
        if let before, let after = residentBytes() { result.bytesPerRoom = Double(after - before) / Double(rooms) }

        // (a) a settled target's empty advance.
        for _ in 0..<passes {
            for name in names where runtime.isSettled(name) {
                result.settledEmpty.append(try Self.nanoseconds { _ = try runtime.advance(name) })
            }
        }
        var written = 0
        for _ in 0..<passes {
            // (b) one client write per room, applied by an advance that runs the state machine.
            for name in names {
                let command = QueuedCommand(id: UInt64(written), command: fixture.write(written))
                written += 1
                result.write.append(
                    try Self.nanoseconds {
                        try runtime.enqueue(command, on: name)
                        _ = try runtime.advance(name)
                    })
            }
            // (c) frames of 1/60 s after the writes (timelines and transitions running).
            for _ in 0..<frames {
                for name in names {
                    if !runtime.isSettled(name) { result.runningUnsettled += 1 }
                    result.running.append(try Self.nanoseconds { _ = try runtime.advance(name, elapsed: 1.0 / 60) })
                }
            }
        }
        return result
    }

    static func nanoseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start)
    }
}
