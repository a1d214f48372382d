import RiveFile
import RiveSyncClient
import RiveSyncJSON

/// `rivesync create`, `publish` and `load`: what a daemon's configuration creates, from the
/// command line (so that a deleted target can be made again).
enum TargetCommands {
    /// `rivesync create TARGET --file FILE [--artboard A] [--state-machine SM] [--manual]
    /// [SLOT=INSTANCE...]`: a new state machine target (PROTOCOL.md §6 `createStateMachine`).
    static let create = CommandSpec(
        name: "create",
        summary: "Create a state machine target, binding SLOT=INSTANCE (main or a global; INSTANCE as for bind).",
        positionals: ["TARGET", "SLOT=INSTANCE"], variadic: true,
        options: RemoteCommand.options + [
            .init("file", valueName: "FILE", help: "the daemon's file (required)"),
            .init("artboard", valueName: "NAME", help: "the artboard (default: the file's first)"),
            .init("state-machine", valueName: "NAME", help: "the state machine (default: the artboard's default)"),
            .init("manual", help: "advance only when asked ('rivesync advance')"),
        ]
    ) { (arguments, console) throws(CommandError) in
        let targetName = arguments.positionals[0]
        guard let file = arguments.value("file") else { throw .usage("create: give the daemon's file with --file FILE") }
        let pairs = try slotPairs(Array(arguments.positionals.dropFirst()), command: "create")
        let (artboard, machine, manual) = (arguments.value("artboard"), arguments.value("state-machine"), arguments.has("manual"))
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            var main: UInt64?
            var globals: [(String, UInt64)] = []
            for (slot, text) in pairs {
                let id = try await InstanceText.resolve(text, file: file, worker: worker)
                if slot == "main" { main = id } else { globals.append((slot, id)) }
            }
            try await worker.createStateMachine(
                named: targetName, file: file, artboard: artboard, stateMachine: machine, main: main, globals: globals, manual: manual)
            output.line(output.json ? JSONValue.object([("target", .string(targetName))]).jsonText : "created '\(targetName)'")
        }
    }

    /// `rivesync publish NAME INSTANCE --file FILE`: shares an instance as a target
    /// (PROTOCOL.md §6 `publish`); a view model's name makes a new instance first.
    static let publish = CommandSpec(
        name: "publish", summary: "Publish an INSTANCE (#ID, ViewModel, ViewModel/Name or @TARGET) as target NAME.",
        positionals: ["NAME", "INSTANCE"],
        options: RemoteCommand.options + [.init("file", valueName: "FILE", help: "the daemon's file (required unless #ID)")]
    ) { (arguments, console) throws(CommandError) in
        let (name, text) = (arguments.positionals[0], arguments.positionals[1])
        let file = arguments.value("file")
        guard file != nil || InstanceText.id(text) != nil || text.hasPrefix("@") else {
            throw .usage("publish: give the daemon's file with --file FILE")
        }
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            let id = try await InstanceText.resolve(text, file: file ?? "", worker: worker)
            try await worker.publish(instance: id, as: name)
            output.line(
                output.json
                    ? JSONValue.object([("target", .string(name)), ("instance", .number(Double(id)))]).jsonText
                    : "published #\(id) as '\(name)'")
        }
    }

    /// `rivesync load NAME FILE`: loads a `.riv` or JSON schema file into the daemon
    /// (PROTOCOL.md §9 `loadFile`; the daemon must allow file uploads). A `.riv` file bigger
    /// than one message goes in parts (up to the daemon's `maxFileBytes`).
    static let load = CommandSpec(
        name: "load", summary: "Load a .riv or JSON schema file into the daemon as file NAME.", positionals: ["NAME", "FILE"],
        options: RemoteCommand.options
    ) { (arguments, console) throws(CommandError) in
        let (name, path) = (arguments.positionals[0], arguments.positionals[1])
        let bytes = try LocalFile.bytes(path)
        // A schema goes in one message: a daemon closes a connection whose message passes its
        // maxMessageBytes, which the client sees only as a lost connection.
        let isRiv = RiveFileReader.hasRivMagic(bytes)
        let messageBytes = isRiv ? 0 : bytes.count + name.utf8.count + 64
        let source: Source
        if isRiv {
            source = .riv(name: name, bytes: bytes)
        } else {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw .failure("\(path): neither a .riv file nor UTF-8 JSON")
            }
            // Said here, with the line and column, as `inspect` says it: the daemon's reply has
            // only the byte offset.
            do throws(JSONParseError) {
                _ = try JSONParser(maxDepth: 64).parse(bytes)
            } catch {
                throw .failure(SchemaFileLoader.notJSON(path, error, bytes))
            }
            source = .schema(name: name, json: text)
        }
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            do {
                _ = try await File(source: source, worker: worker)
            } catch WorkerError.disconnected where messageBytes > defaultMaxMessageBytes {
                throw CommandError.remote(
                    .rejected, code: "limit_exceeded",
                    message:
                        "\(path): the daemon closed the connection: the request (about \(messageBytes) bytes) is larger than "
                        + "the default limits.maxMessageBytes (\(defaultMaxMessageBytes)); the daemon's must allow it")
            }
            output.line(output.json ? JSONValue.object([("file", .string(name))]).jsonText : "loaded '\(name)'")
        }
    }

    /// The daemon's default `limits.maxMessageBytes`.
    static let defaultMaxMessageBytes = 1_048_576

    /// `SLOT=INSTANCE` words as pairs; a usage error names the first that is not one.
    static func slotPairs(_ words: [String], command: String) throws(CommandError) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for word in words {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw .usage("\(command): '\(word)' is not SLOT=INSTANCE") }
            pairs.append((parts[0], parts[1]))
        }
        return pairs
    }
}
