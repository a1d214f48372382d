import RiveSyncClient
import RiveSyncJSON

/// `rivesync who TARGET [--watch [--count N]]`: the members of a target's presence (PROTOCOL.md
/// §15), one line each, `p-17 {"name":"Ana"}` (with `--json`, `{"target":…,"members":[…]}`).
/// With `--watch`, a JSON line `{"members":[…],"time":…}` now and after every change, until
/// interrupted or N lines. Needs `seePresence`.
enum WhoCommand {
    static let spec = CommandSpec(
        name: "who", summary: "Print the members of a target's presence and their states.", positionals: ["TARGET"],
        options: RemoteCommand.options(
            timeoutHelp: "longest wait for connecting and for the list (default 5); with --watch, stop watching after SECONDS"
        ) + [
            .init("watch", help: "print the member list now and after every change, as JSON lines"),
            .init("count", valueName: "N", help: "with --watch, stop after N lines"),
        ]
    ) { (arguments, console) throws(CommandError) in
        let targetName = arguments.positionals[0]
        guard arguments.has("watch") else {
            try RemoteCommand.oneShot(arguments, &console) { worker, output in
                let members = try await worker.presence(of: targetName).list()
                if output.json {
                    output.line(JSONValue.object([("target", .string(targetName)), ("members", json(members))]).jsonText)
                } else {
                    if members.isEmpty { output.line("(no members)") }
                    for member in members { output.line("\(member.member) \(member.stateJSON)") }
                }
            }
            return
        }
        var limit: Int?
        if let text = arguments.value("count") {
            guard let count = Int(text), count > 0 else { throw .invalidValue("who: --count needs a positive integer, not '\(text)'") }
            limit = count
        }
        let expiry: Result<Void, CommandError>? = limit == nil ? .success(()) : nil
        let duration = try RemoteCommand.timeout(arguments)
        try RemoteCommand.run(arguments, &console, reconnect: true, workLimit: duration, expiry: expiry) { [limit] worker, output in
            let counter = LineCounter(limit: limit)
            for await members in try await worker.presence(of: targetName).members() {
                guard let last = await counter.take() else { return }
                output.line(JSONValue.object([("members", json(members)), ("time", .string(WatchCommand.timestamp()))]).jsonText)
                if last { return }
            }
        }
    }

    /// The members as JSON. A member's `stateJSON` is the client's serialization of the state
    /// it parsed from the daemon's message, so it always parses.
    static func json(_ members: [PresenceMember]) -> JSONValue {
        .array(
            members.map { member in
                .object([("member", .string(member.member)), ("state", (try? JSONParser().parse(Array(member.stateJSON.utf8))) ?? .null)])
            })
    }
}
