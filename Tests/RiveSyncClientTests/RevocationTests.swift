import Foundation
import RiveSyncTestSupport
import XCTest

@testable import RiveSyncClient

/// A token reload that no longer lets a worker read a target ends its streams with
/// `WorkerError.forbidden` instead of leaving them silent.
final class RevocationTests: ClientTestCase {
    static let token = "reader-token-0123456789"

    static func tokens(paths: [String]?) -> String {
        let scope =
            paths.map { #"{"allow": ["read"], "target": "character", "paths": [\#($0.map { "\"\($0)\"" }.joined(separator: ","))]}"# }
            ?? #"{"allow": ["read"], "target": "character"}"#
        return #"{"tokens": [{"name": "reader", "token": "\#(token)", "scopes": [\#(scope)]}]}"#
    }

    func testNarrowedScopesEndTheStreamsTheyNoLongerAllow() async throws {
        let demo = DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json"
        let configuration = """
            {"files": [{"name": "demo", "path": "\(demo)"}],
             "instances": [{"name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"}],
             "stateMachines": [{"name": "character", "file": "demo", "artboard": "Character", "globals": {"Theme": "theme"}}],
             "auth": {"tokensFile": "tokens.json"}}
            """
        let path = try DaemonProcess.writeConfiguration(configuration, files: ["tokens.json": Self.tokens(paths: nil)])
        process = try DaemonProcess(["--config", path])
        let worker = try await Worker(url: process.url, token: Self.token, clientName: name)
        let main = try await worker.stateMachine(named: "character").mainInstance()
        let moods = main.valueStream(of: NumberProperty(path: "mood"), includingCurrent: true)
        let (seen, sink) = AsyncStream.makeStream(of: Float.self)
        let reader = Task {
            for try await value in moods { sink.yield(value) }
        }
        let firstValue = Task { () -> Float? in
            for await value in seen { return value }
            return nil
        }
        let current = try await within { await firstValue.value }
        XCTAssertEqual(current, 0, "the stream is listening before the reload")

        let tokensPath = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("tokens.json")
        try Data(Self.tokens(paths: ["mood"]).utf8).write(to: tokensPath)
        kill(process.pid, SIGHUP)
        do {
            try await within { try await reader.value }
            XCTFail("the stream went on after the reload narrowed the token")
        } catch WorkerError.forbidden(let message) {
            XCTAssertTrue(message.contains("character"), message)
        }
        await worker.close()
    }
}
