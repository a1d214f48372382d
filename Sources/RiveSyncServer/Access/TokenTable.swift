import Foundation
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel

/// The tokens of a tokens file. Only SHA-256 digests are kept: a token given in plain text
/// is hashed as the file is read. A presented token is hashed and compared with every
/// digest in constant time, so neither timing nor an early match tells which entry was close.
struct TokenTable: Sendable {
    /// One token: a name for logs (the token itself is never logged) and what it may do.
    struct Entry: Sendable {
        var name: String
        /// Lower-case hex SHA-256 of the token, as UTF-8 bytes.
        var digest: [UInt8]
        var grants: Grants
    }

    /// Plain-text tokens shorter than this are refused (guessable).
    static let minimumTokenLength = 16

    private(set) var entries: [Entry] = []

    init() {}

    /// Reads `{"tokens": [{"name", "token" | "sha256", "scopes"}]}`.
    init(json: JSONValue, here: String) throws(ConfigurationError) {
        guard let members = json.objectValue, members.allSatisfy({ $0.0 == "tokens" }), let list = json["tokens"]?.arrayValue else {
            throw .invalid("\(here): expected {\"tokens\": [...]}")
        }
        for (i, item) in list.enumerated() {
            let at = "\(here): tokens[\(i)]"
            guard let fields = item.objectValue else { throw .invalid("\(at): expected an object") }
            for (key, _) in fields where !["name", "token", "sha256", "scopes"].contains(key) {
                throw .invalid("\(at): unknown key '\(key)'")
            }
            guard let name = item["name"]?.stringValue, !name.isEmpty else { throw .invalid("\(at).name: expected a string") }
            guard !entries.contains(where: { $0.name == name }) else { throw .invalid("\(at).name: '\(name)' appears twice") }
            let digest: [UInt8]
            switch (item["token"], item["sha256"]) {
            case (let token?, nil):
                guard let text = token.stringValue, text.utf8.count >= Self.minimumTokenLength else {
                    throw .invalid("\(at).token: expected a string of at least \(Self.minimumTokenLength) bytes")
                }
                digest = Self.digest(of: text)
            case (nil, let hash?):
                guard let hex = hash.stringValue?.lowercased(), hex.utf8.count == 64, hex.utf8.allSatisfy({ Self.hexDigits.contains($0) })
                else {
                    throw .invalid("\(at).sha256: expected 64 hex digits")
                }
                digest = Array(hex.utf8)
            default:
                throw .invalid("\(at): give exactly one of 'token' and 'sha256'")
            }
            guard !entries.contains(where: { $0.digest == digest }) else { throw .invalid("\(at): same token as another entry") }
            guard let scopes = item["scopes"] else { throw .invalid("\(at).scopes: expected an array of scopes") }
            entries.append(Entry(name: name, digest: digest, grants: try Grants(json: scopes, here: "\(at).scopes")))
        }
    }

    /// Reads and validates a tokens file.
    static func read(_ path: String) throws(ConfigurationError) -> TokenTable {
        let json = try ConfigurationError.readJSON(path)
        return try TokenTable(json: json, here: path)
    }

    /// The entry of a presented token, or nil. Every entry is compared, without early exit.
    func entry(forToken token: String) -> Entry? {
        let digest = Self.digest(of: token)
        var found: Entry?
        for entry in entries where Self.constantTimeEqual(entry.digest, digest) && found == nil {
            found = entry
        }
        return found
    }

    /// The current entry of a token known by its digest (nil once it is revoked).
    func entry(forDigest digest: [UInt8]) -> Entry? {
        entries.first { $0.digest == digest }
    }

    static func digest(of token: String) -> [UInt8] {
        Array(SHA256Digest.hex(Array(token.utf8)).utf8)
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    private static let hexDigits = Set("0123456789abcdef".utf8)
}
