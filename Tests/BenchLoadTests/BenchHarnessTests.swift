import Foundation
import RiveSyncTestSupport
import Testing

/// bench/run.py still plans and runs the cluster systems (issue 12's benchmark): a dry run
/// lists the matrix, and a one-second run through the test build's rivesyncd and bench-load
/// starts redis-server and the nodes, measures every system and writes the cluster table. The
/// rooms workload runs on one daemon beside the rooms floor (bench-rooms-floor, issue 23).
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
    /// Every cell runs on the rooms floor (bench-rooms-floor) first, then on each daemon, with
    /// rooms of the JSON schema and (`--room-files riv`) of `bench/peers/rooms.riv`, each
    /// server under the same CPU quota (`--server-quota`, a cgroup v1 `cpu` group per server).
    @Test func runsTheRoomsWorkloadOnOneDaemonBesideTheFloor() async throws {
        let floor = DaemonProcess.binary("bench-rooms-floor")
        #expect(FileManager.default.isExecutableFile(atPath: floor), "the floor is built beside bench-load: \(floor)")
        let run = try await RoomsRun.run([
            "--systems", "rivesync-every", "--duration", "1", "--reps", "1", "--rooms", "3", "--client-rate", "5",
            "--room-workers", "1", "--room-files", "schema,riv", "--server-quota", "50",
        ])
        defer { run.remove() }
        let (out, result) = (run.out, run.result)
        #expect(result.status == 0, "\(result.output)")
        let (csv, rows) = try Self.runs(in: out)
        #expect(rows.map { $0["system"] } == ["rooms-floor", "rivesync-rooms", "rivesync-rooms-riv"], "\(csv)")
        for row in rows {
            #expect(row["errors", default: "?"].isEmpty, "\(row)")
            #expect(row["ready"] == row["connections"] && row["ready"] == "24", "\(row)")
            #expect(Int(row["delivered_per_s"] ?? "") ?? 0 > 0, "\(row)")
            #expect(Int(row["order_violations"] ?? "") == 0, "\(row)")
            #expect(row["server_quota_pct"] == "50.0" && Double(row["throttled_s"] ?? "") != nil, "\(row)")
        }
        let markdown = try String(contentsOf: out.appendingPathComponent("results.md"), encoding: .utf8)
        #expect(markdown.contains("| rooms-floor | – | – | 3 | 5 |"), "\(markdown)")
        #expect(markdown.contains("under a CPU quota of 50 % of one core per 10 ms"), "\(markdown)")
        let groups = try FileManager.default.contentsOfDirectory(atPath: "/sys/fs/cgroup/cpu")
        #expect(!groups.contains { $0.hasPrefix("rivesync-bench-") }, "every quota's group is removed: \(groups)")
        #expect(markdown.contains("| `test` | 1 | 60 | 3 | 5 |"), "\(markdown)")
        #expect(markdown.contains("| `test` .riv | 1 | 60 | 3 | 5 |"), "\(markdown)")
    }

    /// The floor speaks the rooms subset in the daemon's wire format: a set reaches every
    /// subscriber of its room as a `batch` (the room's next seq, the writer's value and name)
    /// and its writer as an `ack`; another room hears nothing; other requests get an error.
    @Test func theRoomsFloorAnswersInTheDaemonsFormat() async throws {
        let port = try DaemonProcess.freePort()
        let floor = try ChildProcess(DaemonProcess.binary("bench-rooms-floor"), ["--port", String(port)])
        defer { _ = floor.stop() }
        #expect(try floor.nextLine().contains("listening on 127.0.0.1:\(port)"))
        try await offThePool {
            let (writer, listener, outsider) = try (
                RawSocket.webSocket(port: port), RawSocket.webSocket(port: port), RawSocket.webSocket(port: port)
            )
            func reply(_ socket: RawSocket) throws -> String { String(decoding: try socket.readMessage(), as: UTF8.self) }
            try writer.send(text: #"{"type":"hello","id":1,"protocol":[1],"client":"w"}"#)
            #expect(try reply(writer).hasPrefix(#"{"type":"welcome","id":1,"protocol":1,"#))
            for (id, room) in [(100, "room-0"), (101, "room-1")] {
                try writer.send(
                    text: #"{"type":"createStateMachine","id":\#(id),"file":"rooms-0","name":"\#(room)","artboard":"Room","#
                        + #""stateMachine":"room","mode":"auto","rate":60}"#)
                #expect(try reply(writer).hasPrefix(#"{"type":"target","id":\#(id),"target":"\#(room)","#))
            }
            for (client, room) in [(writer, "room-0"), (listener, "room-0"), (outsider, "room-1")] {
                try client.send(text: #"{"type":"subscribe","id":2,"target":"\#(room)"}"#)
                #expect(try reply(client).hasPrefix(#"{"type":"snapshot","id":2,"target":"\#(room)","epoch":"e-floor","seq":0,"#))
            }
            try writer.send(text: #"{"type":"set","id":11,"target":"room-0","path":"client0","value":"~R0:0:5;"}"#)
            let batch =
                #"{"type":"batch","target":"room-0","epoch":"e-floor","seq":1,"effects":[{"op":"set","paths":["client0"],"#
                + #""instance":1,"property":"client0","value":"~R0:0:5;"}],"commands":[1],"authors":[{"client":"w"}]}"#
            #expect(try reply(writer) == batch)
            #expect(try reply(writer) == #"{"type":"ack","id":11,"target":"room-0","seq":1,"command":1}"#)
            #expect(try reply(listener) == batch)
            // The outsider's first message after its snapshot is the answer to its own request.
            try outsider.send(text: #"{"type":"ping","id":3}"#)
            #expect(try reply(outsider).hasPrefix(#"{"type":"error","id":3,"code":"unsupported","#))
            try listener.send(text: #"{"type":"subscribe","id":4,"target":"room-9"}"#)
            #expect(try reply(listener).hasPrefix(#"{"type":"error","id":4,"code":"no_such_target","#))
            // A later subscriber's snapshot holds the room's values at its seq.
            try outsider.send(text: #"{"type":"subscribe","id":5,"target":"room-0"}"#)
            let snapshot = try reply(outsider)
            #expect(snapshot.hasPrefix(#"{"type":"snapshot","id":5,"target":"room-0","epoch":"e-floor","seq":1,"#), "\(snapshot)")
            #expect(snapshot.contains(#""values":{"client0":"~R0:0:5;"}"#), "\(snapshot)")
        }
    }
}
