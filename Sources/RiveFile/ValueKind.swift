import RiveSyncModel

/// What a view model instance value object holds.
enum ValueKind: Hashable {
    /// A value of exactly this data type.
    case typed(DataType)
    /// The base asset value (type 586), which fits any asset property.
    case anyAsset

    /// Whether this value may fill a property of `type` (the runtime pairs them by type).
    func fits(_ type: DataType) -> Bool {
        switch self {
        case .typed(let own): return own == type
        case .anyAsset: return type.isAsset
        }
    }
}
