/// One argument of a Redis command: any bytes (hiredis sends each with its length, so
/// arguments are binary-safe — spaces, newlines and NUL bytes included).
public struct RedisArgument: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
    public init(_ text: String) { bytes = Array(text.utf8) }
    public init<Integer: BinaryInteger>(_ value: Integer) { bytes = Array(String(value).utf8) }
    public init(stringLiteral value: String) { self.init(value) }
    public init(integerLiteral value: Int) { self.init(value) }
}
