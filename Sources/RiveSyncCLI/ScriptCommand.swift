import Foundation
import RiveSyncClient

/// `rivesync script FILE|- [--timeout SECONDS] [--format text|json|tap|junit]`: runs a scripted
/// test client (see `Script`). Text output prints `ok LINE: STEP` per step and `passed N
/// steps`; `json` (the default with `--json`) a JSON line per step and a summary; `tap` prints TAP version 13, `junit` one JUnit XML test suite (a test case per
/// step). The first failing step ends the run: an unmet expectation exits 2, other errors
/// with their own status (see `rivesync --help`).
enum ScriptCommand {
    static let spec = CommandSpec(
        name: "script",
        summary: "Run a scripted test client (set, fire, list, bind, advance, expect, wait, sleep, connect); FILE - reads stdin.",
        details: Script.stepHelp,
        positionals: ["FILE"],
        options: RemoteCommand.options.filter { $0.name != "timeout" } + [
            .init("timeout", valueName: "SECONDS", help: "longest wait for connecting and for each step (default 10)"),
            .init("format", valueName: "FORMAT", help: "text (default; json with --json), json (lines), tap or junit"),
        ]
    ) { (arguments, console) throws(CommandError) in
        let path = arguments.positionals[0]
        let data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : Data(try LocalFile.bytes(path))
        let name = path == "-" ? "stdin" : path
        let script = try Script(text: String(decoding: data, as: UTF8.self), name: name)
        let format = arguments.value("format") ?? (arguments.has("json") ? "json" : "text")
        guard let report = ScriptReport.Format(rawValue: format) else {
            throw .invalidValue("script: --format is text, json, tap or junit, not '\(format)'")
        }
        let timeout = try RemoteCommand.timeout(arguments) ?? 10
        let url = RemoteCommand.url(arguments)
        let token = try RemoteCommand.token(arguments)
        let transport = try RemoteCommand.transport(arguments)
        try RemoteCommand.run(arguments, &console, connectLimit: timeout, workLimit: nil) { worker, output in
            var runner = try await ScriptRunner(
                script: script, name: name, worker: worker, url: url, token: token, transport: transport, timeout: timeout)
            var results = ScriptReport(format: report, name: name, lines: script.lines, output: output)
            for line in script.lines {
                let started = ContinuousClock.now
                do {
                    try await runner.run(line)
                } catch {
                    let failure = ErrorCodes.commandError(error)
                    results.failed(line, failure, after: ContinuousClock.now - started)
                    await runner.close()
                    throw failure
                }
                results.passed(line, after: ContinuousClock.now - started)
            }
            try await runner.finish()
            results.finished()
        }
    }
}
