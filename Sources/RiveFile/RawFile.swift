import RiveSyncModel

/// What the object stream holds, grouped by owner, with references still as file indices.
///
/// Indices are `UInt32` because the runtime keeps them as 32-bit values; `UInt32.max` is its
/// "none" (-1).
struct RawFile {
    var viewModels: [RawViewModel] = []
    /// Every view model instance in file order, file-level and artboard-scoped alike.
    var instances: [RawInstance] = []
    /// Enums with their display values already chosen (`value` if non-empty, else `key`).
    var enums: [EnumSchema] = []
    var artboards: [RawArtboard] = []
    /// The file-asset index space, in file order.
    var assets: [FileAssetSchema] = []
    /// Every object of the stream, in order, with every property.
    var graph = RiveGraph()
}

struct RawViewModel {
    var name: String
    var isGlobal: Bool
    var properties: [RawProperty] = []
}

struct RawProperty {
    var name: String
    var type: DataType
    /// Index into the file's enums (enum properties).
    var enumIndex: UInt32
    /// Index into the file's view models (nested view model properties).
    var viewModelIndex: UInt32
}

struct RawInstance {
    var name: String
    /// Index into the file's view models.
    var viewModelIndex: UInt32
    /// Read after the first artboard: it belongs to that artboard's run of objects.
    var isArtboardScoped: Bool
    var values: [RawValue] = []
}

struct RawValue {
    var kind: ValueKind
    /// Index into the instance's view model's properties.
    var propertyIndex: UInt32
    /// The stored `propertyValue`; nil when the file leaves it at its default.
    var payload: FieldValue?
    /// List values only: (view model index, instance index) pairs.
    var listItems: [RawListItem] = []
}

struct RawListItem {
    var viewModelIndex: UInt32
    var instanceIndex: UInt32
}

struct RawArtboard {
    var name: String
    var viewModelIndex: UInt32
    /// Index into `stateMachines`.
    var defaultStateMachineIndex: UInt32
    var stateMachines: [String] = []
}
