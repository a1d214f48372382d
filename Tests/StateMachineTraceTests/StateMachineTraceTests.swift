import Foundation
import StateMachineTraceSupport
import Testing

/// Every golden trace of `../shared/fixtures/sm-traces/` (recorded from Rive's own runtime)
/// replayed in-process through `RiveFileReader` and `FileRuntime` (`TraceRunner`): every value
/// after every advance, the state machine's trigger fires, its events and its layers' states
/// must be Rive's. A trace that cannot pass yet is listed, with its reason, in
/// `docs/STATE-MACHINE.md` under the heading that says "cannot pass yet"; a listed trace must
/// still fail (so the list stays true), and an unlisted one must pass.
@Suite struct StateMachineTraceTests {
    static let document = StateMachineTrace.packageRoot + "/docs/STATE-MACHINE.md"

    /// The traces the document lists as not passing yet (every trace name in backquotes in
    /// the section whose heading says "cannot pass yet"); nil when there is no such section.
    static let listedAsPending = StateMachineTrace.listed(in: document) { $0.contains("cannot pass yet") }

    @Test func theTracesAreThere() {
        #expect(StateMachineTrace.names.count >= 33, "traces in \(StateMachineTrace.directory): \(StateMachineTrace.names.count)")
    }

    @Test func theDocumentListsTheTracesThatCannotPassYet() {
        #expect(Self.listedAsPending != nil, "\(Self.document) has no section headed 'cannot pass yet' (an empty one says all pass)")
    }

    @Test(arguments: StateMachineTrace.names)
    func aTraceReplaysInProcess(name: String) throws {
        let trace = try StateMachineTrace(named: name)
        var runner = try TraceRunner(trace: trace)
        var mismatches: [String]
        do {
            try runner.run()
            mismatches = runner.mismatches
        } catch {
            mismatches = runner.mismatches + ["stopped: \(error)"]
        }
        let pending = Self.listedAsPending?.contains(name) ?? false
        if pending {
            #expect(!mismatches.isEmpty, "\(name) passes: take it off the 'cannot pass yet' list of docs/STATE-MACHINE.md")
        } else {
            let shown = mismatches.prefix(20).joined(separator: "\n")
            #expect(mismatches.isEmpty, "\(name) differs from Rive's runtime:\n\(shown)")
        }
    }
}
