/// One object of a `.riv` stream as the writer takes it: a type key and its properties, in
/// the order they are written (RIV-FORMAT.md §4).
public struct RiveFileObject: Sendable, Hashable {
    /// A property value with its wire layout.
    public enum Value: Sendable, Hashable {
        case uint(UInt64)
        case string(String)
        case bytes([UInt8])
        case float(Float)
        case color(UInt32)
        case bool(Bool)

        /// The table of contents' 2-bit field-type code for this layout.
        var tocCode: UInt32 {
            switch self {
            case .uint, .bool: return 0
            case .string, .bytes: return 1
            case .float: return 2
            case .color: return 3
            }
        }
    }

    public var typeKey: UInt64
    public var properties: [Property]

    /// A property key and its value.
    public struct Property: Sendable, Hashable {
        public var key: UInt64
        public var value: Value

        public init(_ key: UInt64, _ value: Value) {
            self.key = key
            self.value = value
        }
    }

    public init(_ typeKey: UInt64, _ properties: [Property] = []) {
        self.typeKey = typeKey
        self.properties = properties
    }

    /// Adds a property after the others.
    public mutating func set(_ key: UInt64, _ value: Value) {
        properties.append(Property(key, value))
    }

    func encode(into writer: inout ByteWriter) {
        writer.varUInt(typeKey)
        for property in properties {
            writer.varUInt(property.key)
            switch property.value {
            case .uint(let number): writer.varUInt(number)
            case .string(let text): writer.string(text)
            case .bytes(let data):
                writer.varUInt(UInt64(data.count))
                writer.raw(data)
            case .float(let number): writer.uint32(number.bitPattern)
            case .color(let argb): writer.uint32(argb)
            case .bool(let flag): writer.raw([flag ? 1 : 0])
            }
        }
        writer.varUInt(0)
    }
}
