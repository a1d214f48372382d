import RiveSyncJSON
import RiveSyncModel

/// A batch's `authors` (PROTOCOL.md §17): one object per number of its `commands`, in order,
/// `{"client"?, "token"?}`; `{}` for a command without a recorded author.
enum Authors {
    static func encode(_ authors: [Author?]) -> JSONValue {
        .array(
            authors.map { author in
                guard let author else { return .object([]) }
                var members: [(String, JSONValue)] = []
                if let client = author.client { members.append(("client", .string(client))) }
                if let token = author.token { members.append(("token", .string(token))) }
                return .object(members)
            })
    }

    /// Reads a batch's `authors` for its `count` commands; nil for `{}`.
    static func decode(_ json: JSONValue, count: Int) throws(WireError) -> [Author?] {
        guard let items = json.arrayValue, items.count == count else { throw .badField("authors", "one author per command") }
        var authors: [Author?] = []
        for item in items {
            guard let members = item.objectValue, members.allSatisfy({ ["client", "token"].contains($0.0) }) else {
                throw .badField("authors", "objects {client?, token?}")
            }
            let fields = Fields(json: item)
            let author = Author(client: try fields.optionalString("client"), token: try fields.optionalString("token"))
            authors.append(members.isEmpty ? nil : author)
        }
        return authors
    }
}

extension ServerMessage.Batch {
    /// Reads the `authors` of a batch message (`json`, e.g. one kept in a journal snapshot's
    /// history) with `count` commands: one per command, nil for `{}`; nil when it has none.
    public static func authors(in json: JSONValue, count: Int) throws(WireError) -> [Author?]? {
        guard let authors = json["authors"] else { return nil }
        return try Authors.decode(authors, count: count)
    }
}
