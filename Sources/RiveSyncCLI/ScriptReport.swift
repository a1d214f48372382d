import Foundation
import RiveSyncJSON

/// Prints a script's results as text, JSON lines, TAP version 13 or JUnit XML.
struct ScriptReport {
    enum Format: String {
        case text, json, tap, junit
    }

    let format: Format
    let name: String
    let lines: [Script.Line]
    let output: Output
    private var cases: [String] = []
    private var failures = 0
    private var skippedCount = 0

    init(format: Format, name: String, lines: [Script.Line], output: Output) {
        self.format = format
        self.name = name
        self.lines = lines
        self.output = output
        if format == .tap { output.line("TAP version 13\n1..\(lines.count)") }
    }

    mutating func passed(_ line: Script.Line, after duration: Duration) {
        switch format {
        case .text: output.line("ok \(line.number): \(line.text)")
        case .json: output.line(json(line, "ok", duration).jsonText)
        case .tap: output.line("ok \(index(line)) - \(line.number): \(line.text)")
        case .junit:
            cases.append(
                #"  <testcase classname="\#(xml(name))" name="\#(xml("\(line.number): \(line.text)"))" time="\#(seconds(duration))"/>"#)
        }
    }

    mutating func failed(_ line: Script.Line, _ error: CommandError, after duration: Duration) {
        failures += 1
        let skipped = lines.drop { $0.number != line.number }.dropFirst()
        switch format {
        case .text: break
        case .json:
            let details: [(String, JSONValue)] = [
                ("code", .string(error.code)), ("exit", .number(Double(error.exitCode.rawValue))), ("message", .string(error.message)),
            ]
            output.line(json(line, "failed", duration, details).jsonText)
            for other in skipped { output.line(json(other, "skipped", nil).jsonText) }
            output.line(
                JSONValue.object([
                    ("passed", .number(Double(lines.count - skipped.count - 1))), ("failed", 1),
                    ("skipped", .number(Double(skipped.count))),
                ]).jsonText)
        case .tap:
            output.line("not ok \(index(line)) - \(line.number): \(line.text)")
            output.line("  ---\n  code: \(error.code)\n  exit: \(error.exitCode.rawValue)")
            output.line("  message: |\n" + error.message.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n  ...")
            for other in skipped { output.line("ok \(index(other)) - \(other.number): \(other.text) # SKIP after a failure") }
        case .junit:
            cases.append(
                #"  <testcase classname="\#(xml(name))" name="\#(xml("\(line.number): \(line.text)"))" time="\#(seconds(duration))">"#
                    + #"<failure type="\#(error.code)" message="\#(xml(error.message.split(separator: "\n").first.map(String.init) ?? ""))">"#
                    + xml(error.message) + "</failure></testcase>")
            skippedCount = skipped.count
            for other in skipped {
                cases.append(
                    #"  <testcase classname="\#(xml(name))" name="\#(xml("\(other.number): \(other.text)"))"><skipped/></testcase>"#)
            }
            finished()
        }
    }

    /// Ends the report (the summary line, or the JUnit document).
    func finished() {
        switch format {
        case .text: if failures == 0 { output.line("passed \(lines.count) steps") }
        case .json:
            if failures == 0 {
                output.line(JSONValue.object([("passed", .number(Double(lines.count))), ("failed", 0), ("skipped", 0)]).jsonText)
            }
        case .tap: break
        case .junit:
            output.line(#"<?xml version="1.0" encoding="UTF-8"?>"#)
            output.line(
                #"<testsuite name="\#(xml(name))" tests="\#(lines.count)" failures="\#(failures)" skipped="\#(skippedCount)">"#
            )
            cases.forEach(output.line)
            output.line("</testsuite>")
        }
    }

    /// `{"line":3,"step":"…","status":"ok","seconds":0.002}` and the error's members.
    private func json(_ line: Script.Line, _ status: String, _ duration: Duration?, _ more: [(String, JSONValue)] = []) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("line", .number(Double(line.number))), ("step", .string(line.text)), ("status", .string(status)),
        ]
        if let duration { members.append(("seconds", .number(Double(seconds(duration)) ?? 0))) }
        return .object(members + more)
    }

    private func index(_ line: Script.Line) -> Int { (lines.firstIndex { $0.number == line.number } ?? 0) + 1 }

    private func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        return String(format: "%.3f", Double(whole) + Double(attoseconds) / 1e18)
    }

    private func xml(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            default: out.append(character)
            }
        }
        return out
    }
}
