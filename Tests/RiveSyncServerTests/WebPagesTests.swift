import Foundation
import RiveSyncTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The inspector, the preview and rivesync.js on the daemon's port: on with `--demo`, off in a
/// configuration file unless enabled, always with the Content-Security-Policy.
@Suite struct WebPagesTests {
    static func get(_ port: Int, _ path: String) async throws -> (status: Int, headers: [AnyHashable: Any], body: String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http.allHeaderFields, String(decoding: data, as: UTF8.self))
    }

    @Test func demoServesThePagesAndTheClientWithAPolicy() async throws {
        try await withDaemon(["--demo"]) { daemon in
            let page = try await Self.get(daemon.port, "/")
            #expect(page.status == 200)
            #expect(page.body.contains(#"<script type="module" src="/inspector.js"></script>"#))
            let policy = try #require(page.headers["Content-Security-Policy"] as? String)
            #expect(policy.contains("script-src 'self'") && policy.contains("connect-src 'self'") && !policy.contains("unsafe"))
            let paths = [
                "/inspector.js", "/inspector-editors.js", "/inspector-history.js", "/inspector.css", "/preview.html", "/preview.js",
                "/preview.css",
                "/rivesync.js", "/replica.js", "/rive-adapter.js",
            ]
            for path in paths {
                let file = try await Self.get(daemon.port, path)
                #expect(file.status == 200, "\(path)")
                #expect(file.headers["Content-Security-Policy"] as? String == policy, "\(path)")
            }
            let client = try await Self.get(daemon.port, "/rivesync.js")
            #expect(client.headers["Content-Type"] as? String == "text/javascript; charset=utf-8")
            let source = try String(contentsOfFile: DaemonProcess.packageRoot + "/clients/js/rivesync.js", encoding: .utf8)
            #expect(client.body == source, "the embedded client is the repository's")
            #expect(try await Self.get(daemon.port, "/inspector-config.json").body == #"{"readOnly":false}"#)
        }
    }

    @Test func aConfigurationServesThemOnlyWhenEnabledAndReadOnlyByDefault() async throws {
        try await withDaemon(["--config", try DaemonProcess.writeConfiguration(#"{"auth": {"allowAnonymous": "loopback"}}"#)]) { off in
            #expect(try await Self.get(off.port, "/").status == 404)
            #expect(try await Self.get(off.port, "/rivesync.js").status == 404)
            try await withDaemon([
                "--config",
                try DaemonProcess.writeConfiguration(#"{"auth": {"allowAnonymous": "loopback"}, "inspector": {"enabled": true}}"#),
            ]) { (on: DaemonProcess) async throws in
                #expect(try await Self.get(on.port, "/").status == 200)
                #expect(try await Self.get(on.port, "/inspector-config.json").body == #"{"readOnly":true}"#)
            }
        }
    }
}
