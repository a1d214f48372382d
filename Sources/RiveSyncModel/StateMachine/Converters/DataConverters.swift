/// A file's data converters as Rive's importer collects them from the object stream: every
/// `DataConverter` object in file order (the index space of `converterId`), with the group
/// items, formula tokens and data binds that follow each one, and the file-level keyframe
/// interpolators (those before the first artboard: the index space of `interpolatorId`).
///
/// ``converter(_:)`` hands out a fresh, fully resolved copy for one bind, as Rive clones the
/// converter a bind names.
public struct DataConverters: Sendable, Hashable {
    /// Every converter by `converterId`, resolved (groups hold copies of their items).
    public private(set) var converters: [DataConverter]
    /// The stream index of each converter's object.
    public private(set) var objectIndices: [Int]
    /// The file interpolators by `interpolatorId`; nil for one this runtime does not evaluate
    /// (a scripted interpolator), which converters then treat as linear.
    public private(set) var interpolators: [KeyFrameInterpolator?]

    /// How deep groups may nest; an item beyond this depth, or one naming a group it is
    /// already inside, is left out (Rive would recurse without end).
    public static let maximumGroupDepth = 16

    /// Collects the converters of `graph`.
    public init(graph: RiveGraph) {
        var collector = Collector()
        for (index, object) in graph.objects.enumerated() { collector.add(object, at: index) }
        interpolators = collector.interpolators
        objectIndices = collector.records.map(\.objectIndex)
        converters = []
        converters = collector.records.indices.map { collector.resolve($0, depth: 0, inside: []) }
    }

    /// A copy of converter `id` for one bind; nil if the file has no converter with that id.
    public func converter(_ id: Int) -> DataConverter? {
        converters.indices.contains(id) ? converters[id] : nil
    }

    /// A copy of the converter a `converterId` value names (Rive's "missing id" names none).
    public func converter(id: UInt64?) -> DataConverter? {
        guard let id, id < UInt64(converters.count) else { return nil }
        return converters[Int(id)]
    }

    /// `value` through a fresh copy of converter `id` (unchanged when `id` names none), with a
    /// context that has no bind flags, enum, view model or random numbers: for conversions
    /// that keep no state between calls.
    public func convert(_ value: PropertyValue, with id: Int?) -> PropertyValue {
        guard let id, var converter = converter(id) else { return value }
        return converter.convert(value)
    }

    /// What the stream gives for each converter before resolution.
    struct Record {
        var objectIndex: Int
        var object: RiveObject
        var groupItems: [UInt64?] = []
        var tokens: [FormulaToken] = []
        var binds: [DataConverterBind] = []
    }

    /// Walks the stream as Rive's import stack does.
    struct Collector {
        var records: [Record] = []
        var interpolators: [KeyFrameInterpolator?] = []
        var viewModelCount = 0
        var sawBackboard = false
        var sawArtboard = false
        var latestGroup: Int?
        var latestFormula: Int?
        /// The converter (and formula token) a data bind that follows now would target.
        var bindable: (converter: Int, token: Int?)?

        mutating func add(_ object: RiveObject, at index: Int) {
            let type = object.typeKey
            // Rive's reader drops objects of unknown types before they can be bind targets.
            guard RiveDefinitions.type(type) != nil else { return }
            if RiveDefinitions.type(type, isA: 446) {
                if let bindable { records[bindable.converter].binds.append(Self.bind(object, token: bindable.token)) }
                return
            }
            bindable = nil
            switch type {
            case 23: sawBackboard = true
            case 1: sawArtboard = true
            case 435: viewModelCount += 1
            default: break
            }
            guard sawBackboard else { return }
            if RiveDefinitions.type(type, isA: 488) {
                records.append(Record(objectIndex: index, object: object))
                let id = records.count - 1
                if type == 499 { latestGroup = id }
                if type == 536 { latestFormula = id }
                bindable = (id, nil)
            } else if type == 498, let latestGroup {
                records[latestGroup].groupItems.append(object.uint(679))
            } else if RiveDefinitions.type(type, isA: 537), let latestFormula, let token = FormulaToken(object) {
                records[latestFormula].tokens.append(token)
                bindable = (latestFormula, records[latestFormula].tokens.count - 1)
            } else if RiveDefinitions.type(type, isA: 175), !sawArtboard {
                interpolators.append(KeyFrameInterpolator(object))
            }
        }

        static func bind(_ object: RiveObject, token: Int?) -> DataConverterBind {
            DataConverterBind(
                propertyKey: Int(clamping: object.uint(586) ?? UInt64(UInt16.max)), flags: object.uint(587) ?? 0,
                converterId: object.uint(660).flatMap { $0 < UInt64(UInt32.max) ? Int($0) : nil },
                sourcePathIds: DataConverters.idList(object.bytes(588) ?? []), formulaToken: token)
        }

        /// The converter `id`, with the items of groups resolved.
        func resolve(_ id: Int, depth: Int, inside groups: Set<Int>) -> DataConverter {
            let record = records[id]
            var kind = Self.kind(record.object, tokens: record.tokens, interpolators: interpolators, viewModels: viewModelCount)
            if case .group = kind {
                var items: [DataConverter] = []
                if depth < DataConverters.maximumGroupDepth {
                    for item in record.groupItems {
                        guard let item, item < UInt64(records.count), !groups.contains(Int(item)), Int(item) != id else { continue }
                        items.append(resolve(Int(item), depth: depth + 1, inside: groups.union([id])))
                    }
                }
                kind = .group(DataConverterGroup(items: items))
            }
            return DataConverter(name: record.object.string(662) ?? "", typeKey: record.object.typeKey, kind: kind, binds: record.binds)
        }
    }
}

extension DataConverters {
    /// The varuints of an id-list payload (`sourcePathIds`); a truncated last id is dropped.
    static func idList(_ bytes: [UInt8]) -> [UInt32] {
        var ids: [UInt32] = []
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            if shift < 64 { value |= UInt64(byte & 0x7F) << shift }
            shift += 7
            if byte & 0x80 == 0 {
                ids.append(UInt32(truncatingIfNeeded: value))
                value = 0
                shift = 0
            }
        }
        return ids
    }
}
