/// One property value of a `.riv` object, as the object stream stores it.
///
/// Booleans are stored as `.uint` (0 or 1); strings and byte payloads as `.bytes`.
public enum RiveFieldValue: Sendable, Hashable {
    case uint(UInt64)
    case float(Float)
    case color(UInt32)
    case bytes([UInt8])
}

/// One object of a `.riv` file's object stream: its type key (Rive's `typeKey`) and every
/// property it stores, by property key (Rive's `propertyKey`). A key stored twice keeps the
/// last value, as in Rive's runtime.
public struct RiveObject: Sendable, Hashable {
    public var typeKey: Int
    public var properties: [Int: RiveFieldValue]

    public init(typeKey: Int, properties: [Int: RiveFieldValue] = [:]) {
        self.typeKey = typeKey
        self.properties = properties
    }

    /// A uint property (ids, enums, flags, booleans), if stored.
    public func uint(_ key: Int) -> UInt64? {
        guard case .uint(let value) = properties[key] else { return nil }
        return value
    }

    /// A float property, if stored.
    public func float(_ key: Int) -> Float? {
        guard case .float(let value) = properties[key] else { return nil }
        return value
    }

    /// A color property (0xAARRGGBB), if stored.
    public func color(_ key: Int) -> UInt32? {
        guard case .color(let value) = properties[key] else { return nil }
        return value
    }

    /// A string property decoded as UTF-8, if stored.
    public func string(_ key: Int) -> String? {
        guard case .bytes(let value) = properties[key] else { return nil }
        return String(decoding: value, as: UTF8.self)
    }

    /// A byte-payload property, if stored.
    public func bytes(_ key: Int) -> [UInt8]? {
        guard case .bytes(let value) = properties[key] else { return nil }
        return value
    }
}

/// Every object of a `.riv` file's object stream, in stream order: the file's own objects
/// (backboard, assets, view models, enums), then each artboard followed by the objects that
/// belong to it (components, animations, state machines and what they own), as Rive's
/// importer meets them. Which object owns which follows from the order (`RIV-FORMAT.md` §4);
/// the state machine evaluator interprets it. An embedded asset's bytes
/// (`FileAssetContents.bytes`) are not kept. For a JSON schema file, the objects its described
/// state machines read into (`protocol/SCHEMA.md`, "State machines"), or its raw `graph`;
/// empty when it gives neither.
public struct RiveGraph: Sendable, Hashable {
    public var objects: [RiveObject]

    public init(objects: [RiveObject] = []) {
        self.objects = objects
    }

    /// Whether the graph holds no object.
    public var isEmpty: Bool { objects.isEmpty }
}
