import Foundation
import RiveSyncTestSupport

/// One short rooms run of bench/run.py through the test build's rivesyncd, bench-load and
/// bench-rooms-floor, its daemon labelled `test`, written to a fresh directory.
struct RoomsRun {
    /// Where run.py wrote runs.csv and results.md; removed by `remove()`.
    let out: URL
    let result: ChildProcess.Result

    /// Runs `bench/run.py --workloads rooms` with `arguments` added.
    static func run(_ arguments: [String]) async throws -> RoomsRun {
        let load = DaemonProcess.binary("bench-load")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("bench-rooms-\(UUID().uuidString)")
        let build = URL(fileURLWithPath: load).deletingLastPathComponent().path
        let daemonDirectory = URL(fileURLWithPath: DaemonProcess.binary()).deletingLastPathComponent().path
        let result = try await offThePool {
            try ChildProcess.run(
                "/usr/bin/python3",
                [BenchHarnessTests.runPy, "--workloads", "rooms"] + arguments + [
                    "--build-dir", build, "--daemon", "test=\(daemonDirectory)", "--out", out.path,
                ], seconds: 300)
        }
        return RoomsRun(out: out, result: result)
    }

    /// results.md's text.
    func markdown() throws -> String { try String(contentsOf: out.appendingPathComponent("results.md"), encoding: .utf8) }

    func remove() { try? FileManager.default.removeItem(at: out) }  // cleanup only
}
