import Foundation
import RiveSyncModel

/// A `set`'s path work in the model, per set (issue 26 item 5): what the worker does with one
/// (resolve the parsed path to check it, queue it) and what applying it does (plan, apply),
/// with the resolution carried into the queued command (`QueuedCommand.resolved`, this
/// branch) against the same command without it, resolved again when it applies (main before
/// typed paths). Same binary, same run, same state.
///
/// Shapes: R rooms in one file runtime (`Room`: 8 string properties, each room a target with
/// its own main instance). `direct`: every room's set of `client<k>` is checked, then every
/// room advances (other rooms' advances change the store between a set's check and its apply,
/// as in the daemon). `nested`: one room's set of `seats/3/name` (a list item's property),
/// checked and applied at once.
func runSetPathBenchmark(roomCounts: [Int], passes: Int) throws {
    let schema = try FileSchema(
        jsonText: """
            {"viewModels": [
              {"name": "Seat", "properties": [{"name": "name", "type": "string"}]},
              {"name": "Room", "properties": [
                {"name": "client0", "type": "string"}, {"name": "client1", "type": "string"},
                {"name": "client2", "type": "string"}, {"name": "client3", "type": "string"},
                {"name": "client4", "type": "string"}, {"name": "client5", "type": "string"},
                {"name": "client6", "type": "string"}, {"name": "client7", "type": "string"},
                {"name": "seats", "type": "list"}]}],
             "artboards": [{"name": "Main", "viewModel": "Room", "stateMachines": ["room"]}]}
            """)
    print("\n== set path: check + queue + apply, per set (µs, best of \(passes) passes, the two alternating) ==")
    print("shape          rooms   resolved again   carried   saved")
    for rooms in roomCounts {
        var runtime = FileRuntime(schema: schema)
        for room in 0..<rooms {
            _ = try runtime.createStateMachine(named: "r\(room)", artboard: "Main", stateMachine: "room")
            for _ in 0..<4 {
                let seat = try runtime.createInstance(.blank(from: .name("Seat")))
                try runtime.enqueue(QueuedCommand(id: 0, command: .listAppend(path: "seats", instance: seat)), on: "r\(room)")
            }
            _ = try runtime.advance("r\(room)")
        }
        var number: UInt64 = 0
        /// One set as the worker checks and queues it; `carry`: keep its resolution.
        func check(_ path: ParsedPath, _ value: String, on target: String, carry: Bool) throws {
            let resolved = try runtime.resolve(path, inTarget: target)
            try runtime.validateSet(.string(value), at: resolved, path: path.text)
            number += 1
            let command = Command.set(path: path.text, value: .string(value))
            try runtime.enqueue(QueuedCommand(id: number, command: command, resolved: carry ? resolved : nil), on: target)
        }
        var direct: [Bool: [Double]] = [:]
        var nested: [Bool: [Double]] = [:]
        for pass in 0..<passes {
            for carry in pass % 2 == 0 ? [false, true] : [true, false] {
                let time = try seconds {
                    for room in 0..<rooms {
                        try check(ParsedPath("client\(room % 8)"), "p\(pass)\(carry)", on: "r\(room)", carry: carry)
                    }
                    for room in 0..<rooms { _ = try runtime.advance("r\(room)") }
                }
                direct[carry, default: []].append(time / Double(rooms) * 1e6)
                let nestedTime = try seconds {
                    for room in 0..<rooms {
                        try check(ParsedPath("seats/3/name"), "n\(pass)\(carry)\(room)", on: "r0", carry: carry)
                        _ = try runtime.advance("r0")
                    }
                }
                nested[carry, default: []].append(nestedTime / Double(rooms) * 1e6)
            }
        }
        for (shape, times) in [("direct", direct), ("nested", nested)] {
            let again = times[false]!.min()!
            let carried = times[true]!.min()!
            print(
                shape.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + String(format: "%6d %16.2f %9.2f %6.0f %%", rooms, again, carried, (1 - carried / again) * 100))
        }
    }
}
