import RiveSyncJSON
import RiveSyncToolSupport

/// A configuration file or flag that cannot be used. Each reason starts with the key path it
/// is about (`stateMachines[0].artboard: no artboard 'Charactr'`), or with the flag.
public enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One key or flag, with a one-line reason that starts with its key path.
    case invalid(String)
    /// A file named by the configuration or a flag cannot be read or parsed.
    case unreadable(path: String, reason: String)
    /// Everything wrong with one configuration, in file order (`--check-config` lists them all).
    case several([ConfigurationError])

    /// One line per problem.
    public var description: String { lines.joined(separator: "\n") }

    /// One entry per problem, `.several` flattened.
    public var lines: [String] {
        switch self {
        case .invalid(let reason): return [reason]
        case .unreadable(let path, let reason): return ["\(path): \(reason)"]
        case .several(let all): return all.flatMap(\.lines)
        }
    }
}

extension ConfigurationError {
    /// Reads the JSON file at `path` (or its `bytes`, already read) with `parser`, comment
    /// lines blanked first when `comments` (ConfigurationComments): a file that cannot be read
    /// is `path: no such file (ENOENT)`, one that is not JSON `path:3:42: not JSON: unexpected
    /// character`.
    static func readJSON(
        _ path: String, bytes: [UInt8]? = nil, parser: JSONParser = JSONParser(), comments: Bool = false
    ) throws(ConfigurationError) -> JSONValue {
        let content: [UInt8]
        if let bytes {
            content = bytes
        } else {
            do { content = try FileContents.bytes(atPath: path) } catch { throw .unreadable(path: path, reason: "\(error)") }
        }
        do { return try parser.parse(comments ? ConfigurationComments.blanked(content) : content) } catch {
            guard let (line, column) = error.location(in: content) else { throw .unreadable(path: path, reason: "not JSON: \(error)") }
            guard case .syntax(_, let reason) = error else { throw .unreadable(path: path, reason: "not JSON: \(error)") }
            throw .unreadable(path: "\(path):\(line):\(column)", reason: "not JSON: \(reason)")
        }
    }
}

/// Collects the problems of a configuration instead of stopping at the first, so one run of
/// `--check-config` names every key that is wrong.
struct ConfigurationProblems {
    private(set) var all: [ConfigurationError] = []

    /// Runs `body`, keeping its error.
    mutating func check(_ body: () throws(ConfigurationError) -> Void) {
        do { try body() } catch { add(error) }
    }

    mutating func add(_ error: ConfigurationError) {
        if case .several(let inner) = error { all += inner } else { all.append(error) }
    }

    /// Refuses the members of `json` that `ConfigurationKeys` does not list for `section`, and
    /// a `json` that is not an object.
    mutating func refuseUnknownKeys(of json: JSONValue, section: String, here: String) {
        guard let known = ConfigurationKeys.sections[section] else { return }
        guard let members = json.objectValue else { return add(.invalid("\(here.isEmpty ? "configuration" : here): expected an object")) }
        for (key, _) in members where !known.contains(key) {
            let guess = NearestName.suggestion(for: key, among: known).map { "; did you mean '\($0)'?" } ?? ""
            add(.invalid("\(here.isEmpty ? key : "\(here).\(key)"): unknown key\(guess) (one of \(known.joined(separator: ", ")))"))
        }
    }

    /// Throws everything collected, if anything.
    func throwIfAny() throws(ConfigurationError) {
        if all.count == 1 { throw all[0] }
        if !all.isEmpty { throw .several(all) }
    }
}
