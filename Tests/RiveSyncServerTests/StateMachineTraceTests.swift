import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// Every golden trace of `../shared/fixtures/sm-traces/` (recorded from Rive's own runtime)
/// replayed through the whole daemon in-process over the protocol (`StateMachineTraceRunner`,
/// docs/STATE-MACHINE-DAEMON.md): every value after every advance, the state machine's
/// trigger fires, its events and its layers' states must be Rive's. A trace that cannot pass
/// yet is listed, with its reason, in docs/STATE-MACHINE.md (the evaluator's list) or in
/// docs/STATE-MACHINE-DAEMON.md (what no client can drive); a listed trace must still fail, so
/// the lists stay true. Nothing is skipped.
@Suite(.serialized) struct StateMachineTraceTests {
    static let evaluatorDocument = DaemonProcess.packageRoot + "/docs/STATE-MACHINE.md"
    static let daemonDocument = DaemonProcess.packageRoot + "/docs/STATE-MACHINE-DAEMON.md"

    /// The traces a document lists in its sections whose heading says they cannot pass, fail
    /// or are pending: every trace name in backquotes there. nil: no such section (or no file).
    static func listed(in document: String) -> Set<String>? {
        guard let text = try? String(contentsOfFile: document, encoding: .utf8) else { return nil }
        var inSection = false
        var found = false
        var names: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                let heading = line.lowercased()
                inSection = ["cannot pass", "not pass", "fail", "pending"].contains { heading.contains($0) }
                found = found || inSection
                continue
            }
            guard inSection else { continue }
            for (index, part) in line.split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
                if StateMachineTrace.names.contains(String(part)) { names.insert(String(part)) }
            }
        }
        return found ? names : nil
    }

    static let listedByTheEvaluator = listed(in: evaluatorDocument)
    static let listedForTheDaemon = listed(in: daemonDocument) ?? []

    @Test func theTracesAreThere() {
        #expect(StateMachineTrace.names.count >= 33, "traces in \(StateMachineTrace.directory): \(StateMachineTrace.names.count)")
    }

    @Test func theEvaluatorListsTheTracesThatCannotPassYet() {
        #expect(
            Self.listedByTheEvaluator != nil,
            "\(Self.evaluatorDocument) has no section saying which traces cannot pass yet (an empty one says all pass)")
    }

    @Test(arguments: StateMachineTrace.names)
    func aTraceReplaysThroughTheDaemon(name: String) async throws {
        let trace = try StateMachineTrace(named: name)
        if let reason = trace.unreachableOverTheProtocol {
            #expect(Self.listedForTheDaemon.contains(name), "\(name) is not in \(Self.daemonDocument), but \(reason)")
            return
        }
        #expect(!Self.listedForTheDaemon.contains(name), "\(name) is listed in \(Self.daemonDocument) but a client can drive it")
        let pending = Self.listedByTheEvaluator?.contains(name) ?? false
        let configuration = try DaemonProcess.writeConfiguration(StateMachineTraceRunner.configuration(for: trace).jsonText)
        let mismatches = try await withInProcessDaemon(["--config", configuration]) { daemon in
            let runner = try await StateMachineTraceRunner(trace: trace, daemon: daemon)
            do { try await runner.run() } catch { return runner.mismatches + ["stopped: \(error)"] }
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
