import Foundation
import RiveSyncTestSupport
import Testing

/// bench/run.py still plans and runs the cluster systems (issue 12's benchmark): a dry run
/// lists the matrix, and a one-second run through the test build's rivesyncd and bench-load
/// starts redis-server and the nodes, measures every system and writes the cluster table.
struct BenchHarnessTests {
    static let runPy = DaemonProcess.packageRoot + "/bench/run.py"
    static let systems = ["rivesync-1", "rivesync-1r", "rivesync-3r"]

    /// runs.csv of an output directory: its text and its rows by column name (Python's csv
    /// module ends its rows with \r\n).
    static func runs(in out: URL) throws -> (csv: String, rows: [[String: String]]) {
        let csv = try String(contentsOf: out.appendingPathComponent("runs.csv"), encoding: .utf8)
        let lines = csv.split(whereSeparator: \.isNewline).map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let header = try #require(lines.first)
        return (csv, lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) })
    }

    @Test func plansTheClusterSystemsForFanoutAndRooms() async throws {
        let result = try await offThePool {
            try ChildProcess.run(
                "/usr/bin/python3",
                [
                    Self.runPy, "--dry-run", "--workloads", "fanout,rooms", "--systems", Self.systems.joined(separator: ","),
                    "--fanout-n", "10,20", "--fanout-r", "100", "--rooms", "5", "--reps", "2", "--daemon", "x=/nowhere",
                ])
        }
        #expect(result.status == 0, "\(result.output)")
        let runs = result.stdout.split(separator: "\n").filter { $0.hasPrefix("RUN ") }.map { $0.split(separator: " ") }
        // 2 reps × (2 fan-out cells + 1 rooms cell) × 3 systems, every node with one worker.
        #expect(runs.count == 18, "\(result.stdout)")
        #expect(Set(runs.map { String($0[2]) }) == Set(Self.systems))
        #expect(runs.filter { $0[1] == "rooms" }.count == 6)
        #expect(runs.allSatisfy { $0[6] == "x" && $0[7] == "1" }, "\(result.stdout)")
        let refused = try await offThePool {
            try ChildProcess.run("/usr/bin/python3", [Self.runPy, "--dry-run", "--systems", "rivesync-9"])
        }
        #expect(refused.status != 0 && refused.stderr.contains("unknown systems rivesync-9"), "\(refused.output)")
    }

    @Test func runsEveryClusterSystem() async throws {
        let daemon = DaemonProcess.binary()
        let load = DaemonProcess.binary("bench-load")
        #expect(FileManager.default.isExecutableFile(atPath: load), "bench-load is built beside the tests: \(load)")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("bench-harness-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }  // cleanup only
        let build = URL(fileURLWithPath: load).deletingLastPathComponent().path
        let daemonDirectory = URL(fileURLWithPath: daemon).deletingLastPathComponent().path
        let result = try await offThePool {
            try ChildProcess.run(
                "/usr/bin/python3",
                [
                    Self.runPy, "--workloads", "fanout,rooms", "--systems", Self.systems.joined(separator: ","), "--duration", "1",
                    "--reps", "1", "--fanout-n", "6", "--fanout-r", "100", "--rooms", "3", "--client-rate", "5",
                    "--build-dir", build, "--daemon", "test=\(daemonDirectory)", "--out", out.path,
                ], seconds: 600)
        }
        #expect(result.status == 0, "\(result.output)")
        let (csv, rows) = try Self.runs(in: out)
        #expect(rows.count == 6, "\(csv)")
        for row in rows {
            let what = "\(row["workload"] ?? "?") \(row["system"] ?? "?"): \(row)"
            #expect(row["errors", default: "?"].isEmpty, "\(what)")
            #expect(row["ready"] == row["connections"], "\(what)")
            #expect(Int(row["received"] ?? "") ?? 0 > 0, "\(what)")
            let redis = row["system"] != "rivesync-1"
            // CPU is read in clock ticks: a 1 s run may cost redis-server less than one, so only
            // a run without Redis is held to 0; the stream's entries show Redis took part.
            let redisCPU = try #require(Double(row["redis_cpu_s"] ?? ""), "\(what)")
            #expect(redis || redisCPU == 0, "\(what)")
            #expect((Double(row["stream_entries_per_s"] ?? "") ?? 0 > 0) == redis, "\(what)")
            let nodes = row["system"] == "rivesync-3r" ? 3 : 1
            #expect(row["node_cpu_s", default: ""].split(separator: " ").count == nodes, "\(what)")
            #expect(row["nodes"] == String(nodes), "\(what)")
        }
        let markdown = try String(contentsOf: out.appendingPathComponent("results.md"), encoding: .utf8)
        #expect(markdown.contains("## Cluster: one node, one node + Redis, three nodes + Redis"))
        #expect(markdown.contains("| fanout | 6 | 100 | `test` | rivesync-1r − rivesync-1 |"), "\(markdown)")
        #expect(markdown.contains("| rooms | 3 | 5 | `test` | rivesync-3r − rivesync-1r |"), "\(markdown)")
    }
    /// The rooms workload on a single rivesyncd (no cluster system named): `rooms.py` names
    /// its system `rivesync-rooms`, which `run.py` once looked up in its table and crashed on.
    @Test func runsTheRoomsWorkloadOnOneDaemon() async throws {
        let daemon = DaemonProcess.binary()
        let load = DaemonProcess.binary("bench-load")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("bench-rooms-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }  // cleanup only
        let build = URL(fileURLWithPath: load).deletingLastPathComponent().path
        let daemonDirectory = URL(fileURLWithPath: daemon).deletingLastPathComponent().path
        let result = try await offThePool {
            try ChildProcess.run(
                "/usr/bin/python3",
                [
                    Self.runPy, "--workloads", "rooms", "--systems", "rivesync-every", "--duration", "1", "--reps", "1",
                    "--rooms", "3", "--client-rate", "5", "--room-workers", "1", "--build-dir", build,
                    "--daemon", "test=\(daemonDirectory)", "--out", out.path,
                ], seconds: 300)
        }
        #expect(result.status == 0, "\(result.output)")
        let (csv, rows) = try Self.runs(in: out)
        #expect(rows.count == 1, "\(csv)")
        for row in rows {
            #expect(row["system"] == "rivesync-rooms", "\(row)")
            #expect(row["errors", default: "?"].isEmpty, "\(row)")
            #expect(Int(row["delivered_per_s"] ?? "") ?? 0 > 0, "\(row)")
        }
    }
}
