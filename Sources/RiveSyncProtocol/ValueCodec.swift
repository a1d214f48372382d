import RiveSyncJSON
import RiveSyncModel

/// Plain-JSON forms of property values (PROTOCOL.md §4), chosen by the property's type.
public enum ValueCodec {
    /// The JSON form of a value.
    public static func encode(_ value: PropertyValue) -> JSONValue {
        switch value {
        case .number(let n): return number(n)
        case .string(let s): return .string(s)
        case .boolean(let b): return .bool(b)
        case .color(let c): return .string(ColorText.format(c))
        case .enumValue(let e): return .string(e)
        case .trigger(let count): return .number(Double(count))
        case .viewModel(let id): return id.map { ["instance": .number(Double($0.rawValue))] } ?? .null
        case .list(let items): return .array(items.map { .number(Double($0.rawValue)) })
        case .asset(let reference):
            guard let reference else { return .null }
            return [
                "id": .string(reference.id), "bytes": .number(Double(reference.byteCount)),
                "mediaType": .string(reference.mediaType),
            ]
        case .artboard(let name): return name.map(JSONValue.string) ?? .null
        case .symbolListIndex(let index): return .number(Double(index))
        }
    }

    /// A number in the shortest form that reads back as the same `Float`.
    public static func number(_ n: Float) -> JSONValue {
        .number(Double(n.description) ?? Double(n))
    }

    /// Reads a value for a property of `type`. `path` names the property in errors.
    public static func decode(_ json: JSONValue, as type: DataType, path: String) throws(PropertyError) -> PropertyValue {
        func mismatch() -> PropertyError { .typeMismatch(path: path, expected: type.rawValue, actual: kind(of: json)) }
        switch type {
        case .number:
            guard let n = json.numberValue else { throw mismatch() }
            let f = Float(n)
            guard f.isFinite else { throw .invalidValue(path: path, reason: "numbers must be finite 32-bit floats") }
            return .number(f)
        case .string:
            guard let s = json.stringValue else { throw mismatch() }
            return .string(s)
        case .boolean:
            guard let b = json.boolValue else { throw mismatch() }
            return .boolean(b)
        case .color:
            if let text = json.stringValue {
                guard let argb = ColorText.parse(text) else {
                    throw .invalidValue(path: path, reason: "colors are \"#RRGGBB\" or \"#AARRGGBB\"")
                }
                return .color(argb)
            }
            guard let n = json.intValue, let argb = UInt32(exactly: n) else { throw mismatch() }
            return .color(argb)
        case .enum:
            guard let s = json.stringValue else { throw mismatch() }
            return .enumValue(s)
        case .trigger:
            guard let n = json.intValue, n >= 0 else { throw mismatch() }
            return .trigger(UInt64(n))
        case .viewModel:
            if json.isNull { return .viewModel(nil) }
            guard let id = json["instance"]?.intValue, id > 0 else { throw mismatch() }
            return .viewModel(InstanceID(UInt64(id)))
        case .list:
            guard let items = json.arrayValue else { throw mismatch() }
            var ids: [InstanceID] = []
            for item in items {
                guard let id = item.intValue, id > 0 else { throw mismatch() }
                ids.append(InstanceID(UInt64(id)))
            }
            return .list(ids)
        case .assetImage, .assetFont, .assetBlob:
            if json.isNull { return .asset(nil) }
            guard let id = json["id"]?.stringValue, let bytes = json["bytes"]?.intValue, bytes >= 0,
                let mediaType = json["mediaType"]?.stringValue
            else { throw mismatch() }
            return .asset(AssetReference(id: id, byteCount: bytes, mediaType: mediaType))
        case .artboard:
            if json.isNull { return .artboard(nil) }
            guard let s = json.stringValue else { throw mismatch() }
            return .artboard(s)
        case .symbolListIndex:
            guard let n = json.intValue, let index = UInt32(exactly: n) else { throw mismatch() }
            return .symbolListIndex(index)
        }
    }

    /// A JSON kind name for error messages.
    static func kind(of json: JSONValue) -> String {
        switch json {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
