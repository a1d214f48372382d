import Foundation

/// A `rivesync script` file: one step per line; blank lines and `#` comments are skipped.
///
/// ```
/// set TARGET PATH VALUE            set a value (VALUE is the rest of the line)
/// fire TARGET PATH                 fire a trigger
/// expect value TARGET PATH VALUE   the value now equals VALUE
/// expect trigger TARGET PATH N     the trigger fired N times since the script started
/// wait batch TARGET [N]            wait until N more batches (default 1) of TARGET arrived
///                                  since the script started or the last wait on TARGET
/// sleep DURATION                   pause (250ms, 2s)
/// ```
struct Script: Sendable {
    /// One step and where it came from.
    struct Line: Sendable {
        var number: Int
        var text: String
        var step: Step
    }

    /// What a line asks for.
    enum Step: Sendable {
        case set(target: String, path: String, value: String)
        case fire(target: String, path: String)
        case expectValue(target: String, path: String, value: String)
        case expectTrigger(target: String, path: String, fires: UInt64)
        case waitBatch(target: String, count: UInt64)
        case sleep(Duration)

        var target: String? {
            switch self {
            case .set(let target, _, _), .fire(let target, _), .expectValue(let target, _, _), .expectTrigger(let target, _, _),
                .waitBatch(let target, _):
                return target
            case .sleep: return nil
            }
        }
    }

    var lines: [Line] = []

    /// Parses a script; `name` prefixes error messages (`FILE:LINE: problem`).
    init(text: String, name: String) throws(CommandError) {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            do throws(ScriptSyntaxError) {
                lines.append(Line(number: index + 1, text: line, step: try Self.step(line)))
            } catch {
                throw .usage("\(name):\(index + 1): \(error.message)")
            }
        }
    }

    private struct ScriptSyntaxError: Error {
        var message: String
    }

    /// Splits off `count` words and returns them with the rest of the line.
    private static func words(_ line: String, _ count: Int) -> ([String], String) {
        var rest = Substring(line)
        var words: [String] = []
        while words.count < count {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let word = rest.prefix { $0 != " " && $0 != "\t" }
            guard !word.isEmpty else { break }
            words.append(String(word))
            rest = rest.dropFirst(word.count)
        }
        return (words, rest.trimmingCharacters(in: .whitespaces))
    }

    private static func step(_ line: String) throws(ScriptSyntaxError) -> Step {
        let (head, _) = words(line, 2)
        func exact(_ count: Int, _ usage: String) throws(ScriptSyntaxError) -> [String] {
            let (found, rest) = words(line, count)
            guard found.count == count, rest.isEmpty else { throw ScriptSyntaxError(message: "expected '\(usage)'") }
            return found
        }
        func withValue(_ count: Int, _ usage: String) throws(ScriptSyntaxError) -> ([String], String) {
            let (found, rest) = words(line, count)
            guard found.count == count, !rest.isEmpty else { throw ScriptSyntaxError(message: "expected '\(usage)'") }
            return (found, rest)
        }
        switch (head.first, head.count > 1 ? head[1] : nil) {
        case ("set", _):
            let (w, value) = try withValue(3, "set TARGET PATH VALUE")
            return .set(target: w[1], path: w[2], value: value)
        case ("fire", _):
            let w = try exact(3, "fire TARGET PATH")
            return .fire(target: w[1], path: w[2])
        case ("expect", "value"):
            let (w, value) = try withValue(4, "expect value TARGET PATH VALUE")
            return .expectValue(target: w[2], path: w[3], value: value)
        case ("expect", "trigger"):
            let w = try exact(5, "expect trigger TARGET PATH N")
            guard let fires = UInt64(w[4]) else { throw ScriptSyntaxError(message: "'\(w[4])' is not a number of fires") }
            return .expectTrigger(target: w[2], path: w[3], fires: fires)
        case ("wait", "batch"):
            let (found, rest) = words(line, 4)
            guard (3...4).contains(found.count), rest.isEmpty else { throw ScriptSyntaxError(message: "expected 'wait batch TARGET [N]'") }
            guard let count = found.count == 4 ? UInt64(found[3]) : 1, count > 0 else {
                throw ScriptSyntaxError(message: "'\(found[3])' is not a positive number of batches")
            }
            return .waitBatch(target: found[2], count: count)
        case ("sleep", _):
            let w = try exact(2, "sleep DURATION")
            guard let duration = duration(w[1]) else { throw ScriptSyntaxError(message: "'\(w[1])' is not a duration like 250ms or 2s") }
            return .sleep(duration)
        default:
            throw ScriptSyntaxError(message: "unknown step '\(line)' (set, fire, expect value, expect trigger, wait batch, sleep)")
        }
    }

    /// `250ms`, `2s`, `1.5s`.
    static func duration(_ text: String) -> Duration? {
        if text.hasSuffix("ms"), let n = Double(text.dropLast(2)), n >= 0 { return .milliseconds(n) }
        if text.hasSuffix("s"), let n = Double(text.dropLast()), n >= 0 { return .milliseconds(n * 1000) }
        return nil
    }
}
