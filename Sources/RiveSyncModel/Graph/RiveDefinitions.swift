/// Rive's object definitions: every object type with its key and the type it extends, and
/// every property the runtime reads with its key, owner, stored kind and initial value. The
/// facts come from rive-runtime's `dev/defs` (`tools/generate-rive-definitions.py` writes
/// the table).
public enum RiveDefinitions {
    /// An object type.
    public struct TypeDefinition: Sendable, Hashable {
        public var key: Int
        public var name: String
        /// The key of the type it extends, nil for a root type.
        public var parent: Int?
    }

    /// How a property's value is stored.
    public enum Kind: String, Sendable, Hashable {
        /// A varuint (uint8/16/32/64).
        case uint
        /// A varuint naming another object (an index among its artboard's or file's objects).
        case id
        /// One byte, 0 or 1.
        case bool
        /// A zigzag varuint holding a signed value.
        case int
        /// A float32.
        case double
        /// UTF-8 text.
        case string
        /// Raw bytes.
        case bytes
        /// A list of ids, each a varuint, in a byte payload.
        case idList
        /// 0xAARRGGBB.
        case color
    }

    /// A property of a type.
    public struct PropertyDefinition: Sendable, Hashable {
        public var key: Int
        public var name: String
        /// The key of the type that declares it.
        public var owner: Int
        public var kind: Kind
        /// The initial value as the definitions write it ("0", "1", "true", "0xFF1D1D1D",
        /// "Core.missingId", …); empty when they give none.
        public var initialValue: String
    }

    /// The type with this key.
    public static func type(_ key: Int) -> TypeDefinition? { tables.types[key] }

    /// The type with this name (Rive's class name, e.g. `StateMachineLayer`).
    public static func type(named name: String) -> TypeDefinition? {
        tables.typeKeys[name].flatMap { tables.types[$0] }
    }

    /// The property with this key.
    public static func property(_ key: Int) -> PropertyDefinition? { tables.properties[key] }

    /// The property with this name on a type or one of the types it extends (the nearest
    /// declaration wins).
    public static func property(named name: String, on typeKey: Int) -> PropertyDefinition? {
        var current: Int? = typeKey
        var steps = 0
        while let key = current, steps < 64 {
            if let property = tables.propertyKeys[key]?[name].flatMap({ tables.properties[$0] }) { return property }
            current = tables.types[key]?.parent
            steps += 1
        }
        return nil
    }

    /// Whether a type is `ancestor` or extends it (directly or not).
    public static func type(_ typeKey: Int, isA ancestor: Int) -> Bool {
        var current: Int? = typeKey
        var steps = 0
        while let key = current, steps < 64 {
            if key == ancestor { return true }
            current = tables.types[key]?.parent
            steps += 1
        }
        return false
    }

    private struct Tables: Sendable {
        var types: [Int: TypeDefinition] = [:]
        var typeKeys: [String: Int] = [:]
        var properties: [Int: PropertyDefinition] = [:]
        /// Property keys by owner type and name.
        var propertyKeys: [Int: [String: Int]] = [:]
    }

    private static let tables: Tables = {
        var tables = Tables()
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard fields.count >= 4, let key = Int(fields[1]) else { continue }
            if fields[0] == "T", let parent = Int(fields[3]) {
                tables.types[key] = TypeDefinition(key: key, name: fields[2], parent: parent < 0 ? nil : parent)
                tables.typeKeys[fields[2]] = key
            } else if fields[0] == "P", fields.count >= 5, let owner = Int(fields[3]), let kind = Kind(rawValue: fields[4]) {
                let initial = fields.count > 5 ? fields[5] : ""
                tables.properties[key] = PropertyDefinition(key: key, name: fields[2], owner: owner, kind: kind, initialValue: initial)
                tables.propertyKeys[owner, default: [:]][fields[2]] = key
            }
        }
        return tables
    }()
}
