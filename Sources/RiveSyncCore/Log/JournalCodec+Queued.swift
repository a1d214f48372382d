import RiveSyncJSON
import RiveSyncModel

extension JournalCodec {
    /// A queued command of an `advance` record: `{"n": number, "c": command}`, plus
    /// `"a": {"client"?, "token"?}` when it has an author and `"x": first number` when it
    /// belongs to a transaction (PROTOCOL.md §16, §17). Records written before authors and
    /// transactions have neither and read back without them.
    static func encode(_ queued: QueuedCommand) -> JSONValue {
        var members: [(String, JSONValue)] = [("n", .number(Double(queued.id))), ("c", encode(queued.command))]
        if let author = queued.author {
            var who: [(String, JSONValue)] = []
            if let client = author.client { who.append(("client", .string(client))) }
            if let token = author.token { who.append(("token", .string(token))) }
            members.append(("a", .object(who)))
        }
        if let transaction = queued.transaction { members.append(("x", .number(Double(transaction)))) }
        return .object(members)
    }

    static func decodeQueued(_ json: JSONValue) throws -> QueuedCommand {
        let item = Fields(json: json, what: "command")
        let number = try item.int("n")
        guard number > 0 else { throw Invalid(description: "command number \(number)") }
        var queued = QueuedCommand(id: UInt64(number), command: try decodeCommand(try item.value("c")))
        if let who = json["a"] {
            let author = Fields(json: who, what: "author")
            guard let members = who.objectValue, members.allSatisfy({ ["client", "token"].contains($0.0) }) else {
                throw Invalid(description: "author \(who.jsonText)")
            }
            queued.author = Author(
                client: who["client"] == nil ? nil : try author.string("client"),
                token: who["token"] == nil ? nil : try author.string("token"))
        }
        if json["x"] != nil {
            let first = try item.int("x")
            guard first > 0, first <= number else { throw Invalid(description: "command \(number): transaction \(first)") }
            queued.transaction = UInt64(first)
        }
        return queued
    }
}
