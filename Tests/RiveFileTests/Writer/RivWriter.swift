import RiveSyncModel

@testable import RiveFile

/// A tiny `.riv` writer, for tests only: writes a `FileSchema` as header, ToC and objects in
/// the order real exports use (`RIV-FORMAT.md` §4), so round trips need no outside file.
///
/// With a generator it also varies what the format leaves free: property order inside objects,
/// whether defaults are written, and unrelated objects (unknown types, old-core keys that are not
/// in the ToC, asset contents, artboard components) between the ones that matter.
struct RivWriter {
    /// Keys below this are never listed in the ToC, as in real exports.
    static let firstTocKey: UInt64 = 160
    /// `FileAssetContents.bytes`, which real exports list in the ToC only sometimes; never here.
    static let unlistedKey: UInt64 = 212
    static let none = UInt64(UInt32.max)

    var variation: SplitMix64?
    private var objects: [RivObject] = []

    init(variation: SplitMix64? = nil) {
        self.variation = variation
    }

    /// The file's bytes (major 7, minor 3).
    mutating func write(_ schema: FileSchema) -> [UInt8] {
        objects = [RivObject(23)]
        for asset in schema.assets {
            append(RivObject(Self.assetType(asset.kind), [(203, .string(asset.name)), (204, .uint(7))]))
            noise(RivObject(106, [(212, .bytes([1, 2, 3, 0x80]))]))
        }
        for item in schema.enums {
            append(RivObject(438, [(572, .string(item.name))]))
            for value in item.values {
                let split = chance()
                append(RivObject(445, split ? [(578, .string("k")), (579, .string(value))] : [(578, .string(value))]))
            }
        }
        noise(RivObject(526, [(951, .string("unknown type")), (5, .uint(3))]))
        for (v, viewModel) in schema.viewModels.enumerated() {
            append(RivObject(435, [(557, .string(viewModel.name))] + (viewModel.isGlobal ? [(981, .uint(2))] : [])))
            for property in viewModel.properties { append(propertyObject(property, schema)) }
            for instance in viewModel.instances { appendInstance(instance, of: viewModel, index: v, parentId: nil, schema) }
        }
        for (a, artboard) in schema.artboards.enumerated() {
            var object = RivObject(1, [(4, .string(artboard.name)), (7, .float(100)), (196, .bool(true))])
            if let name = artboard.viewModelName { object.set(583, .uint(index(of: name, in: schema.viewModels.map(\.name)))) }
            if let name = artboard.defaultStateMachine { object.set(236, .uint(index(of: name, in: artboard.stateMachines))) }
            append(object)
            noise(RivObject(2, [(13, .float(1.5)), (9, .float(2)), (5, .uint(0))]))
            if a == 0 {
                for (v, viewModel) in schema.viewModels.enumerated() {
                    for instance in viewModel.artboardScopedInstances {
                        appendInstance(instance, of: viewModel, index: v, parentId: 1, schema)
                        noise(RivObject(447, [(588, .bytes([UInt8(v), 0])), (586, .uint(4))]))
                    }
                }
            }
            for machine in artboard.stateMachines {
                append(RivObject(53, [(55, .string(machine))]))
                noise(RivObject(56, [(138, .string("input")), (140, .float(3))]))
            }
        }
        return encode()
    }

    // MARK: Objects

    private func propertyObject(_ property: PropertySchema, _ schema: FileSchema) -> RivObject {
        var object = RivObject(Self.propertyType(property.type), [(557, .string(property.name))])
        if let name = property.enumName { object.set(574, .uint(index(of: name, in: schema.enums.map(\.name)))) }
        if property.type == .viewModel {
            let target = property.viewModelName.map { index(of: $0, in: schema.viewModels.map(\.name)) } ?? Self.none
            object.set(565, .uint(target))
        }
        return object
    }

    private mutating func appendInstance(
        _ instance: AuthoredInstance, of viewModel: ViewModelSchema, index: Int, parentId: UInt64?, _ schema: FileSchema
    ) {
        var object = RivObject(437, [(4, .string(instance.name))])
        if index != 0 || !chance() { object.set(566, .uint(UInt64(index))) }
        if let parentId { object.set(5, .uint(parentId)) }
        append(object)
        for (p, property) in viewModel.properties.enumerated() {
            guard let value = instance.values[property.name] else { continue }
            var valueObject = RivObject(Self.valueType(property.type), [(554, .uint(UInt64(p)))])
            if let key = Self.valueKey(property.type), let stored = storedValue(value, property, schema),
                !(isDefault(stored, property.type) && chance())
            {
                valueObject.set(key, stored)
            }
            append(valueObject)
            if case .list(let items) = value {
                for item in items {
                    let vm = self.index(of: item.viewModel, in: schema.viewModels.map(\.name))
                    append(RivObject(427, [(549, .uint(vm)), (550, .uint(UInt64(item.index)))]))
                }
            }
        }
    }

    private func storedValue(_ value: AuthoredValue, _ property: PropertySchema, _ schema: FileSchema) -> RivObject.Value? {
        switch value {
        case .number(let number): return .float(number)
        case .string(let text): return .string(text)
        case .boolean(let flag): return .bool(flag)
        case .color(let argb): return .color(argb)
        case .enumValue(let name):
            let values = property.enumName.flatMap { schema.enumSchema(named: $0) }?.values ?? []
            return .uint(UInt64(values.firstIndex(of: name) ?? values.count))
        case .trigger(let count): return .uint(UInt64(count))
        case .symbolListIndex(let index): return .uint(UInt64(index))
        case .viewModel(let reference): return .uint(reference.map { UInt64($0.index) } ?? Self.none)
        case .list: return nil
        case .asset(let name): return .uint(name.map { index(of: $0, in: schema.assets.map(\.name)) } ?? Self.none)
        case .artboard(let name): return .uint(name.map { index(of: $0, in: schema.artboards.map(\.name)) } ?? Self.none)
        }
    }

    private func isDefault(_ value: RivObject.Value, _ type: DataType) -> Bool {
        switch (value, type) {
        case (.float(let number), _): return number == 0 && number.sign == .plus
        case (.string(let text), _): return text.isEmpty
        case (.bool(let flag), _): return !flag
        case (.color(let argb), _): return argb == 0xFF00_0000
        case (.uint(let number), .assetImage), (.uint(let number), .assetFont), (.uint(let number), .assetBlob),
            (.uint(let number), .artboard):
            return number == Self.none
        case (.uint(let number), _): return number == 0
        default: return false
        }
    }

    private func index(of name: String, in names: [String]) -> UInt64 {
        UInt64(names.firstIndex(of: name) ?? Int(UInt32.max))
    }

    // MARK: Variation and encoding

    private mutating func chance() -> Bool {
        guard var generator = variation else { return false }
        defer { variation = generator }
        return Bool.random(using: &generator)
    }

    private mutating func append(_ object: RivObject) {
        var object = object
        if var generator = variation {
            object.properties.shuffle(using: &generator)
            variation = generator
        }
        objects.append(object)
    }

    private mutating func noise(_ object: RivObject) {
        if chance() { append(object) }
    }

    private func encode() -> [UInt8] {
        RiveFileWriter.encode(objects) { $0 >= Self.firstTocKey && $0 != Self.unlistedKey }
    }

    // MARK: Key tables (RIV-FORMAT.md §5): the library writer's own

    static func assetType(_ kind: FileAssetSchema.Kind) -> Int { Int(RiveFileWriter.Keys.assetType(kind)) }
    static func propertyType(_ type: DataType) -> Int { Int(RiveFileWriter.Keys.propertyType(type)) }
    static func valueType(_ type: DataType) -> Int { Int(RiveFileWriter.Keys.valueType(type)) }
    /// The `propertyValue` key of a value type; lists store items instead.
    static func valueKey(_ type: DataType) -> Int? { RiveFileWriter.Keys.valueKey(type).map(Int.init) }
}
