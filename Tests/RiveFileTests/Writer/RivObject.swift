/// One object of the stream as the test writer builds it.
struct RivObject {
    /// A property value with its wire layout.
    enum Value {
        case uint(UInt64)
        case string(String)
        case bytes([UInt8])
        case float(Float)
        case color(UInt32)
        case bool(Bool)

        /// The ToC's 2-bit code for this layout.
        var tocCode: UInt32 {
            switch self {
            case .uint, .bool: return 0
            case .string, .bytes: return 1
            case .float: return 2
            case .color: return 3
            }
        }
    }

    var typeKey: Int
    var properties: [(key: Int, value: Value)] = []

    init(_ typeKey: Int, _ properties: [(key: Int, value: Value)] = []) {
        self.typeKey = typeKey
        self.properties = properties
    }

    mutating func set(_ key: Int, _ value: Value) {
        properties.append((key, value))
    }

    func encode(into encoder: inout RivEncoder) {
        encoder.varuint(UInt64(typeKey))
        for (key, value) in properties {
            encoder.varuint(UInt64(key))
            switch value {
            case .uint(let number): encoder.varuint(number)
            case .string(let text): encoder.string(text)
            case .bytes(let data):
                encoder.varuint(UInt64(data.count))
                encoder.raw(data)
            case .float(let number): encoder.uint32(number.bitPattern)
            case .color(let argb): encoder.uint32(argb)
            case .bool(let flag): encoder.raw([flag ? 1 : 0])
            }
        }
        encoder.varuint(0)
    }
}
