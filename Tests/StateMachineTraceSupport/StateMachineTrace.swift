import Foundation
import RiveSyncJSON

/// One golden trace of `../shared/fixtures/sm-traces/` (its README gives the format): what
/// Rive's own runtime did for a script of writes, fires and timed advances on a `.riv` file.
/// The one reader of the traces for the in-process and the daemon trace tests.
public struct StateMachineTrace: Sendable {
    /// The package's root, from this file's place in it.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    public static let directory = packageRoot + "/../shared/fixtures/sm-traces"
    public static let fixtures = packageRoot + "/../shared/fixtures"

    /// The traces' names (their files without `.jsonl`), sorted; empty when the directory is
    /// missing (the tests that count them then fail).
    public static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(6)) }.sorted()
    }()

    public var name: String
    /// The script line: file, instance, steps, beforeBind, initialAdvance, …
    public var script: JSONValue
    /// The header line: artboard, stateMachine, viewModel, schema (path → type), enumValues, globals.
    public var header: JSONValue
    /// The state lines, in order: `step` -1 after the initial advance, then one per advance.
    public var states: [JSONValue]

    public init(named name: String) throws {
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

    /// A trace, or a step of one, that the runners cannot read.
    public struct Malformed: Error, CustomStringConvertible {
        public var trace: String
        public var reason: String
        public var description: String { "trace \(trace): \(reason)" }

        public init(trace: String, reason: String) {
            self.trace = trace
            self.reason = reason
        }
    }

    public var rivPath: String { Self.fixtures + "/" + (script["file"]?.stringValue ?? "") }
    public var steps: [JSONValue] { script["steps"]?.arrayValue ?? [] }
    public var beforeBind: [JSONValue] { script["beforeBind"]?.arrayValue ?? [] }
    public var initialAdvance: Double { script["initialAdvance"]?.numberValue ?? 0 }
    /// The seconds of each advance Rive ran before binding an instance (`advanceBeforeBind`: a
    /// number or an array of them; nil: it bound first).
    public var advanceBeforeBind: [Double]? {
        guard let value = script["advanceBeforeBind"] else { return nil }
        return value.numberValue.map { [$0] } ?? value.arrayValue?.compactMap(\.numberValue)
    }

    /// The traces a document lists in its sections whose heading `isListing` accepts (given
    /// lower-cased): every trace name in backquotes there. nil: no such section (or no file).
    public static func listed(in document: String, isListing: (String) -> Bool) -> Set<String>? {
        guard let text = try? String(contentsOfFile: document, encoding: .utf8) else { return nil }
        var inSection = false
        var found = false
        var listed: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                inSection = isListing(line.lowercased())
                found = found || inSection
                continue
            }
            guard inSection else { continue }
            for (index, part) in line.split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
                if names.contains(String(part)) { listed.insert(String(part)) }
            }
        }
        return found ? listed : nil
    }
}
