import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

@testable import RiveSyncServer

/// Every case in `protocol/conformance/` in-process: the same steps fed straight to the
/// dispatcher (its core and the workers) of a demo daemon in this process, the replies read
/// from what it hands the transport. No sockets, no child process: milliseconds a case.
@Suite struct InProcessConformanceTests {
    @Test(arguments: ConformanceTests.cases)
    func conformanceCase(file: String) async throws {
        let text = try String(contentsOfFile: ConformanceTests.directory + "/" + file, encoding: .utf8)
        let steps = try #require(try JSONParser().parse(text)["steps"]?.arrayValue, "\(file): no steps")
        // A long hello timeout: a case starved for 10 s on a loaded machine must not be closed.
        var configuration = DaemonConfiguration.demo()
        configuration.limits.helloTimeoutSeconds = 300
        let daemon = try InProcessDaemon(configuration: configuration)
        var clients: [String: InProcessClient] = [:]
        var variables: [String: JSONValue] = [:]
        for (index, step) in steps.enumerated() {
            let name = step["client"]?.stringValue ?? "a"
            if clients[name] == nil { clients[name] = daemon.connect() }
            let client = clients[name]!
            if let message = step["send"] {
                client.send(ConformanceRunner.substitute(message, variables))
            } else if let text = step["sendRaw"]?.stringValue {
                client.sendRaw(Array(text.utf8))
            } else if let pattern = step["expect"] {
                let actual = try await client.next(what: "step \(index) of \(file) (\(pattern.jsonText))")
                do {
                    try ConformanceRunner.match(pattern, actual, &variables, at: "$")
                } catch {
                    Issue.record(
                        "\(file) step \(index) client \(name): \(error)\n  expected \(pattern.jsonText)\n  received \(actual.jsonText)")
                    return
                }
            } else {
                Issue.record("\(file) step \(index): unknown step \(step.jsonText)")
                return
            }
        }
    }
}
