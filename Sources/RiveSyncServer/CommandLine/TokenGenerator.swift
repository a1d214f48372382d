import RiveSyncJSON

/// `rivesyncd --generate-token`: a new random token, and its entry for a tokens file
/// (`auth.tokensFile`), which keeps only the token's SHA-256.
public struct TokenGenerator: Sendable {
    /// The token: 32 bytes from the system's cryptographically secure generator
    /// (`SystemRandomNumberGenerator`: getrandom(2) on Linux), in unpadded base64url (43
    /// characters).
    public let token: String
    /// The entry's name: `token-` and the first 8 hex digits of the token's SHA-256.
    public let name: String

    /// A new token.
    public init() {
        var generator = SystemRandomNumberGenerator()
        self.init(bytes: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The token of `bytes` (tests).
    init(bytes: [UInt8]) {
        token = Self.base64URL(bytes)
        name = "token-" + String(decoding: TokenTable.digest(of: token).prefix(8), as: UTF8.self)
    }

    /// A tokens file with the token's entry alone: read, write and fire on every target.
    public var tokensFile: JSONValue {
        let entry: JSONValue = [
            "name": .string(name), "sha256": .string(String(decoding: TokenTable.digest(of: token), as: UTF8.self)),
            "scopes": [["allow": ["read", "write", "fire"], "target": "*"]],
        ]
        return ["tokens": [entry]]
    }

    /// The tokens file as printed (on stdout).
    public var tokensFileText: String { tokensFile.prettyText(indent: 0) + "\n" }

    /// The line with the token itself (on stderr, so that `> tokens.json` keeps it out of the file).
    public var tokenLine: String {
        "rivesyncd: the token of '\(name)' (give it to the client; the file keeps only its SHA-256): \(token)\n"
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var text = ""
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var bits = 0
            for byte in chunk { bits = bits << 8 | Int(byte) }
            bits <<= 8 * (3 - chunk.count)
            for position in 0..<(chunk.count + 1) { text.append(alphabet[(bits >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return text
    }
}
