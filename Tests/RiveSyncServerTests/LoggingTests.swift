import Foundation
import RiveSyncTestSupport
import Testing

/// One log sink: every stderr line is `level=… msg=…`, libwebsockets' own lines included
/// (`source=lws`), filtered by `--log-level`, with a syslog priority prefix when stderr is the
/// journal (`JOURNAL_STREAM`).
@Suite(.serialized) struct LoggingTests {
    static var logfmt: Regex<(Substring, Substring?, Substring, Substring, Substring?, Substring?, Substring?, Substring?)> {
        #/^(<[0-9]>)?level=(debug|info|warning|error) msg=("([^"\\]|\\.)*"|[^ "]+)( [a-zA-Z]+=("([^"\\]|\\.)*"|[^ "]*))*$/#
    }

    static func expectEveryLineIsLogfmt(_ daemon: DaemonProcess) {
        for line in daemon.stderrLines {
            #expect(line.wholeMatch(of: logfmt) != nil, "not a log line: \(line)")
        }
    }

    @Test func debugShowsConnectionsAndLibwebsocketsLines() async throws {
        try await withDaemon(["--demo", "--log-level", "debug"]) { daemon in
            let client = try await TestClient.connected(to: daemon)
            try await daemon.waitForLine(containing: #"level=debug msg="connection opened" session=1 remote=127.0.0.1"#)
            client.close()
            try await daemon.waitForLine(containing: #"level=debug msg="connection closed" session=1 remote=127.0.0.1"#)
            try await daemon.waitForLine(containing: #"msg="Creating Vhost 'default' port"#)
            #expect(
                daemon.stderrLines.contains { $0.hasPrefix(#"level=debug msg="LWS: 4.1"#) && $0.hasSuffix(" source=lws") },
                "lws notices at debug:\n\(daemon.stderr)")
            #expect(
                daemon.stderrLines.contains { $0.hasPrefix("level=debug msg=\"elops_io_ev") && $0.hasSuffix(" source=lws") },
                "the libev backend's notices at debug:\n\(daemon.stderr)")
            await daemon.stopped()
            Self.expectEveryLineIsLogfmt(daemon)
        }
    }

    @Test func infoHidesDebugAndErrorHidesInfo() async throws {
        try await withDaemon(["--demo"]) { info in
            let client = try await TestClient.connected(to: info)
            client.close()
            _ = try await TestClient.connected(to: info)
            await info.stopped()
            #expect(!info.stderr.contains("level=debug"), "\(info.stderr)")
            #expect(!info.stderr.contains("source=lws"), "lws notices are debug:\n\(info.stderr)")
            Self.expectEveryLineIsLogfmt(info)

            let quiet = try await DaemonProcess.start(["--demo", "--log-level", "error"])
            await quiet.stopped()
            // Only the announcement of the endpoint, which scripts read the port from.
            #expect(quiet.stderrLines.count == 1 && quiet.stderr.contains(#"level=info msg="listening on 127.0.0.1:"#), "\(quiet.stderr)")
        }
    }

    @Test func journaldPriorityPrefixesWhenStderrIsTheJournal() async throws {
        let journal = try await DaemonProcess.start(["--demo"]) { fd in
            var status = stat()
            fstat(fd, &status)
            return ["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino)"]
        }
        await journal.stopped()
        let lines = journal.stderrLines
        #expect(lines.contains { $0.hasPrefix(#"<6>level=info msg="listening on "#) }, "\(journal.stderr)")
        for line in lines {
            let priority = ["<7>level=debug ", "<6>level=info ", "<4>level=warning ", "<3>level=error "]
            #expect(priority.contains { line.hasPrefix($0) }, "no or wrong priority: \(line)")
        }
        Self.expectEveryLineIsLogfmt(journal)

        // JOURNAL_STREAM of another file (stderr redirected elsewhere): no prefix.
        let elsewhere = try await DaemonProcess.start(["--demo"], environment: ["JOURNAL_STREAM": "1:1"])
        await elsewhere.stopped()
        #expect(!elsewhere.stderrLines.contains { $0.hasPrefix("<") }, "\(elsewhere.stderr)")
    }
}
