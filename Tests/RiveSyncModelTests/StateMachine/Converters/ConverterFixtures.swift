import Foundation
import RiveFile
import RiveSyncModel

/// The `.riv` files and state-machine traces in `../shared/fixtures/`, read in place. A
/// missing fixture throws, so the test that needs it fails.
enum ConverterFixtures {
    /// `<package root>/../shared/fixtures`.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures")

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    static func contents(_ relativePath: String) throws -> Data {
        let url = directory.appendingPathComponent(relativePath)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Missing(description: "fixture \(url.path) is missing (the ../shared checkout is absent)")
        }
        return data
    }

    /// The graph of `riv/<name>.riv`.
    static func graph(_ name: String) throws -> RiveGraph {
        try RiveFileReader.read([UInt8](contents("riv/\(name).riv"))).graph
    }

    /// The converters of `riv/<name>.riv`.
    static func converters(_ name: String) throws -> DataConverters {
        try DataConverters(graph: graph(name))
    }

    /// Every line of `sm-traces/<name>.jsonl`, as JSON objects.
    static func traceLines(_ name: String) throws -> [[String: Any]] {
        let text = String(decoding: try contents("sm-traces/\(name).jsonl"), as: UTF8.self)
        return try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw Missing(description: "sm-traces/\(name).jsonl has a line that is not an object")
            }
            return object
        }
    }

    /// The state lines of `sm-traces/<name>.jsonl`.
    static func traceStates(_ name: String) throws -> [[String: Any]] {
        try traceLines(name).filter { $0["kind"] as? String == "state" }
    }

    /// The varuints of an id-list payload.
    static func idList(_ bytes: [UInt8]) -> [UInt32] {
        var ids: [UInt32] = []
        var value: UInt32 = 0
        var shift: UInt32 = 0
        for byte in bytes {
            value |= UInt32(byte & 0x7F) << shift
            shift += 7
            if byte & 0x80 == 0 {
                ids.append(value)
                value = 0
                shift = 0
            }
        }
        return ids
    }
}

struct NoSuchConverter: Error, CustomStringConvertible {
    var description: String
}

extension DataConverters {
    /// The converter named `name`; throws if there is none.
    func named(_ name: String) throws -> DataConverter {
        guard let converter = converters.first(where: { $0.name == name }) else {
            throw NoSuchConverter(description: "no converter named \(name)")
        }
        return converter
    }
}

extension DataConverter {
    /// Converts each value with a fresh copy of the converter (as separate binds would).
    func converting(_ values: [PropertyValue]) -> [PropertyValue] {
        values.map { value in
            var copy = self
            return copy.convert(value)
        }
    }
}
