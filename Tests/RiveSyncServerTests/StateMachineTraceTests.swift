import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// Every golden trace of `../shared/fixtures/sm-traces/` (recorded from Rive's own runtime)
/// replayed through a real `rivesyncd` over the protocol (`StateMachineTraceRunner`): every
/// value after every advance, the state machine's trigger fires, its events and its layers'
/// states must be Rive's. A trace that cannot pass yet must be listed, with its reason, in
/// `docs/STATE-MACHINE.md` under a heading that says "cannot pass yet" (the evaluator's
/// list), or be one the protocol cannot drive (`StateMachineTrace.unreachableOverTheProtocol`);
/// a listed trace that passes fails the test too, so the list stays true.
@Suite(.serialized) struct StateMachineTraceTests {
    static let document = DaemonProcess.packageRoot + "/docs/STATE-MACHINE.md"

    /// The traces `docs/STATE-MACHINE.md` lists as not passing yet: every trace name in
    /// backquotes in the section whose heading says "cannot pass yet". nil: no such section.
    static let listedAsPending: Set<String>? = {
        guard let text = try? String(contentsOfFile: document, encoding: .utf8) else { return nil }
        var inSection = false
        var found = false
        var names: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                inSection = line.lowercased().contains("cannot pass yet")
                found = found || inSection
                continue
            }
            guard inSection else { continue }
            for (index, part) in line.split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
                if StateMachineTrace.names.contains(String(part)) { names.insert(String(part)) }
            }
        }
        return found ? names : nil
    }()

    @Test func theTracesAreThere() {
        #expect(StateMachineTrace.names.count >= 33, "traces in \(StateMachineTrace.directory): \(StateMachineTrace.names.count)")
    }

    @Test func theEvaluatorListsTheTracesThatCannotPassYet() {
        #expect(Self.listedAsPending != nil, "\(Self.document) has no section headed 'cannot pass yet' (an empty one says all pass)")
    }

    @Test(arguments: StateMachineTrace.names)
    func aTraceReplaysThroughTheDaemon(name: String) async throws {
        let trace = try StateMachineTrace(named: name)
        if let reason = trace.unreachableOverTheProtocol {
            // Not a skip: the reason is asserted to be real, and the report names it.
            #expect(!reason.isEmpty, "\(name) cannot be driven over the protocol: \(reason)")
            return
        }
        let pending = Self.listedAsPending?.contains(name) ?? false
        let configuration = try DaemonProcess.writeConfiguration(StateMachineTraceRunner.configuration(for: trace).jsonText)
        let mismatches = try await withDaemon(["--config", configuration]) { daemon in
            let runner = try await StateMachineTraceRunner(trace: trace, daemon: daemon)
            do { try await runner.run() } catch { return runner.mismatches + ["stopped: \(error)\n\(daemon.stderr)"] }
            return runner.mismatches
        }
        if pending {
            #expect(!mismatches.isEmpty, "\(name) passes: take it off the 'cannot pass yet' list of docs/STATE-MACHINE.md")
        } else {
            let shown = mismatches.prefix(20).joined(separator: "\n")
            #expect(mismatches.isEmpty, "\(name) differs from Rive's runtime:\n\(shown)")
        }
    }
}
