/// The type of a view model property, named with Rive's data-type names.
///
/// The raw values are the names used in listings, in the JSON schema format and on the wire
/// (`getProperties(of:)` in Rive's runtime reports the same names).
public enum DataType: String, Sendable, Hashable, CaseIterable, Codable {
    case number
    case string
    case boolean
    case color
    case `enum`
    case trigger
    case list
    case viewModel
    case assetImage
    case assetFont
    case assetBlob
    case artboard
    case symbolListIndex

    /// Whether a value of this type is written with `set` (as opposed to fire, list edits or
    /// nested replacement, which have operations of their own).
    public var isSettableScalar: Bool {
        switch self {
        case .number, .string, .boolean, .color, .enum, .assetImage, .assetFont, .assetBlob,
            .artboard, .symbolListIndex:
            return true
        case .trigger, .list, .viewModel:
            return false
        }
    }

    /// Whether the type holds an asset reference (image, font or blob).
    public var isAsset: Bool {
        self == .assetImage || self == .assetFont || self == .assetBlob
    }
}
