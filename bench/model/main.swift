import Foundation

// bench-model [core | rooms | paths] [--rooms 100,1000] [--passes N]: the view-model core
// benchmark and the state machine's cost per advance on the rooms shape (both by default), and a
// set's path work with its resolution carried or resolved again (`paths`).
func option(_ name: String, in arguments: inout [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    let value = arguments[index + 1]
    arguments.removeSubrange(index...index + 1)
    return value
}
var arguments = Array(CommandLine.arguments.dropFirst())
let roomCounts = (option("--rooms", in: &arguments) ?? "100,1000").split(separator: ",").compactMap { Int($0) }
let passes = option("--passes", in: &arguments).flatMap { Int($0) } ?? 5
let sections = arguments.isEmpty ? ["core", "rooms"] : arguments
if sections.contains("core") { try runCoreBenchmark() }
if sections.contains("rooms") { try runRoomsBenchmark(roomCounts: roomCounts, passes: passes) }
if sections.contains("paths") { try runSetPathBenchmark(roomCounts: roomCounts, passes: passes) }
