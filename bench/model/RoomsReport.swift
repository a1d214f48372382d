import Foundation

/// Prints the rooms state machine benchmark: µs per advance (p50 / mean) for each case, the
/// state machine against the no-graph baseline measured in the same run.
func runRoomsBenchmark(roomCounts: [Int], passes: Int) throws {
    print("state machine per room: µs per advance (p50 / mean), \(passes) passes, baseline = same view model, no graph")
    print(
        "| file | rooms | variant | (a) settled, empty | (b) one write + SM | (c) elapsed 1/60 | (c) unsettled"
            + " | settled after create | KB/room |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for fixture in [RoomsFixture.listeners, .enumTransitions] {
        for rooms in roomCounts {
            let bench = RoomsStateMachineBenchmark(fixture: fixture, rooms: rooms, passes: passes)
            for variant in RoomsStateMachineBenchmark.Variant.allCases {
                let result = try bench.run(variant)
                let memory = result.bytesPerRoom.map { String(format: "%.1f", $0 / 1024) } ?? "n/a"
                let cells = [
                    "`\(fixture.file)` \(fixture.artboard)", "\(rooms)", variant.rawValue,
                    figure(result.settledEmpty), figure(result.write), figure(result.running),
                    "\(result.runningUnsettled)/\(result.running.count)", "\(result.settledAfterCreate)/\(rooms)", memory,
                ]
                print("| " + cells.joined(separator: " | ") + " |")
            }
        }
        print("  writes on `\(fixture.file)`: \(fixture.writeDescription)")
    }
}

/// "p50 / mean" in µs, or "n/a" with no samples.
private func figure(_ nanoseconds: [Double]) -> String {
    guard !nanoseconds.isEmpty else { return "n/a" }
    let mean = nanoseconds.reduce(0, +) / Double(nanoseconds.count)
    return String(format: "%.2f / %.2f", median(nanoseconds) / 1000, mean / 1000)
}
