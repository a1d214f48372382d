/// One Redis reply (RESP2, as hiredis 0.14 reads it), copied out of hiredis's reply object.
/// Top-level error replies are thrown as `RedisError.server`; inside an array (a pipeline's
/// `EXEC`, a script's result) they stay `.error`.
public enum RedisReply: Sendable, Equatable {
    /// A simple string (`+OK`).
    case status(String)
    case integer(Int64)
    /// A bulk string: any bytes.
    case bulk([UInt8])
    /// A null bulk string or null array (`$-1`, `*-1`): "no such key", a `BLOCK` that timed out.
    case null
    case array([RedisReply])
    case error(String)
}

extension RedisReply {
    /// The reply as an integer.
    public func integer() throws(RedisError) -> Int64 {
        guard case .integer(let value) = self else { throw .unexpectedReply("expected an integer, got \(self)") }
        return value
    }

    /// The bytes of a bulk or status reply; nil for `.null`.
    public func bytes() throws(RedisError) -> [UInt8]? {
        switch self {
        case .bulk(let bytes): return bytes
        case .status(let text): return Array(text.utf8)
        case .null: return nil
        default: throw .unexpectedReply("expected a string, got \(self)")
        }
    }

    /// A bulk or status reply as UTF-8 text; nil for `.null`.
    public func string() throws(RedisError) -> String? {
        try bytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The elements of an array reply; nil for `.null`.
    public func array() throws(RedisError) -> [RedisReply]? {
        switch self {
        case .array(let elements): return elements
        case .null: return nil
        default: throw .unexpectedReply("expected an array, got \(self)")
        }
    }

    /// Throws `.unexpectedReply` unless the reply is the status `expected` (`OK`, `PONG`).
    public func expectStatus(_ expected: String) throws(RedisError) {
        guard case .status(expected) = self else { throw .unexpectedReply("expected +\(expected), got \(self)") }
    }
}
