import Foundation
import RiveSyncClient
import RiveSyncWebSocket

/// What every daemon command shares: the global options, connecting within `--timeout`,
/// running the asynchronous work, and turning client errors into one-line messages with their
/// exit status.
enum RemoteCommand {
    /// The global options, added to each daemon command's own; they may also come before the
    /// command name.
    static let options: [CommandSpec.Option] = [
        .init("url", valueName: "URL", help: "daemon address (default $RIVESYNC_URL, else \(Worker.defaultURL))"),
        .init("token", valueName: "TOKEN", help: "access token (default $RIVESYNC_TOKEN; visible in ps: prefer --token-file)"),
        .init("token-file", valueName: "FILE", help: "read the access token from FILE"),
        .init("timeout", valueName: "SECONDS", help: "longest wait for connecting and for the command (default 5; watch: see its help)"),
        .init("cacert", valueName: "FILE", help: "trust the CA certificates in FILE (PEM) for wss://"),
        .init("insecure", help: "check no certificate for wss:// (self-signed, any name): for tests only"),
        .init("json", help: "print JSON instead of text, errors included"),
    ]

    /// The global options with another help line for `--timeout`, for the commands whose
    /// `--timeout` means something else (how long `watch` watches).
    static func options(timeoutHelp: String) -> [CommandSpec.Option] {
        options.map { $0.name == "timeout" ? .init("timeout", valueName: "SECONDS", help: timeoutHelp) : $0 }
    }

    /// The default of `--timeout`.
    static let defaultTimeout = 5.0

    /// `--timeout`, if given.
    static func timeout(_ arguments: ParsedArguments) throws(CommandError) -> Double? {
        guard let text = arguments.value("timeout") else { return nil }
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
            throw .invalidValue("--timeout needs a positive number of seconds, not '\(text)'")
        }
        return seconds
    }

    /// The token from `--token`, `--token-file` or `$RIVESYNC_TOKEN`.
    static func token(_ arguments: ParsedArguments) throws(CommandError) -> String? {
        if arguments.has("token"), arguments.has("token-file") { throw .usage("give --token or --token-file, not both") }
        if let path = arguments.value("token-file") {
            let token = String(decoding: try LocalFile.bytes(path), as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
            guard !token.isEmpty else { throw .failure("\(path): no token in the file") }
            return token
        }
        return arguments.value("token") ?? ProcessInfo.processInfo.environment["RIVESYNC_TOKEN"]
    }

    /// Makes `--cacert FILE` the certificates `wss://` connections of this process trust
    /// (OpenSSL's `SSL_CERT_FILE`, read when the first connection's TLS context is made).
    static func trustCertificates(_ arguments: ParsedArguments) throws(CommandError) {
        guard let path = arguments.value("cacert") else { return }
        _ = try LocalFile.bytes(path)
        setenv("SSL_CERT_FILE", path, 1)
    }

    /// The client's transport: the default one, or with `--insecure` one that checks no
    /// certificate.
    static func transport(_ arguments: ParsedArguments) throws(CommandError) -> (any WebSocketTransport)? {
        guard arguments.has("insecure") else { return nil }
        guard let unchecked = Worker.uncheckedTLSTransport else { throw .usage("--insecure needs the libwebsockets transport") }
        return unchecked
    }

    /// The daemon's address from `--url` or `$RIVESYNC_URL`.
    static func url(_ arguments: ParsedArguments) -> String {
        arguments.value("url") ?? ProcessInfo.processInfo.environment["RIVESYNC_URL"] ?? Worker.defaultURL
    }

    /// Connects to the daemon, runs `body` and relays its output to `console`.
    /// - Parameters:
    ///   - reconnect: keep the connection through drops (for long-running commands).
    ///   - connectLimit: seconds for connecting (default: `--timeout`, else 5).
    ///   - workLimit: seconds for `body` after connecting (nil: no limit); `expiry` is the
    ///     outcome when it runs out (nil: a timeout error).
    static func run(
        _ arguments: ParsedArguments, _ console: inout any Console, reconnect: Bool = false, connectLimit: Double? = nil,
        workLimit: Double?, expiry: Result<Void, CommandError>? = nil,
        _ body: @escaping @Sendable (Worker, Output) async throws -> Void
    ) throws(CommandError) {
        let pump = OutputPump()
        let url = url(arguments)
        guard ["ws://", "wss://"].contains(where: url.lowercased().hasPrefix) else {
            throw .invalidValue("'\(url)' is not a ws:// or wss:// URL (the daemon's address, such as ws://127.0.0.1:7420)")
        }
        let token = try token(arguments)
        try trustCertificates(arguments)
        let transport = try transport(arguments)
        let json = arguments.has("json")
        var connectSeconds = defaultTimeout
        if let connectLimit { connectSeconds = connectLimit } else if let given = try timeout(arguments) { connectSeconds = given }
        let connecting = Task {
            try await Task.sleep(for: .milliseconds(connectSeconds * 1000))
            pump.finishWithTimeout("no answer from \(url) within \(seconds(connectSeconds))")
        }
        Task {
            do {
                let worker = try await Worker(url: url, token: token, clientName: "rivesync", reconnect: reconnect, transport: transport)
                connecting.cancel()
                let watchdog = workLimit.map { limit in
                    Task {
                        try await Task.sleep(for: .milliseconds(limit * 1000))
                        if let expiry { pump.finish(expiry) } else { pump.finishWithTimeout("timed out after \(seconds(limit))") }
                    }
                }
                defer { watchdog?.cancel() }
                do {
                    try await body(worker, Output(pump: pump, json: json))
                    await worker.close()
                } catch {
                    await worker.close()
                    throw error
                }
                pump.finish(.success(()))
            } catch {
                connecting.cancel()
                pump.finish(.failure(ErrorCodes.commandError(error)))
            }
        }
        try pump.drain(into: &console)
    }

    /// Runs a command that does one thing and returns: `--timeout` (default 5 s) bounds
    /// connecting and, again, the work.
    static func oneShot(
        _ arguments: ParsedArguments, _ console: inout any Console, _ body: @escaping @Sendable (Worker, Output) async throws -> Void
    ) throws(CommandError) {
        try run(arguments, &console, workLimit: try timeout(arguments) ?? defaultTimeout, body)
    }

    /// `5s`, `0.5s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))s" : "\(value)s"
    }
}

/// Where asynchronous command code writes.
struct Output: Sendable {
    let pump: OutputPump
    /// Whether `--json` was given.
    let json: Bool

    /// Writes one line to standard output.
    func line(_ text: String) { pump.write(text + "\n") }

    /// Adds a reason to the message of a timeout, should one end the command.
    func timeoutHint(_ text: String) { pump.setTimeoutHint(text) }
}
