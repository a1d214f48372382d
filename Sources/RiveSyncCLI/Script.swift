import Foundation

/// A `rivesync script` file: one step per line (`stepHelp` lists them, as `rivesync script
/// --help` prints them); blank lines and `#` comments are skipped. Commands on a manual target
/// do not wait for their acknowledgement; `advance` does.
struct Script: Sendable {
    /// One step and where it came from.
    struct Line: Sendable {
        var number: Int
        var text: String
        /// The connection it runs on ("" for the script's own).
        var connection: String
        var step: Step
    }

    /// An expected value: the text (read by the property's type) and a numeric tolerance.
    struct Expected: Sendable {
        var text: String
        var tolerance: Double?
    }

    /// What a line asks for.
    indirect enum Step: Sendable {
        case connect(name: String, url: String?)
        case set(target: String, path: String, value: String)
        case fire(target: String, path: String)
        case list(words: [String])
        case bind(target: String, words: [String])
        case advance(target: String, elapsed: Double)
        case expectValue(target: String, path: String, value: Expected)
        case expectTrigger(target: String, path: String, fires: UInt64)
        case expectError(code: String, step: Step)
        case waitBatch(target: String, count: UInt64)
        case waitValue(target: String, path: String, value: Expected, within: Duration?)
        case sleep(Duration)

        var target: String? {
            switch self {
            case .set(let target, _, _), .fire(let target, _), .expectValue(let target, _, _), .expectTrigger(let target, _, _),
                .waitBatch(let target, _), .bind(let target, _), .advance(let target, _), .waitValue(let target, _, _, _):
                return target
            case .list(let words): return words[1]
            case .expectError(_, let step): return step.target
            case .sleep, .connect: return nil
            }
        }
    }

    var lines: [Line] = []

    /// Parses a script; `name` prefixes error messages (`FILE:LINE: problem`).
    init(text: String, name: String) throws(CommandError) {
        var connections: Set<String> = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let text = line
            var connection = ""
            let (first, _) = Self.words(line, 1)
            if let word = first.first, word.hasSuffix(":"), word.count > 1 {
                connection = String(word.dropLast())
                line = String(line.dropFirst(word.count)).trimmingCharacters(in: .whitespaces)
            }
            do throws(ScriptSyntaxError) {
                guard connection.isEmpty || connections.contains(connection) else {
                    throw ScriptSyntaxError(message: "no connection '\(connection)' (declare it with 'connect \(connection)')")
                }
                let step = try Self.step(line)
                if case .connect(let declared, _) = step {
                    guard !connections.contains(declared) else {
                        throw ScriptSyntaxError(message: "connection '\(declared)' declared twice")
                    }
                    connections.insert(declared)
                }
                lines.append(Line(number: index + 1, text: text, connection: connection, step: step))
            } catch {
                throw .usage("\(name):\(index + 1): \(error.message)")
            }
        }
    }

    struct ScriptSyntaxError: Error {
        var message: String
    }

    /// Splits off `count` words and returns them with the rest of the line.
    static func words(_ line: String, _ count: Int) -> ([String], String) {
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

    /// The steps, for `rivesync script --help`.
    static let stepHelp = """
        steps (one a line; '#' starts a comment):
          set TARGET PATH VALUE                     set a value (VALUE is the rest of the line)
          fire TARGET PATH                          fire a trigger
          list add|insert|remove|swap TARGET PATH … edit a list, as 'rivesync list'
          bind TARGET SLOT=INSTANCE...              bind instances, as 'rivesync bind'
          advance TARGET [S]                        advance a manual target; waits for the commands
                                                    this connection queued on it, then runs its
                                                    state machine S seconds (default 0)
          expect value TARGET PATH VALUE [~TOL]     the value now equals VALUE (numbers: within TOL)
          expect trigger TARGET PATH N              fired N times since the script started
          expect error CODE STEP                    STEP fails with the protocol error CODE
          wait batch TARGET [N]                     N more batches of TARGET (default 1)
          wait value TARGET PATH VALUE [~TOL] [within DURATION]
                                                    wait until the value equals VALUE
          sleep DURATION                            pause (250ms, 2s)
          connect NAME [URL]                        open another connection
          NAME: STEP                                run STEP on connection NAME
        """

    static let stepNames =
        "set, fire, list, bind, advance, expect value, expect trigger, expect error, wait batch, wait value, sleep, connect"

    static func step(_ line: String) throws(ScriptSyntaxError) -> Step {
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
        func all() -> [String] { words(line, Int.max).0 }
        switch (head.first, head.count > 1 ? head[1] : nil) {
        case ("set", _):
            let (w, value) = try withValue(3, "set TARGET PATH VALUE")
            return .set(target: w[1], path: w[2], value: value)
        case ("fire", _):
            let w = try exact(3, "fire TARGET PATH")
            return .fire(target: w[1], path: w[2])
        case ("list", _):
            let w = Array(all().dropFirst())
            let expected = ["add": 4, "insert": 5, "remove": 4, "swap": 5]
            guard let action = w.first, let count = expected[action], w.count == count else {
                throw ScriptSyntaxError(message: "expected 'list \(ListCommand.usage.replacingOccurrences(of: " | list ", with: " | "))'")
            }
            return .list(words: w)
        case ("bind", _):
            let w = all()
            guard w.count >= 3, w.dropFirst(2).allSatisfy({ $0.contains("=") }) else {
                throw ScriptSyntaxError(message: "expected 'bind TARGET SLOT=INSTANCE...'")
            }
            return .bind(target: w[1], words: Array(w.dropFirst(2)))
        case ("advance", _):
            let w = all()
            guard (2...3).contains(w.count) else { throw ScriptSyntaxError(message: "expected 'advance TARGET [SECONDS]'") }
            guard w.count == 3 else { return .advance(target: w[1], elapsed: 0) }
            guard let elapsed = Double(w[2]), elapsed.isFinite, elapsed >= 0 else {
                throw ScriptSyntaxError(message: "'\(w[2])' is not a number of seconds ≥ 0")
            }
            return .advance(target: w[1], elapsed: elapsed)
        case ("expect", "value"):
            let (w, value) = try withValue(4, "expect value TARGET PATH VALUE [~TOLERANCE]")
            return .expectValue(target: w[2], path: w[3], value: try expected(value))
        case ("expect", "trigger"):
            let w = try exact(5, "expect trigger TARGET PATH N")
            guard let fires = UInt64(w[4]) else { throw ScriptSyntaxError(message: "'\(w[4])' is not a number of fires") }
            return .expectTrigger(target: w[2], path: w[3], fires: fires)
        case ("expect", "error"):
            let (w, rest) = try withValue(3, "expect error CODE STEP")
            let inner = try step(rest)
            switch inner {
            case .set, .fire, .list, .bind, .advance: return .expectError(code: w[2], step: inner)
            default: throw ScriptSyntaxError(message: "expect error takes set, fire, list, bind or advance")
            }
        case ("wait", "batch"):
            let (found, rest) = words(line, 4)
            guard (3...4).contains(found.count), rest.isEmpty else { throw ScriptSyntaxError(message: "expected 'wait batch TARGET [N]'") }
            guard let count = found.count == 4 ? UInt64(found[3]) : 1, count > 0 else {
                throw ScriptSyntaxError(message: "'\(found[3])' is not a positive number of batches")
            }
            return .waitBatch(target: found[2], count: count)
        case ("wait", "value"):
            let (w, rest) = try withValue(4, "wait value TARGET PATH VALUE [~TOLERANCE] [within DURATION]")
            var value = rest
            var within: Duration?
            let parts = value.split(separator: " ").map(String.init)
            if parts.count >= 3, parts[parts.count - 2] == "within" {
                guard let duration = duration(parts.last!) else {
                    throw ScriptSyntaxError(message: "'\(parts.last!)' is not a duration like 250ms or 2s")
                }
                within = duration
                value = parts.dropLast(2).joined(separator: " ")
            }
            return .waitValue(target: w[2], path: w[3], value: try expected(value), within: within)
        case ("sleep", _):
            let w = try exact(2, "sleep DURATION")
            guard let duration = duration(w[1]) else { throw ScriptSyntaxError(message: "'\(w[1])' is not a duration like 250ms or 2s") }
            return .sleep(duration)
        case ("connect", _):
            let w = all()
            guard (2...3).contains(w.count), !w[1].hasSuffix(":") else { throw ScriptSyntaxError(message: "expected 'connect NAME [URL]'") }
            return .connect(name: w[1], url: w.count == 3 ? w[2] : nil)
        default:
            throw ScriptSyntaxError(message: "unknown step '\(line)' (\(stepNames))")
        }
    }

    /// `VALUE` or `VALUE ~TOLERANCE`.
    static func expected(_ text: String) throws(ScriptSyntaxError) -> Expected {
        let parts = text.split(separator: " ").map(String.init)
        guard parts.count >= 2, let last = parts.last, last.hasPrefix("~") else { return Expected(text: text, tolerance: nil) }
        guard let tolerance = Double(last.dropFirst()), tolerance >= 0 else {
            throw ScriptSyntaxError(message: "'\(last)' is not a tolerance like ~0.01")
        }
        return Expected(text: parts.dropLast().joined(separator: " "), tolerance: tolerance)
    }

    /// `250ms`, `2s`, `1.5s`.
    static func duration(_ text: String) -> Duration? {
        if text.hasSuffix("ms"), let n = Double(text.dropLast(2)), n >= 0 { return .milliseconds(n) }
        if text.hasSuffix("s"), let n = Double(text.dropLast()), n >= 0 { return .milliseconds(n * 1000) }
        return nil
    }
}
