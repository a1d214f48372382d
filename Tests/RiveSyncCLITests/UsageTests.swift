import XCTest

/// Command-line usage: help goes to stdout with status 0, usage errors are one line on stderr
/// with status 64.
final class UsageTests: XCTestCase {
    func testHelp() throws {
        let help = """
            usage: rivesync [GLOBAL OPTIONS] COMMAND [ARGUMENTS]

            commands:
              inspect      Print the view models, enums, artboards and assets of a .riv or JSON schema file.
              ls           List the files, view models, instances, globals, state machines and targets of a daemon.
              get          Print the value at PATH of a target as JSON.
              set          Set the value at PATH, read by the property's type (use -- before negative numbers).
              fire         Fire the trigger at PATH.
              watch        Print JSON lines of a target's batches, or of the values at PATHs as they change.
              list         Edit a list: add/insert an INSTANCE (#ID, ViewModel or ViewModel/Name), remove by index or #ID, swap.
              bind         Bind instances to slots: main=INSTANCE, Theme=INSTANCE (#ID, ViewModel, ViewModel/Name or @TARGET).
              input        Set a state machine input NAME to VALUE (true, false or a number), or fire it without one.
              bind-target  Write VALUE to the component side of data bind BIND, as an interactive component would.
              advance      Advance a manual target now: apply its queued commands, run its state machine.
              dump         Print a target's whole state (or the tree at --path) as JSON.
              delete       Delete a target; instances only it held are freed.
              create       Create a state machine target, binding SLOT=INSTANCE (main or a global; INSTANCE as for bind).
              publish      Publish an INSTANCE (#ID, ViewModel, ViewModel/Name or @TARGET) as target NAME.
              load         Load a .riv or JSON schema file into the daemon as file NAME.
              who          Print the members of a target's presence and their states.
              script       Run a scripted test client (set, fire, list, bind, advance, expect, wait, sleep, connect); FILE - reads stdin.
              completion   Print the completion script for a SHELL: bash, zsh or fish (the package installs them).

            global options (before or after the command):
              --url URL            daemon address (default $RIVESYNC_URL, else ws://127.0.0.1:7420)
              --token TOKEN        access token (default $RIVESYNC_TOKEN; visible in ps: prefer --token-file)
              --token-file FILE    read the access token from FILE
              --timeout SECONDS    longest wait for connecting and for the command (default 5; watch: see its help)
              --cacert FILE        trust the CA certificates in FILE (PEM) for wss://
              --insecure           check no certificate for wss:// (self-signed, any name): for tests only
              --json               print JSON instead of text, errors included

            exit status:
              0    success
              1    failure
              2    expectation_failed
              3    unreachable
              4    unauthorized
              5    forbidden
              6    not_found
              7    invalid_value
              8    rejected
              9    timeout
              64   usage

            Run 'rivesync COMMAND --help' for a command's arguments; 'rivesync --version' for the version.

            """
        XCTAssertEqual(try RivesyncProcess.run(["--help"]), .init(status: 0, stdout: help, stderr: ""))
        XCTAssertEqual(try RivesyncProcess.run(["help"]), .init(status: 0, stdout: help, stderr: ""))
        XCTAssertEqual(try RivesyncProcess.run(["help", "help"]), .init(status: 0, stdout: help, stderr: ""))
        XCTAssertEqual(try RivesyncProcess.run(["help", "inspect"]), try RivesyncProcess.run(["inspect", "--help"]), "a command's help")
        XCTAssertEqual(
            try RivesyncProcess.run(["inspect", "--help"]),
            .init(
                status: 0,
                stdout: """
                    usage: rivesync inspect FILE [--text] [--graph] [--json]

                    Print the view models, enums, artboards and assets of a .riv or JSON schema file.

                    options:
                      --text               print a human-readable tree instead of JSON
                      --graph              print the state machines: converters, events, layers, states, transitions, listeners, data binds
                      --json               print JSON (the default without --graph; with it, SCHEMA.md's state machine format)

                    """, stderr: ""))
    }

    /// A URL of another scheme (the inspector's http:// address, say) is a value the daemon
    /// cannot be reached by: exit 7 with the form it takes, before connecting.
    func testAURLThatIsNotWebSocketExits7() throws {
        let message = "rivesync: 'http://127.0.0.1:7420' is not a ws:// or wss:// URL (the daemon's address, such as ws://127.0.0.1:7420)\n"
        XCTAssertEqual(try RivesyncProcess.run(["ls", "--url", "http://127.0.0.1:7420"]), .init(status: 7, stdout: "", stderr: message))
    }

    func testUsageErrorsExit64WithOneLine() throws {
        let setUsage =
            "set TARGET PATH VALUE [PATH VALUE...] [--url URL] [--token TOKEN] [--token-file FILE] [--timeout SECONDS] [--cacert FILE] "
            + "[--insecure] [--json] [--advance]"
        let cases: [([String], String)] = [
            ([], "rivesync: missing command (see 'rivesync --help')\n"),
            (["frobnicate"], "rivesync: unknown command 'frobnicate' (see 'rivesync --help')\n"),
            (["lss"], "rivesync: unknown command 'lss' (did you mean 'ls'?) (see 'rivesync --help')\n"),
            (["help", "lss"], "rivesync: unknown command 'lss' (did you mean 'ls'?) (see 'rivesync --help')\n"),
            (["inpsect", "x"], "rivesync: unknown command 'inpsect' (did you mean 'inspect'?) (see 'rivesync --help')\n"),
            (["--urll", "ws://x", "ls"], "rivesync: unknown option '--urll' (did you mean '--url'?) (see 'rivesync --help')\n"),
            (
                ["inspect", "--txt", "a"],
                "rivesync: inspect: unknown option '--txt' (did you mean '--text'?) (usage: rivesync inspect FILE [--text] [--graph] [--json])\n"
            ),
            (["inspect"], "rivesync: inspect: missing FILE (usage: rivesync inspect FILE [--text] [--graph] [--json])\n"),
            (
                ["inspect", "a", "b"],
                "rivesync: inspect: unexpected argument 'b' (usage: rivesync inspect FILE [--text] [--graph] [--json])\n"
            ),
            (
                ["inspect", "--bogus", "a"],
                "rivesync: inspect: unknown option '--bogus' (usage: rivesync inspect FILE [--text] [--graph] [--json])\n"
            ),
            (
                ["inspect", "-x", "a"],
                "rivesync: inspect: unknown option '-x' (usage: rivesync inspect FILE [--text] [--graph] [--json])\n"
            ),
            (
                ["set", "character", "mood", "-1"],
                "rivesync: set: unknown option '-1' (a negative number? put -- before it) (usage: rivesync \(setUsage))\n"
            ),
            (
                ["inspect", "--text=yes", "a"],
                "rivesync: inspect: option '--text' takes no value (usage: rivesync inspect FILE [--text] [--graph] [--json])\n"
            ),
            (
                ["inspect", "--text", "--text", "a"],
                "rivesync: inspect: option '--text' given twice (usage: rivesync inspect FILE [--text] [--graph] [--json])\n"
            ),
        ]
        for (arguments, message) in cases {
            XCTAssertEqual(try RivesyncProcess.run(arguments), .init(status: 64, stdout: "", stderr: message), "\(arguments)")
        }
    }

    func testDoubleDashEndsOptions() throws {
        XCTAssertEqual(
            try RivesyncProcess.run(["inspect", "--", "--text"]),
            .init(status: 1, stdout: "", stderr: "rivesync: --text: no such file (ENOENT)\n"))
    }
}
