import RiveSyncJSON
import RiveSyncModel

/// Authors on batches (PROTOCOL.md §17) and the ack of a transaction (§16).
public enum Authors {
    /// A batch's `authors`: one object per number of `commands`, in order (`{}` for a command
    /// without a recorded author).
    public static func encode(_ authors: [UInt64: Author], commands: [UInt64]) -> JSONValue {
        .array(
            commands.map { number in
                guard let author = authors[number] else { return .object([]) }
                var members: [(String, JSONValue)] = []
                if let client = author.client { members.append(("client", .string(client))) }
                if let token = author.token { members.append(("token", .string(token))) }
                return .object(members)
            })
    }

    /// Reads a batch's `authors` for its `count` commands; nil for `{}`.
    public static func decode(_ json: JSONValue, count: Int) throws(WireError) -> [Author?] {
        guard let items = json.arrayValue, items.count == count else { throw .badField("authors", "one author per command") }
        var authors: [Author?] = []
        for item in items {
            let fields = Fields(json: item)
            guard let members = item.objectValue else { throw .badField("authors", "objects {client?, token?}") }
            let author = Author(client: try fields.optionalString("client"), token: try fields.optionalString("token"))
            authors.append(members.isEmpty ? nil : author)
        }
        return authors
    }

    /// The ack of an applied transaction: `command` the first number, `commands` all of them.
    public static func transactionAck(id: JSONValue?, target: String, seq: UInt64, commands: [UInt64]) -> JSONValue {
        ServerMessage.reply(
            "ack", id: id,
            [
                ("target", .string(target)), ("seq", .number(Double(seq))), ("command", .number(Double(commands.first ?? 0))),
                ("commands", .array(commands.map { .number(Double($0)) })),
            ])
    }
}
