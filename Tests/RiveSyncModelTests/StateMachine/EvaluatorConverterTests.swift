import RiveFile
import RiveSyncModel
import Testing

/// The evaluator running a file's converters: `interpolate_to_end.riv` (artboard `child`) binds
/// `num` to a text run through a group holding a one-second interpolator converter.
@Suite struct EvaluatorConverterTests {
    private func settledRuntime() throws -> FileRuntime {
        var runtime = FileRuntime(schema: try RiveFileReader.read([UInt8](ConverterFixtures.contents("riv/interpolate_to_end.riv"))))
        let main = try runtime.createInstance(.viewModelDefault(from: .name("vm")))
        try runtime.createStateMachine(named: "sm", artboard: "child", main: main)
        var advances = 0
        while !runtime.isSettled("sm") {
            _ = try runtime.advance("sm", elapsed: 0.1)
            advances += 1
            try #require(advances < 100, "the new state machine settles")
        }
        return runtime
    }

    @Test func anInterpolatorKeepsTheStateMachineRunningUntilItArrives() throws {
        var runtime = try settledRuntime()
        try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "num", value: .number(1000))), on: "sm")
        _ = try runtime.advance("sm", elapsed: 0.001)
        #expect(!runtime.isSettled("sm"), "the interpolator starts moving")
        for step in 1...3 {
            _ = try runtime.advance("sm", elapsed: 0.25)
            #expect(!runtime.isSettled("sm"), "still moving after \(step) quarter seconds")
        }
        let last = try runtime.advance("sm", elapsed: 0.25)
        #expect(runtime.isSettled("sm"), "arrived after one second")
        #expect(last.map(\.settled) == [true], "the advance that settles the state machine has a batch saying so")
        #expect(try runtime.advance("sm", elapsed: 0.25).isEmpty, "a settled state machine's time changes nothing")
    }

    @Test func anInterpolationUnderWaySurvivesARestart() throws {
        var runtime = try settledRuntime()
        try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "num", value: .number(1000))), on: "sm")
        _ = try runtime.advance("sm", elapsed: 0.001)
        _ = try runtime.advance("sm", elapsed: 0.25)
        var restored = FileRuntime(schema: runtime.schema, restoring: runtime.persistentState)
        #expect(restored.persistentState == runtime.persistentState)
        for _ in 0..<3 {
            _ = try runtime.advance("sm", elapsed: 0.25)
            _ = try restored.advance("sm", elapsed: 0.25)
            #expect(restored.persistentState == runtime.persistentState, "the same interpolation goes on after a restart")
            #expect(restored.isSettled("sm") == runtime.isSettled("sm"))
        }
        #expect(restored.isSettled("sm"))
    }
}
