import RiveSyncJSON

/// An error as it travels on the wire: a stable code (see `protocol/PROTOCOL.md` §13), a
/// message for humans and the error's fields as `details`.
public struct WireError: Error, Sendable, Hashable {
    public var code: WireErrorCode
    public var message: String
    public var details: [(String, JSONValue)]

    public init(code: WireErrorCode, message: String, details: [(String, JSONValue)] = []) {
        self.code = code
        self.message = message
        self.details = details
    }

    public static func == (lhs: WireError, rhs: WireError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && JSONValue.object(lhs.details) == JSONValue.object(rhs.details)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }

    /// A required field is missing or has the wrong JSON type.
    public static func badField(_ field: String, _ expected: String) -> WireError {
        WireError(code: .badMessage, message: "field '\(field)': expected \(expected)", details: [("field", .string(field))])
    }

    public static func badJSON(_ reason: String) -> WireError { WireError(code: .badJSON, message: reason) }
    public static func unknownType(_ type: String) -> WireError {
        WireError(code: .unknownType, message: "unknown message type '\(type)'", details: [("type", .string(type))])
    }
    public static func limit(_ name: String, _ value: Int) -> WireError {
        WireError(
            code: .limitExceeded, message: "limit \(name) (\(value)) exceeded",
            details: [("limit", .string(name)), ("value", .number(Double(value)))])
    }
    public static func internalError(_ message: String) -> WireError { WireError(code: .internal, message: message) }
    /// A request other than `hello` before the `welcome`.
    public static let helloRequired = WireError(code: .helloRequired, message: "send hello first")
}
