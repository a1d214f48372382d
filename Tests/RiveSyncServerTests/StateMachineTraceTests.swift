import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import StateMachineTraceSupport
import Testing

/// Every golden trace of `../shared/fixtures/sm-traces/` (recorded from Rive's own runtime)
/// replayed through a real `rivesyncd` over the protocol (`StateMachineTraceRunner`,
/// docs/STATE-MACHINE-DAEMON.md): every value after every advance, the state machine's
/// trigger fires, its events and its layers' states must be Rive's. A trace that cannot pass
/// yet is listed, with its reason, in docs/STATE-MACHINE.md (the evaluator's list; a listed
/// trace must still fail, so the list stays true); docs/STATE-MACHINE-DAEMON.md lists none, as
/// a client can drive every step of a trace. Nothing is skipped.
@Suite(.serialized) struct StateMachineTraceTests {
    static let evaluatorDocument = DaemonProcess.packageRoot + "/docs/STATE-MACHINE.md"
    static let daemonDocument = DaemonProcess.packageRoot + "/docs/STATE-MACHINE-DAEMON.md"

    /// The traces a document lists in its sections whose heading says they cannot pass, fail
    /// or are pending: every trace name in backquotes there. nil: no such section (or no file).
    static func listed(in document: String) -> Set<String>? {
        StateMachineTrace.listed(in: document) { heading in
            ["cannot pass", "not pass", "fail", "pending"].contains { heading.contains($0) }
        }
    }

    static let listedByTheEvaluator = listed(in: evaluatorDocument)

    @Test func theTracesAreThere() {
        #expect(StateMachineTrace.names.count >= 33, "traces in \(StateMachineTrace.directory): \(StateMachineTrace.names.count)")
    }

    @Test func theEvaluatorListsTheTracesThatCannotPassYet() {
        #expect(
            Self.listedByTheEvaluator != nil,
            "\(Self.evaluatorDocument) has no section saying which traces cannot pass yet (an empty one says all pass)")
    }

    @Test func theDaemonDocumentListsNoTraceAClientCannotDrive() {
        #expect(Self.listed(in: Self.daemonDocument) == [], "\(Self.daemonDocument) must have an empty 'cannot pass' section")
    }

    @Test(arguments: StateMachineTrace.names)
    func aTraceReplaysThroughTheDaemon(name: String) async throws {
        let trace = try StateMachineTrace(named: name)
        let pending = Self.listedByTheEvaluator?.contains(name) ?? false
        let configuration = try DaemonProcess.writeConfiguration(StateMachineTraceRunner.configuration(for: trace).jsonText)
        let mismatches = try await withDaemon(["--config", configuration]) { daemon in
            let runner = try await StateMachineTraceRunner(trace: trace, daemon: daemon)
            do { try await runner.run() } catch { return runner.mismatches + ["stopped: \(error)\n\(daemon.stderr)"] }
            return runner.mismatches
        }
        if pending {
            #expect(!mismatches.isEmpty, "\(name) passes: take it off docs/STATE-MACHINE.md's list")
        } else {
            let shown = mismatches.prefix(20).joined(separator: "\n")
            #expect(mismatches.isEmpty, "\(name) differs from Rive's runtime:\n\(shown)")
        }
    }
}
