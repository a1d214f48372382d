import Foundation
import RiveSyncJSON

/// One golden trace of `../shared/fixtures/sm-traces/` (its README gives the format): what
/// Rive's own runtime did for a script of writes, fires and timed advances on a `.riv` file.
struct StateMachineTrace: Sendable {
    /// `<package root>/..`, from this file's place in the package.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let directory = packageRoot + "/../shared/fixtures/sm-traces"
    static let fixtures = packageRoot + "/../shared/fixtures"

    /// The traces' names (their files without `.jsonl`), sorted; empty when the directory is
    /// missing (`theTracesAreThere` then fails).
    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(6)) }.sorted()
    }()

    var name: String
    /// The script line: file, instance, steps, beforeBind, initialAdvance, …
    var script: JSONValue
    /// The header line: artboard, stateMachine, viewModel, schema (path → type), enumValues, globals.
    var header: JSONValue
    /// The state lines, in order: `step` -1 after the initial advance, then one per advance.
    var states: [JSONValue]

    init(named name: String) throws {
        self.name = name
        let text = try String(contentsOfFile: Self.directory + "/" + name + ".jsonl", encoding: .utf8)
        var script: JSONValue?
        var header: JSONValue?
        var states: [JSONValue] = []
        for line in text.split(separator: "\n") where !line.isEmpty {
            let json = try JSONParser(maxDepth: 512).parse(Array(line.utf8))
            switch json["kind"]?.stringValue {
            case "script": script = json
            case "header": header = json
            case "state": states.append(json)
            default: throw Malformed(trace: name, reason: "a line of kind \(json["kind"]?.jsonText ?? "none")")
            }
        }
        guard let script, let header, !states.isEmpty else { throw Malformed(trace: name, reason: "no script, header or state line") }
        self.script = script
        self.header = header
        self.states = states
    }

    struct Malformed: Error, CustomStringConvertible {
        var trace: String
        var reason: String
        var description: String { "trace \(trace): \(reason)" }
    }

    var rivPath: String { Self.fixtures + "/" + (script["file"]?.stringValue ?? "") }
    var steps: [JSONValue] { script["steps"]?.arrayValue ?? [] }
    var beforeBind: [JSONValue] { script["beforeBind"]?.arrayValue ?? [] }
    var initialAdvance: Double { script["initialAdvance"]?.numberValue ?? 0 }
    /// The seconds of each advance Rive ran before binding an instance (nil: it bound first).
    var advanceBeforeBind: [Double]? { script["advanceBeforeBind"]?.arrayValue?.compactMap(\.numberValue) }
}
