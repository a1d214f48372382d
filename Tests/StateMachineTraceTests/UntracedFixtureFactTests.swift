import Foundation
import RiveFile
import RiveSyncJSON
import RiveSyncModel
import Testing

/// What Rive's own unit tests assert about files no handed-over trace uses (values are facts
/// of Rive's runtime; the tests are ours), through our evaluator: the values a bound
/// component's property takes from the default instance after the first advance (what a trace
/// records as `binds[].value`), and view-model values after client writes.
@Suite struct UntracedFixtureFactTests {
    /// A state machine target on `artboard` of `file`, bound to its default instance, advanced
    /// once by 0 s (Rive's first `advance(0)`).
    static func started(_ file: String, artboard: String) throws -> (FileRuntime, String) {
        var runtime = try UntracedFixtureTests.runtime(file)
        let target = try runtime.createStateMachine(named: artboard, artboard: artboard)
        _ = try runtime.advance(target, elapsed: 0)
        return (runtime, target)
    }

    /// The value on the target of the artboard's data bind whose target `inspect --graph`
    /// describes as `component` (e.g. `CustomPropertyString 'for_enum'`) and `property`.
    static func boundValue(_ runtime: FileRuntime, _ target: String, artboard: String, component: String, property: String) throws
        -> PropertyValue?
    {
        let graph = runtime.schema.stateMachineGraphJSON
        let machine = graph["artboards"]?.arrayValue?.first { $0["name"]?.stringValue == artboard }?["stateMachines"]?.arrayValue?.first
        let binds = machine?["dataBinds"]?.arrayValue ?? []
        let position = try #require(
            binds.firstIndex { $0["target"]?.stringValue == component && $0["targetProperty"]?.stringValue == property },
            "no bind of \(component).\(property) on \(artboard)")
        let order = DataBindOrder.filePositions(toSource: binds.map { ["toSource", "twoWay"].contains($0["direction"]?.stringValue) })
        return try runtime.dataBindTargetValues(target)[try #require(order.firstIndex(of: position))]
    }

    /// Rive's "File with DataEnum": the enum `mycolor` reaches the event's custom property
    /// string through a to-string converter as "red3".
    @Test func aLibraryEnumReachesACustomPropertyAsItsName() throws {
        let (runtime, target) = try Self.started("library_data_enum_test", artboard: "my_artboard")
        #expect(try runtime.value(at: "mycolor", in: target) == .enumValue("red3"))
        let bound = try Self.boundValue(
            runtime, target, artboard: "my_artboard", component: "CustomPropertyString 'my_event_property'", property: "propertyValue")
        #expect(bound == .string("red3"))
    }

    /// Rive's "File with ViewModel": the library artboard `1` bound to view model `vm1` shows
    /// "hello", "uk", a 123 × 123 rectangle and the fill #FF0A0F42.
    @Test func aLibraryViewModelReachesEveryBoundPropertyType() throws {
        let (runtime, target) = try Self.started("library_view_model_test", artboard: "1")
        func bound(_ component: String, _ property: String) throws -> PropertyValue? {
            try Self.boundValue(runtime, target, artboard: "1", component: component, property: property)
        }
        #expect(try bound("CustomPropertyString 'for_string'", "propertyValue") == .string("hello"))
        #expect(try bound("CustomPropertyString 'for_enum'", "propertyValue") == .string("uk"))
        #expect(try bound("Rectangle #5", "width") == .number(123))
        #expect(try bound("Rectangle #5", "height") == .number(123))
        #expect(try bound("SolidColor #6", "colorValue") == .color(0xFF0A_0F42))
    }

    /// Rive's "Runtime artboard property exposes the bound artboard name": the artboard
    /// property `ab` names the artboard set last (`ch1`, then `ch2`), and none once cleared;
    /// the nested artboard bound to it takes the same artboard.
    @Test func anArtboardPropertyNamesTheArtboardSetLast() throws {
        var (runtime, target) = try Self.started("data_binding_artboards_test", artboard: "main")
        var command: UInt64 = 1
        for value in [PropertyValue.artboard("ch1"), .artboard("ch2"), .artboard(nil)] {
            try runtime.enqueue(QueuedCommand(id: command, command: .set(path: "ab", value: value)), on: target)
            command += 1
            let batches = try runtime.advance(target, elapsed: 0.016)
            #expect(batches.flatMap(\.rejected).isEmpty, "\(batches)")
            #expect(try runtime.value(at: "ab", in: target) == value)
            let bound = try Self.boundValue(
                runtime, target, artboard: "main", component: "NestedArtboardLayout #14", property: "artboardId")
            #expect(bound == value)
        }
    }
}
