import Foundation
import RiveSyncTestSupport
import Testing

/// bench/run.py compares core counts in one run (`--server-cores 0/0,1`, issue 23): every
/// repetition runs the daemon on each core set in turn, with a transport thread and a worker
/// per core, and results.md sets each core set's CPU per set beside the first's; bench-load runs
/// where `--generator-cores` says.
struct BenchCoresTests {
    @Test func eachRepetitionRunsTheDaemonOnEveryCoreSetAndComparesThem() async throws {
        let run = try await RoomsRun.run([
            "--duration", "1", "--reps", "2", "--rooms", "3", "--client-rate", "5", "--server-cores", "0/0,1",
            "--generator-cores", "0,1",
        ])
        defer { run.remove() }
        let (out, result) = (run.out, run.result)
        #expect(result.status == 0, "\(result.output)")
        // runs.csv through Python's own reader: a core list such as "0,1" is a quoted field.
        let reader = "import csv, json, sys; print(json.dumps(list(csv.DictReader(open(sys.argv[1])))))"
        let json = try ChildProcess.run(
            "/usr/bin/python3", ["-c", reader, out.appendingPathComponent("runs.csv").path], seconds: 30)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: String]]
        let rows = try #require(parsed, "\(json.output)")
        let runs: [[String]] = rows.map { row in ["rep", "system", "cores", "workers"].map { row[$0] ?? "?" } }
        #expect(
            runs == [
                ["1", "rooms-floor", "0", "1"], ["1", "rivesync-rooms", "0", "1"], ["1", "rivesync-rooms", "0,1", "2"],
                ["2", "rooms-floor", "0", "1"], ["2", "rivesync-rooms", "0", "1"], ["2", "rivesync-rooms", "0,1", "2"],
            ], "\(rows)")
        for row in rows {
            #expect(row["errors", default: "?"].isEmpty, "\(row)")
            #expect(row["ready"] == "24" && Int(row["delivered_per_s"] ?? "") ?? 0 > 0, "\(row)")
        }
        // Two transport threads: the listening thread placed each client on its room's thread.
        #expect(rows.filter { $0["cores"] == "0,1" }.allSatisfy { $0["steered"] == "24" }, "\(rows)")
        #expect(rows.filter { $0["cores"] == "0" && $0["system"] != "rooms-floor" }.allSatisfy { $0["steered"] == "0" }, "\(rows)")
        let markdown = try run.markdown()
        #expect(markdown.contains("| `test` on 0 | 1 | 60 | 3 | 5 |"), "\(markdown)")
        #expect(markdown.contains("| `test` on 0,1 | 2 | 60 | 3 | 5 |"), "\(markdown)")
        #expect(markdown.contains("## Cores: CPU per set on each core set against the first"), "\(markdown)")
        #expect(markdown.contains("bench-load on core(s) 0,1"), "\(markdown)")
        let comparison = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| `test` | 3 | 60 | 0,1 | ") })
        #expect(comparison.hasSuffix(" of 2 |"), "both repetitions compared: \(comparison)")
        // Rendered again from runs.csv (where core list 0 reads back as a number), the same.
        let rerendered = try ChildProcess.run(
            "/usr/bin/python3", [BenchHarnessTests.runPy, "--rerender", "--out", out.path], seconds: 60)
        #expect(rerendered.status == 0, "\(rerendered.output)")
        let again = try run.markdown()
        #expect(again.contains(String(comparison)), "\(again)")
    }
}
