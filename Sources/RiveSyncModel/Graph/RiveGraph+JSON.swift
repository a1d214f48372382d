import RiveSyncJSON

/// The graph in the JSON schema format (`protocol/SCHEMA.md`, "The graph"): one object per
/// `.riv` object, in stream order, `{"type": "StateMachineLayer", "name": "Layer 1", …}`.
/// Types and properties go by Rive's names (`RiveDefinitions`), or by key where the
/// definitions do not know them; values by the property's kind. Reading what was written gives
/// the same graph back, bit for bit.
extension RiveGraph {
    /// The graph as a JSON array.
    public var jsonValue: JSONValue {
        .array(objects.map(Self.jsonValue(of:)))
    }

    /// Reads a graph from its JSON array; errors name where they are (`graph[3].x: …`).
    public init(json: JSONValue, at here: String = "graph") throws(FileError) {
        guard let items = json.arrayValue else { throw .invalidData("\(here): expected an array") }
        var objects: [RiveObject] = []
        objects.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            objects.append(try Self.object(item, at: "\(here)[\(index)]"))
        }
        self.init(objects: objects)
    }

    // MARK: Writing

    static func jsonValue(of object: RiveObject) -> JSONValue {
        let type = RiveDefinitions.type(object.typeKey)
        var members: [(String, JSONValue)] = [("type", type.map { .string($0.name) } ?? .number(Double(object.typeKey)))]
        for key in object.properties.keys.sorted() {
            let value = object.properties[key]!
            let definition = RiveDefinitions.property(key).flatMap {
                RiveDefinitions.type(object.typeKey, isA: $0.owner) ? $0 : nil
            }
            guard let definition, let json = jsonValue(of: value, as: definition.kind) else {
                members.append((String(key), tagged(value)))
                continue
            }
            members.append((definition.name, json))
        }
        return .object(members)
    }

    /// The value in its kind's plain form; nil when it does not have that kind's shape.
    private static func jsonValue(of value: RiveFieldValue, as kind: RiveDefinitions.Kind) -> JSONValue? {
        switch (kind, value) {
        case (.uint, .uint(let n)), (.id, .uint(let n)):
            return n < 1 << 53 ? .number(Double(n)) : nil
        case (.bool, .uint(let n)):
            return n <= 1 ? .bool(n == 1) : nil
        case (.int, .uint(let n)):
            guard n <= UInt64(UInt32.max) else { return nil }
            return .number(Double(Int64(n >> 1) ^ -Int64(n & 1)))
        case (.double, .float(let x)):
            return x.isFinite ? .number(Double(x)) : nil
        case (.color, .color(let c)):
            return .string(ColorText.format(c))
        case (.string, .bytes(let bytes)):
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            return .string(text)
        case (.bytes, .bytes(let bytes)):
            return .array(bytes.map { .number(Double($0)) })
        case (.idList, .bytes(let bytes)):
            return idList(bytes).map { ids in .array(ids.map { .number(Double($0)) }) }
        default:
            return nil
        }
    }

    /// A value with its stored type named: `{"uint": 3}`, `{"float": 0.5}`, `{"color":
    /// "#FF000000"}`, `{"bytes": [1, 2]}`. Used for keys the definitions do not know and
    /// for values that do not fit their property's kind.
    private static func tagged(_ value: RiveFieldValue) -> JSONValue {
        switch value {
        case .uint(let n): return ["uint": n < 1 << 53 ? .number(Double(n)) : .string(String(n))]
        case .float(let x): return ["float": x.isFinite ? .number(Double(x)) : .string(String(x.bitPattern))]
        case .color(let c): return ["color": .string(ColorText.format(c))]
        case .bytes(let bytes): return ["bytes": .array(bytes.map { .number(Double($0)) })]
        }
    }

    /// The ids of an id list payload (varuints back to back); nil when it is not one.
    private static func idList(_ bytes: [UInt8]) -> [UInt64]? {
        var ids: [UInt64] = []
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            guard shift < 63 else { return nil }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                ids.append(value)
                value = 0
                shift = 0
            } else {
                shift += 7
            }
        }
        return shift == 0 ? ids : nil
    }

    private static func idListBytes(_ ids: [UInt64]) -> [UInt8] {
        var bytes: [UInt8] = []
        for id in ids {
            var rest = id
            repeat {
                let low = UInt8(rest & 0x7F)
                rest >>= 7
                bytes.append(rest == 0 ? low : low | 0x80)
            } while rest != 0
        }
        return bytes
    }

    // MARK: Reading

    static func object(_ item: JSONValue, at here: String) throws(FileError) -> RiveObject {
        guard let members = item.objectValue else { throw .invalidData("\(here): expected an object") }
        guard let typeValue = item["type"] else { throw .invalidData("\(here).type: missing") }
        let typeKey: Int
        if let name = typeValue.stringValue {
            guard let type = RiveDefinitions.type(named: name) else { throw .invalidData("\(here).type: no Rive type named '\(name)'") }
            typeKey = type.key
        } else if let key = typeValue.intValue, (1...0xFFFF).contains(key) {
            typeKey = key
        } else {
            throw .invalidData("\(here).type: expected a type name or key")
        }
        var object = RiveObject(typeKey: typeKey)
        for (name, value) in members where name != "type" {
            let at = "\(here).\(name)"
            let key: Int
            let definition: RiveDefinitions.PropertyDefinition?
            if let number = Int(name) {
                guard (1...0xFFFF).contains(number) else { throw .invalidData("\(at): a property key is 1…65535") }
                key = number
                definition = RiveDefinitions.property(number)
            } else {
                guard let found = RiveDefinitions.property(named: name, on: typeKey) else {
                    let typeName = RiveDefinitions.type(typeKey)?.name ?? String(typeKey)
                    throw .invalidData("\(at): \(typeName) has no property named '\(name)'")
                }
                key = found.key
                definition = found
            }
            guard object.properties[key] == nil else { throw .invalidData("\(at): property \(key) given twice") }
            object.properties[key] = try fieldValue(value, kind: definition?.kind, at: at)
        }
        return object
    }

    static func fieldValue(_ value: JSONValue, kind: RiveDefinitions.Kind?, at: String) throws(FileError) -> RiveFieldValue {
        if let members = value.objectValue {
            guard members.count == 1 else { throw .invalidData("\(at): expected one of uint, float, color, bytes") }
            return try taggedValue(members[0].0, members[0].1, at: at)
        }
        guard let kind else { throw .invalidData("\(at): a property the definitions do not know needs its type, e.g. {\"uint\": 3}") }
        switch kind {
        case .uint, .id:
            return .uint(try unsigned(value, at: at))
        case .bool:
            guard let flag = value.boolValue else { throw .invalidData("\(at): expected true or false") }
            return .uint(flag ? 1 : 0)
        case .int:
            guard let n = value.intValue, (Int(Int32.min)...Int(Int32.max)).contains(n) else {
                throw .invalidData("\(at): expected a 32-bit integer")
            }
            return .uint(UInt64(UInt32(bitPattern: Int32(n) << 1 ^ Int32(n) >> 31)))
        case .double:
            return .float(try float(value, at: at))
        case .color:
            return .color(try color(value, at: at))
        case .string:
            guard let text = value.stringValue else { throw .invalidData("\(at): expected a string") }
            return .bytes(Array(text.utf8))
        case .bytes:
            return .bytes(try byteArray(value, at: at))
        case .idList:
            guard let items = value.arrayValue else { throw .invalidData("\(at): expected an array of ids") }
            var ids: [UInt64] = []
            for (index, item) in items.enumerated() { ids.append(try unsigned(item, at: "\(at)[\(index)]")) }
            return .bytes(idListBytes(ids))
        }
    }

    private static func taggedValue(_ tag: String, _ value: JSONValue, at: String) throws(FileError) -> RiveFieldValue {
        switch tag {
        case "uint":
            if let text = value.stringValue {
                guard let n = UInt64(text) else { throw .invalidData("\(at).uint: expected an unsigned integer") }
                return .uint(n)
            }
            return .uint(try unsigned(value, at: "\(at).uint"))
        case "float":
            if let text = value.stringValue {
                guard let bits = UInt32(text) else { throw .invalidData("\(at).float: expected a number or a bit pattern") }
                return .float(Float(bitPattern: bits))
            }
            return .float(try float(value, at: "\(at).float"))
        case "color": return .color(try color(value, at: "\(at).color"))
        case "bytes": return .bytes(try byteArray(value, at: "\(at).bytes"))
        default: throw .invalidData("\(at): expected one of uint, float, color, bytes")
        }
    }

    private static func unsigned(_ value: JSONValue, at: String) throws(FileError) -> UInt64 {
        guard let n = value.intValue, n >= 0 else { throw .invalidData("\(at): expected an unsigned integer") }
        return UInt64(n)
    }

    private static func float(_ value: JSONValue, at: String) throws(FileError) -> Float {
        guard let n = value.numberValue, n.isFinite, abs(n) <= Double(Float.greatestFiniteMagnitude) else {
            throw .invalidData("\(at): expected a number")
        }
        return Float(n)
    }

    private static func color(_ value: JSONValue, at: String) throws(FileError) -> UInt32 {
        if let text = value.stringValue, let color = ColorText.parse(text) { return color }
        throw .invalidData("\(at): expected a colour \"#AARRGGBB\"")
    }

    private static func byteArray(_ value: JSONValue, at: String) throws(FileError) -> [UInt8] {
        guard let items = value.arrayValue else { throw .invalidData("\(at): expected an array of bytes") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard let n = item.intValue, (0...255).contains(n) else { throw .invalidData("\(at)[\(index)]: expected a byte 0…255") }
            bytes.append(UInt8(n))
        }
        return bytes
    }
}
