internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol

/// Any property's value, for code that works with paths whose types it learns at run time
/// (tools, scripts, `RemoteTarget`). Typed code uses the property handles instead.
public enum DynamicValue: Sendable, Hashable {
    case number(Float)
    case string(String)
    case boolean(Bool)
    case color(Color)
    case enumValue(String)
    /// How many times the trigger has fired since its instance was created.
    case trigger(fires: UInt64)
    /// The nested instance's id, nil for null.
    case viewModel(UInt64?)
    /// The list's item ids in order.
    case list([UInt64])
    case asset(AssetReference?)
    case artboard(String?)
    case symbolListIndex(UInt32)

    /// The value in its wire JSON form (`5`, `"#FF121212"`, `{"instance":12}`, …).
    public var jsonText: String { ValueCodec.encode(model).jsonText }

    init(_ value: RiveSyncModel.PropertyValue) {
        switch value {
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .boolean(let b): self = .boolean(b)
        case .color(let argb): self = .color(Color(argb))
        case .enumValue(let e): self = .enumValue(e)
        case .trigger(let count): self = .trigger(fires: count)
        case .viewModel(let id): self = .viewModel(id?.rawValue)
        case .list(let ids): self = .list(ids.map(\.rawValue))
        case .asset(let reference):
            self = .asset(reference.map { AssetReference(id: $0.id, byteCount: $0.byteCount, mediaType: $0.mediaType) })
        case .artboard(let name): self = .artboard(name)
        case .symbolListIndex(let index): self = .symbolListIndex(index)
        }
    }

    var model: RiveSyncModel.PropertyValue {
        switch self {
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .boolean(let b): return .boolean(b)
        case .color(let color): return .color(color.argbValue)
        case .enumValue(let e): return .enumValue(e)
        case .trigger(let count): return .trigger(count)
        case .viewModel(let id): return .viewModel(id.map { InstanceID($0) })
        case .list(let ids): return .list(ids.map { InstanceID($0) })
        case .asset(let reference):
            return .asset(reference.map { RiveSyncModel.AssetReference(id: $0.id, byteCount: $0.byteCount, mediaType: $0.mediaType) })
        case .artboard(let name): return .artboard(name)
        case .symbolListIndex(let index): return .symbolListIndex(index)
        }
    }

    /// The wire JSON of the value.
    var json: JSONValue { ValueCodec.encode(model) }
}
