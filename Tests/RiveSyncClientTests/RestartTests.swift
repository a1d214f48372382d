import Foundation
import RiveSyncTestSupport
import XCTest

@testable import RiveSyncClient

/// The daemon crashes (SIGKILL) and comes back on the same port and state directory: clients
/// reconnect by themselves and resume from their cursor, losing and repeating nothing.
final class RestartTests: ClientTestCase {
    func testStreamsContinueAcrossADaemonCrashAndRestart() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-restart-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let port = try DaemonProcess.freePort()
        process = try DaemonProcess(["--demo", "--state-dir", state], port: port)
        let watcher = try await connect()
        let writer = try await connect()
        let mood = NumberProperty(path: "mood")
        let watched = try await watcher.stateMachine(named: "character").mainInstance()
        let written = try await writer.stateMachine(named: "character").mainInstance()
        let values = await Collector.start(watched.valueStream(of: mood, includingCurrent: true))
        for value in 1...4 { try await written.confirmed.setValue(of: mood, to: Float(value)) }
        try await assertEqualAsync(try await values.first(5), [0, 1, 2, 3, 4])

        process.crash()
        process = try DaemonProcess(["--demo", "--state-dir", state], port: port)
        for value in 5...8 { try await Self.retrying { try await written.confirmed.setValue(of: mood, to: Float(value)) } }

        let seen = try await values.first(9)
        XCTAssertEqual(seen, (0...8).map(Float.init), "every acked write, in order, across the restart")
        let total = await values.elements.count
        XCTAssertEqual(total, 9, "nothing repeated after the resume")
        let readBack = try await watched.value(of: mood)
        XCTAssertEqual(readBack, 8)
    }

    /// Retries while the worker is still reconnecting (hang-guarded; the timeout names the
    /// last error).
    static func retrying(_ body: () async throws -> Void) async throws {
        var last: (any Error)?
        try await waitUntil("a call to succeed after the restart (last error: \(last.map { "\($0)" } ?? "none"))") {
            do {
                try await body()
                return true
            } catch {
                last = error
                return false
            }
        }
    }
}
