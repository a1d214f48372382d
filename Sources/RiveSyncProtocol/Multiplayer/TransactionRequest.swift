import Foundation
import RiveSyncJSON
import RiveSyncModel

/// A `transaction` (PROTOCOL.md §16): several commands for one target, applied in one
/// advance in their order, all or none. Each command is a `set`, `fire`, list edit or `bind`
/// request without `id` and `target`.
public struct TransactionRequest: Sendable, Hashable {
    public var target: String
    /// The commands, as the single requests they would be (each with `target` filled in).
    public var commands: [ClientRequest]

    /// The request types a transaction may hold.
    public static let commandTypes: Set<String> = [
        "set", "fire", "listAppend", "listInsert", "listRemoveAt", "listRemove", "listSwap", "bind",
    ]

    public init(target: String, commands: [ClientRequest]) {
        self.target = target
        self.commands = commands
    }

    /// Reads a `transaction` request's body. A command that cannot be read is `bad_message`
    /// naming its field as `commands[i].field`, with `details.commandIndex` i; more than
    /// `maxCommands` is `limit_exceeded` (`maxTransactionCommands`).
    public init(_ json: JSONValue, maxCommands: Int) throws(WireError) {
        let fields = Fields(json: json)
        target = try fields.string("target")
        guard let items = json["commands"]?.arrayValue, !items.isEmpty else {
            throw .badField("commands", "a non-empty array of commands")
        }
        guard items.count <= maxCommands else { throw .limit("maxTransactionCommands", maxCommands) }
        commands = []
        for (index, item) in items.enumerated() {
            commands.append(try Self.command(item, target: target).mapError { $0.inCommand(index) }.get())
        }
    }

    private static func command(_ item: JSONValue, target: String) -> Result<ClientRequest, WireError> {
        guard let members = item.objectValue else { return .failure(.badField("(command)", "a command object")) }
        guard let type = item["type"]?.stringValue, commandTypes.contains(type) else {
            return .failure(.badField("type", "one of \(commandTypes.sorted().joined(separator: ", "))"))
        }
        for reserved in ["id", "target"] where item[reserved] != nil {
            return .failure(.badField(reserved, "nothing: the transaction gives it"))
        }
        do {
            return .success(try ClientRequest(.object(members + [("target", .string(target))])))
        } catch {
            return .failure(error)
        }
    }

    /// The request as a client sends it.
    public func json(id: JSONValue?) -> JSONValue {
        Request(id: id, body: .transaction(self)).jsonValue
    }

    /// The request's fields after `type` and `id`: `target`, and each command without it.
    var fields: [(String, JSONValue)] {
        [
            ("target", .string(target)),
            ("commands", .array(commands.map { .object([("type", .string($0.type))] + $0.fields.filter { $0.0 != "target" }) })),
        ]
    }
}

extension WireError {
    /// The error of the command at `index` of a transaction: `details.commandIndex` added, and
    /// a `bad_message` field named `commands[index].field`.
    public func inCommand(_ index: Int) -> WireError {
        var error = self
        if error.code == .badMessage, let at = error.details.firstIndex(where: { $0.0 == "field" }),
            let field = error.details[at].1.stringValue
        {
            let qualified = field == "(command)" ? "commands[\(index)]" : "commands[\(index)].\(field)"
            error.details[at].1 = .string(qualified)
            error.message = error.message.replacingFirst("'\(field)'", with: "'\(qualified)'")
        }
        error.details.append(("commandIndex", .number(Double(index))))
        return error
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
