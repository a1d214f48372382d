import Foundation
import RiveFile
import RiveSyncModel
import StateMachineTraceSupport
import Testing

/// The `.riv` files of `../shared/fixtures/riv` that no handed-over trace uses (hidden traces
/// may): each is read by our reader, and every artboard's default state machine (else its
/// first) runs with the artboard's default instance for a few advances, as a trace runner
/// would drive it. No advance may fail or reject anything, and a replica applying the batches
/// must hold what the runtime holds after each one (the batches carry everything the state
/// machine did).
@Suite struct UntracedFixtureTests {
    static let files = [
        "component_stateful_vm_instance", "data_bind_blob_test", "data_bind_font_test", "data_binding_artboards_test",
        "data_binding_images_test", "inventory_demo_test_v2", "library_data_enum_test", "library_view_model_test", "list_to_path",
        "scripted_boolean", "scripted_color", "scripted_enum", "scripted_string", "stateful_list_props",
    ]

    /// A trace runner's advances: Rive's first advance, frames, then longer steps.
    static let advances: [Double] = [0] + Array(repeating: 0.016, count: 10) + [0.1, 0.5, 1, 2]

    static func runtime(_ name: String) throws -> FileRuntime {
        let path = StateMachineTrace.directory + "/../riv/\(name).riv"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return FileRuntime(schema: try RiveFileReader.read(bytes))
    }

    @Test func noTraceUsesTheseFiles() throws {
        let used = Set(try StateMachineTrace.names.map { try StateMachineTrace(named: $0).rivPath })
        for name in Self.files {
            #expect(!used.contains { $0.hasSuffix("/\(name).riv") }, "\(name) has a trace now: drop it here")
        }
    }

    @Test(arguments: files)
    func everyArtboardsStateMachineRuns(name: String) throws {
        var runtime = try Self.runtime(name)
        #expect(!runtime.schema.artboards.isEmpty, "\(name) has no artboard")
        for artboard in runtime.schema.artboards where !artboard.stateMachines.isEmpty {
            let target = try runtime.createStateMachine(named: "\(artboard.name) machine", artboard: artboard.name)
            var replica = Replica(snapshot: try runtime.snapshot(of: target))
            for (step, seconds) in Self.advances.enumerated() {
                let batches = try runtime.advance(target, elapsed: seconds)
                for batch in batches where batch.target == target {
                    #expect(batch.rejected.isEmpty, "\(name) \(artboard.name) advance \(step): \(batch.rejected)")
                    try replica.apply(batch)
                }
                #expect(replica.digest == (try runtime.digest(of: target)), "\(name) \(artboard.name) advance \(step)")
            }
        }
    }
}
