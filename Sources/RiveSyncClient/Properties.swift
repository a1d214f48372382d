/// A value a property can hold and a stream can yield (`String`, `Float`, `Bool`, `Color`).
public protocol PropertyValue: Sendable, Equatable {}

extension String: PropertyValue {}
extension Float: PropertyValue {}
extension Bool: PropertyValue {}
extension Color: PropertyValue {}

/// A handle to a property of a view model instance: only a path, checked when it is used.
///
/// The path is `/`-separated from the instance the handle is used with (`header/title`,
/// `players/2/x`); the last segment is the property's name.
public protocol Property: Sendable, Hashable {
    var path: String { get }
}

/// A property with a value that can be read, written and observed.
public protocol ValueProperty: Property {
    associatedtype Value: PropertyValue
}

/// A `string` property.
public struct StringProperty: ValueProperty {
    public typealias Value = String
    public let path: String
    public init(path: String) { self.path = path }
}

/// A `number` property (a 32-bit float, as in Rive).
public struct NumberProperty: ValueProperty {
    public typealias Value = Float
    public let path: String
    public init(path: String) { self.path = path }
}

/// A `boolean` property.
public struct BoolProperty: ValueProperty {
    public typealias Value = Bool
    public let path: String
    public init(path: String) { self.path = path }
}

/// A `color` property (ARGB).
public struct ColorProperty: ValueProperty {
    public typealias Value = Color
    public let path: String
    public init(path: String) { self.path = path }
}

/// An `enum` property; its value is the name of one of the enum's values.
public struct EnumProperty: ValueProperty {
    public typealias Value = String
    public let path: String
    public init(path: String) { self.path = path }
}

/// A `trigger` property: no stored value; fire it and observe its fires.
public struct TriggerProperty: Property {
    public let path: String
    public init(path: String) { self.path = path }
}

/// An `assetImage` property, set with an `Image` from `Worker.decodeImage(from:)`.
public struct ImageProperty: Property {
    public let path: String
    public init(path: String) { self.path = path }
}

/// An `assetFont` property, set with a `Font` from `Worker.decodeFont(from:)`.
public struct FontProperty: Property {
    public let path: String
    public init(path: String) { self.path = path }
}

/// An `assetBlob` property, set with a `Blob` from `Worker.decodeBlob(from:)`.
public struct BlobProperty: Property {
    public let path: String
    public init(path: String) { self.path = path }
}

/// An `artboard` property, set with an `Artboard` of the same file.
public struct ArtboardProperty: Property {
    public let path: String
    public init(path: String) { self.path = path }
}

/// A nested view model property: read the nested instance, or replace it.
public struct ViewModelInstanceProperty: Property {
    public let path: String
    public init(path: String) { self.path = path }
}

/// A `list` property: an ordered list of view model instances.
public struct ListProperty: Property {
    public let path: String
    public init(path: String) { self.path = path }
}
