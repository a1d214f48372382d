// swift-format-ignore-file
// (Rive's text and signatures are kept as written there.)
import Foundation

// Signatures from RIVE-API.md §1 (Rive's new Apple runtime); every body stops the program.

private func standIn() -> Never { fatalError("RiveRuntime stand-in: compile only") }

public enum Source: Sendable {
    case local(String, Bundle?)
    case url(URL)
    case data(Data)
}

@MainActor public final class Worker {
    public init() async throws { standIn() }
}

@MainActor public final class File {
    public convenience init(source: Source, worker: Worker) async throws { standIn() }
    public func createArtboard(_ name: String? = nil) async throws -> Artboard { standIn() }
    public func createViewModelInstance(_ source: ViewModelInstanceSource) async throws -> ViewModelInstance { standIn() }
}

public enum ViewModelSource {
    case artboardDefault(Artboard)
    case name(String)
}

public enum ViewModelInstanceSource {
    case blank(from: ViewModelSource)
    case viewModelDefault(from: ViewModelSource)
    case name(String, from: ViewModelSource)
}

@MainActor public final class Artboard {
    public func createStateMachine(_ name: String? = nil, binding main: ViewModelInstance? = nil) async throws -> StateMachine { standIn() }
}

@MainActor public final class StateMachine {
    public func advance(by time: TimeInterval) { standIn() }
}

@MainActor public final class Rive {
    public init(file: File, artboard: Artboard, stateMachine: StateMachine) async throws { standIn() }
}

public struct Color: Sendable, Equatable {
    public let alpha: UInt8, red: UInt8, green: UInt8, blue: UInt8
    public init(_ color: UInt32) { standIn() }
    public var argbValue: UInt32 { standIn() }
}

public protocol PropertyValue {}
extension String: PropertyValue {}
extension Float: PropertyValue {}
extension Bool: PropertyValue {}
extension Color: PropertyValue {}

public protocol Property { var path: String { get } }
public protocol ValueProperty: Property { associatedtype Value: PropertyValue }

public struct StringProperty: ValueProperty { public typealias Value = String; public let path: String; public init(path: String) { self.path = path } }
public struct NumberProperty: ValueProperty { public typealias Value = Float; public let path: String; public init(path: String) { self.path = path } }
public struct BoolProperty: ValueProperty { public typealias Value = Bool; public let path: String; public init(path: String) { self.path = path } }
public struct ColorProperty: ValueProperty { public typealias Value = Color; public let path: String; public init(path: String) { self.path = path } }
public struct EnumProperty: ValueProperty { public typealias Value = String; public let path: String; public init(path: String) { self.path = path } }
public struct TriggerProperty: Property { public let path: String; public init(path: String) { self.path = path } }
public struct ViewModelInstanceProperty: Property { public let path: String; public init(path: String) { self.path = path } }
public struct ListProperty: Property { public let path: String; public init(path: String) { self.path = path } }

public enum ViewModelInstanceError: LocalizedError {
    case missingData, valueMismatch(String, String), error(Error), message(String), cancelled
}

@MainActor public final class ViewModelInstance: Equatable {
    nonisolated public static func == (lhs: ViewModelInstance, rhs: ViewModelInstance) -> Bool { lhs === rhs }
    public func value(of property: StringProperty) async throws -> String { standIn() }
    public func value(of property: NumberProperty) async throws -> Float { standIn() }
    public func value(of property: BoolProperty) async throws -> Bool { standIn() }
    public func value(of property: ColorProperty) async throws -> Color { standIn() }
    public func value(of property: EnumProperty) async throws -> String { standIn() }
    public func valueStream(of property: StringProperty) -> AsyncThrowingStream<String, Error> { standIn() }
    public func valueStream(of property: NumberProperty) -> AsyncThrowingStream<Float, Error> { standIn() }
    public func valueStream(of property: BoolProperty) -> AsyncThrowingStream<Bool, Error> { standIn() }
    public func valueStream(of property: ColorProperty) -> AsyncThrowingStream<Color, Error> { standIn() }
    public func valueStream(of property: EnumProperty) -> AsyncThrowingStream<String, Error> { standIn() }
    public func setValue(of property: StringProperty, to value: String) { standIn() }
    public func setValue(of property: NumberProperty, to value: Float) { standIn() }
    public func setValue(of property: BoolProperty, to value: Bool) { standIn() }
    public func setValue(of property: ColorProperty, to value: Color) { standIn() }
    public func setValue(of property: EnumProperty, to value: String) { standIn() }
    public func fire(trigger property: TriggerProperty) { standIn() }
    public func stream(of property: TriggerProperty) -> AsyncThrowingStream<Void, Error> { standIn() }
    public func value(of property: ViewModelInstanceProperty) -> ViewModelInstance { standIn() }
    public func setValue(of property: ViewModelInstanceProperty, to instance: ViewModelInstance) { standIn() }
    public func size(of property: ListProperty) async throws -> Int { standIn() }
    public func appendInstance(_ instance: ViewModelInstance, to list: ListProperty) { standIn() }
    public func insertInstance(_ instance: ViewModelInstance, to list: ListProperty, at index: Int32) { standIn() }
    public func removeInstance(at index: Int32, from list: ListProperty) { standIn() }
    public func removeInstance(_ instance: ViewModelInstance, from list: ListProperty) { standIn() }
    public func swapInstance(atIndex: Int32, withIndex: Int32, in list: ListProperty) { standIn() }
    public func value(of property: ListProperty, at index: Int32) -> ViewModelInstance { standIn() }
}
