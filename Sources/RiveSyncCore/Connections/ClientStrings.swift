import RiveSyncProtocol

/// The bound on the strings a client chooses that the daemon copies to others (PROTOCOL.md
/// §12, `maxNameBytes`): `hello`'s `client` goes into every batch's `authors` and journal
/// record of the connection's commands, a new target's name into every batch of it and into
/// listings, a loaded file's name into listings, an upload's `mediaType` into every value that
/// refers to it. Each is at most `maxBytes` UTF-8 bytes, so no client can make a batch or a
/// record larger than the other limits allow by naming things (a 1 MiB `client` on 256
/// commands would have made every batch of them 256 MiB).
public enum ClientStrings {
    /// The most UTF-8 bytes of each of those strings.
    public static let maxBytes = 256

    /// `limit_exceeded` (`details.limit` `maxNameBytes`, `details.field` the field) for the
    /// first string of `request` past the bound, else nil.
    public static func violation(in request: ClientRequest) -> WireError? {
        for (field, value) in named(in: request) where value.utf8.count > maxBytes {
            var error = WireError.limit("maxNameBytes", maxBytes)
            error.message = "\(field) is longer than \(maxBytes) bytes (\(value.utf8.count))"
            error.details.append(("field", .string(field)))
            return error
        }
        return nil
    }

    /// The bounded strings of `request`, by field.
    static func named(in request: ClientRequest) -> [(String, String)] {
        switch request {
        case .hello(_, _, let client): return client.map { [("client", $0)] } ?? []
        case .createStateMachine(let machine): return machine.name.map { [("name", $0)] } ?? []
        case .createInstance(_, _, let publish): return publish.map { [("publish", $0)] } ?? []
        case .publish(_, let name), .loadFile(let name, _, _): return [("name", name)]
        case .upload(_, _, let mediaType): return mediaType.map { [("mediaType", $0)] } ?? []
        case .transaction(let transaction): return transaction.commands.flatMap(named(in:))
        default: return []
        }
    }
}
