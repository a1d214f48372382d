import RiveSyncClient

/// What every daemon command shares: the global options `--url`, `--token` and `--json`,
/// connecting, running the asynchronous work and turning client errors into one-line messages.
enum RemoteCommand {
    /// The global options, added to each daemon command's own.
    static let options: [CommandSpec.Option] = [
        .init("url", valueName: "URL", help: "daemon address (default \(Worker.defaultURL))"),
        .init("token", valueName: "TOKEN", help: "access token"),
        .init("json", help: "print JSON instead of text"),
    ]

    /// Connects to the daemon, runs `body` and relays its output to `console`.
    /// - Parameter reconnect: keep the connection through drops (for long-running commands).
    static func run(
        _ arguments: ParsedArguments, _ console: inout any Console, reconnect: Bool = false,
        _ body: @escaping @Sendable (Worker, Output) async throws -> Void
    ) throws(CommandError) {
        let pump = OutputPump()
        let url = arguments.value("url") ?? Worker.defaultURL
        let token = arguments.value("token")
        let json = arguments.has("json")
        Task {
            do {
                let worker = try await Worker(url: url, token: token, clientName: "rivesync", reconnect: reconnect)
                do {
                    try await body(worker, Output(pump: pump, json: json))
                    await worker.close()
                } catch {
                    await worker.close()
                    throw error
                }
                pump.finish(.success(()))
            } catch let error as CommandError {
                pump.finish(.failure(error))
            } catch {
                pump.finish(.failure(.failure(ErrorText.describe(error))))
            }
        }
        try pump.drain(into: &console)
    }
}

/// Where asynchronous command code writes.
struct Output: Sendable {
    let pump: OutputPump
    /// Whether `--json` was given.
    let json: Bool

    /// Writes one line to standard output.
    func line(_ text: String) { pump.write(text + "\n") }
}
