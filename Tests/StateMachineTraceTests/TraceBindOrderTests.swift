import Foundation
import RiveFile
import RiveSyncJSON
import RiveSyncModel
import StateMachineTraceSupport
import Testing

/// A trace's `setTarget` step names a data bind by its number in Rive's list of the data binds
/// (the `binds` of its state lines: the artboard's own, then those of nested artboards), and a
/// client's `setBindTarget` by its number among the artboard's data binds as `inspect --graph`
/// numbers them (`DataBindOrder`): for every trace, Rive's list starts with ours, the same
/// component types and properties in the same order.
@Suite struct TraceBindOrderTests {
    /// `type property` of each bind in a trace's first state line.
    static func rivesBinds(_ trace: StateMachineTrace) -> [String] {
        (trace.states.first?["binds"]?.arrayValue ?? []).map { bind in
            let property = (bind["prop"]?.stringValue ?? "").split(separator: ".").last.map(String.init) ?? ""
            return "\(bind["type"]?.stringValue ?? "") \(property)"
        }
    }

    /// `type property` of each of the trace's artboard's data binds, in Rive's order.
    static func ourBinds(_ trace: StateMachineTrace) throws -> [String] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: trace.rivPath)))
        let schema = try RiveFileReader.read(bytes)
        let name = trace.header["artboard"]?.stringValue ?? schema.artboards.first?.name
        let artboard = schema.stateMachineGraphJSON["artboards"]?.arrayValue?.first { $0["name"]?.stringValue == name }
        let machine = artboard?["stateMachines"]?.arrayValue?.first { $0["dataBinds"] != nil }
        let binds = machine?["dataBinds"]?.arrayValue ?? []
        let order = DataBindOrder.filePositions(toSource: binds.map { ["toSource", "twoWay"].contains($0["direction"]?.stringValue) })
        return order.map { binds[$0] }.map { bind in
            let type = (bind["target"]?.stringValue ?? "").split(separator: " ").first.map(String.init) ?? ""
            return "\(type) \(bind["targetProperty"]?.stringValue ?? "")"
        }
    }

    @Test(arguments: StateMachineTrace.names)
    func aTracesBindsStartWithOursInRivesOrder(name: String) throws {
        let trace = try StateMachineTrace(named: name)
        let (ours, rives) = (try Self.ourBinds(trace), Self.rivesBinds(trace))
        #expect(rives.starts(with: ours), "\(name): ours \(ours), Rive's \(rives)")
    }

    /// Rive's reordering, on a list that shows it (the `saturation` trace's artboard).
    @Test func toSourceBindsMoveToTheFrontBySwaps() {
        #expect(DataBindOrder.filePositions(toSource: [false, true, false, false, true, true, false]) == [1, 4, 5, 3, 0, 2, 6])
        #expect(DataBindOrder.filePositions(toSource: [true, true]) == [0, 1])
        #expect(DataBindOrder.filePositions(toSource: []) == [])
    }
}
