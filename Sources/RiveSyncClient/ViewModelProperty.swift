/// A property descriptor from `File.getProperties(of:)`: its type, name and metadata.
public struct ViewModelProperty: Sendable, Hashable {
    /// The property types, with Rive's case names.
    public enum DataType: Sendable, Hashable {
        case none, string, number, boolean, color, list, `enum`, trigger, viewModel, integer, symbolListIndex
        case assetImage, assetFont, assetBlob, artboard, input, any

        /// The type for a wire type name (`none` for names this client does not know).
        init(wireName: String) {
            switch wireName {
            case "string": self = .string
            case "number": self = .number
            case "boolean": self = .boolean
            case "color": self = .color
            case "list": self = .list
            case "enum": self = .enum
            case "trigger": self = .trigger
            case "viewModel": self = .viewModel
            case "integer": self = .integer
            case "symbolListIndex": self = .symbolListIndex
            case "assetImage": self = .assetImage
            case "assetFont": self = .assetFont
            case "assetBlob": self = .assetBlob
            case "artboard": self = .artboard
            case "input": self = .input
            case "any": self = .any
            default: self = .none
            }
        }
    }

    public let type: DataType
    public let name: String
    /// The enum's name for an enum property, the view model's for a nested one, else "".
    public let metaData: String

    public init(type: DataType, name: String, metaData: String) {
        self.type = type
        self.name = name
        self.metaData = metaData
    }
}

/// An enum of a file: its name and value names in file order.
public struct ViewModelEnum: Sendable, Hashable {
    public let name: String
    public let values: [String]
}
