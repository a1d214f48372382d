import Foundation
import RiveSyncJSON
import RiveSyncTestSupport

/// Runs one `protocol/conformance/*.json` case against a daemon (see
/// `protocol/conformance/README.md` for the format).
struct ConformanceRunner {
    let daemon: DaemonProcess
    private var clients: [String: TestClient] = [:]
    private var variables: [String: JSONValue] = [:]

    init(daemon: DaemonProcess) { self.daemon = daemon }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    mutating func run(_ steps: [JSONValue]) async throws {
        for (index, step) in steps.enumerated() {
            let name = step["client"]?.stringValue ?? "a"
            if clients[name] == nil { clients[name] = try TestClient(url: daemon.url) }
            let client = clients[name]!
            if let message = step["send"] {
                client.send(Self.substitute(message, variables))
            } else if let text = step["sendRaw"]?.stringValue {
                client.sendRaw(text)
            } else if let pattern = step["expect"] {
                let actual = try await client.next(what: "step \(index) (\(pattern.jsonText))")
                do {
                    try Self.match(pattern, actual, &variables, at: "$")
                } catch {
                    throw Failure(
                        description: "step \(index) client \(name): \(error)\n  expected \(pattern.jsonText)\n  received \(actual.jsonText)"
                    )
                }
            } else {
                throw Failure(description: "step \(index): unknown step \(step.jsonText)")
            }
        }
        for client in clients.values { client.close() }
    }

    /// `value` with every `"$name"` bound in `variables` replaced by its value.
    static func substitute(_ value: JSONValue, _ variables: [String: JSONValue]) -> JSONValue {
        switch value {
        case .string(let s) where s.hasPrefix("$") && s != "$any": return variables[String(s.dropFirst())] ?? value
        case .array(let items): return .array(items.map { substitute($0, variables) })
        case .object(let members): return .object(members.map { ($0.0, substitute($0.1, variables)) })
        default: return value
        }
    }

    /// `pattern` matches `actual` when every member of a pattern object is in the actual
    /// object and matches, arrays match element by element, `"$any"` matches anything, and
    /// `"$name"` binds (or must equal) a variable.
    static func match(_ pattern: JSONValue, _ actual: JSONValue, _ variables: inout [String: JSONValue], at path: String) throws {
        switch pattern {
        case .string(let s) where s == "$any":
            return
        case .string(let s) where s.hasPrefix("$"):
            let name = String(s.dropFirst())
            if let bound = variables[name] {
                guard bound == actual else { throw Failure(description: "\(path): \(s) is \(bound.jsonText), got \(actual.jsonText)") }
            } else {
                variables[name] = actual
            }
        case .object(let members):
            for (key, value) in members {
                guard let member = actual[key] else { throw Failure(description: "\(path).\(key): missing") }
                try match(value, member, &variables, at: "\(path).\(key)")
            }
        case .array(let items):
            guard let actualItems = actual.arrayValue, actualItems.count == items.count else {
                throw Failure(description: "\(path): expected \(items.count) elements, got \(actual.jsonText)")
            }
            for (i, item) in items.enumerated() { try match(item, actualItems[i], &variables, at: "\(path)[\(i)]") }
        default:
            guard pattern == actual else { throw Failure(description: "\(path): expected \(pattern.jsonText), got \(actual.jsonText)") }
        }
    }
}
