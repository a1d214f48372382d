/// The stable identity of a live view model instance within one loaded file.
///
/// Ids are handed out in creation order, so the same operations always give the same ids.
public struct InstanceID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (lhs: InstanceID, rhs: InstanceID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// An opaque reference to image, font or blob content: the content's id, its size in bytes and
/// its media type. Authored values that point at a file asset use `fileAsset(_:)`.
public struct AssetReference: Sendable, Hashable {
    public var id: String
    public var byteCount: Int
    public var mediaType: String

    public init(id: String, byteCount: Int, mediaType: String) {
        self.id = id
        self.byteCount = byteCount
        self.mediaType = mediaType
    }

    /// A reference to a file asset by name (`id` is `file:<name>`, size 0, media type the kind).
    public static func fileAsset(_ name: String, kind: FileAssetSchema.Kind) -> AssetReference {
        AssetReference(id: "file:" + name, byteCount: 0, mediaType: kind.rawValue)
    }
}

/// The value a property of a live instance holds.
public enum PropertyValue: Sendable, Hashable {
    case number(Float)
    case string(String)
    case boolean(Bool)
    /// ARGB, alpha in the top byte.
    case color(UInt32)
    /// The enum value's name.
    case enumValue(String)
    /// How many times the trigger has fired since the instance was created.
    case trigger(UInt64)
    /// The nested instance (nil = null).
    case viewModel(InstanceID?)
    /// The list's items in order.
    case list([InstanceID])
    /// Image, font or blob content (nil = none).
    case asset(AssetReference?)
    /// An artboard by name (nil = none).
    case artboard(String?)
    case symbolListIndex(UInt32)

    /// The blank default for a property type, as Rive's table gives it.
    public static func blank(for type: DataType, enumValues: [String]) -> PropertyValue {
        switch type {
        case .number: return .number(0)
        case .string: return .string("")
        case .boolean: return .boolean(false)
        case .color: return .color(0xFF00_0000)
        case .enum: return .enumValue(enumValues.first ?? "")
        case .trigger: return .trigger(0)
        case .viewModel: return .viewModel(nil)
        case .list: return .list([])
        case .assetImage, .assetFont, .assetBlob: return .asset(nil)
        case .artboard: return .artboard(nil)
        case .symbolListIndex: return .symbolListIndex(0)
        }
    }

    /// The name of the value's kind, for error messages ("number", "list", …).
    public var kindName: String {
        switch self {
        case .number: return "number"
        case .string: return "string"
        case .boolean: return "boolean"
        case .color: return "color"
        case .enumValue: return "enum"
        case .trigger: return "trigger"
        case .viewModel: return "viewModel"
        case .list: return "list"
        case .asset: return "asset"
        case .artboard: return "artboard"
        case .symbolListIndex: return "symbolListIndex"
        }
    }

    /// Whether a value of this kind may be stored in a property of `type`.
    public func fits(_ type: DataType) -> Bool {
        switch (self, type) {
        case (.number, .number), (.string, .string), (.boolean, .boolean), (.color, .color),
            (.enumValue, .enum), (.trigger, .trigger), (.viewModel, .viewModel), (.list, .list),
            (.artboard, .artboard), (.symbolListIndex, .symbolListIndex):
            return true
        case (.asset, let type): return type.isAsset
        default: return false
        }
    }
}
