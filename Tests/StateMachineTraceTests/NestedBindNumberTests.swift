import Foundation
import RiveFile
import RiveSyncModel
import StateMachineTraceSupport
import Testing

/// Rive numbers a state machine's data binds as its artboard's own, then its nested artboards'
/// (the `binds` of a trace's state lines): `setBindTarget` and `dataBindTargetValues` number
/// them so, down to a nested artboard's nested artboard (`cycle_main7`: two binds on the main
/// artboard, two on its child, two on the grandchild).
@Suite struct NestedBindNumberTests {
    static func runtime() throws -> (FileRuntime, Int) {
        let trace = try StateMachineTrace(named: "cycle_main7")
        var runtime = FileRuntime(schema: try RiveFileReader.read([UInt8](Data(contentsOf: URL(fileURLWithPath: trace.rivPath)))))
        let viewModel = try #require(trace.header["viewModel"]?.stringValue)
        let main = try runtime.createInstance(.viewModelDefault(from: .name(viewModel)))
        try runtime.createStateMachine(
            named: "nested", artboard: trace.header["artboard"]?.stringValue, stateMachine: trace.header["stateMachine"]?.stringValue,
            main: main)
        return (runtime, trace.states.first?["binds"]?.arrayValue?.count ?? 0)
    }

    @Test func nestedArtboardsBindsFollowTheArtboardsOwn() throws {
        var (runtime, rives) = try Self.runtime()
        _ = try runtime.advance("nested", elapsed: 0)
        let before = try runtime.dataBindTargetValues("nested")
        #expect(before.count == rives && rives == 6)
        #expect(try runtime.dataBindTargetType("nested", bind: 5) == .string)
        #expect(throws: DataBindTargetError.noSuchDataBind(target: "nested", bind: 6)) {
            try runtime.dataBindTargetType("nested", bind: 6)
        }

        try runtime.enqueue(QueuedCommand(id: 1, command: .setBindTarget(bind: 5, value: .string("written"))), on: "nested")
        let batches = try runtime.advance("nested", elapsed: 0)
        #expect(batches.flatMap(\.rejected).isEmpty)
        let after = try runtime.dataBindTargetValues("nested")
        #expect(after[5] == .string("written"), "the grandchild's text bind: \(after)")
        #expect(Array(after[..<5]) == Array(before[..<5]))
    }
}
