import Foundation
import RiveFile
import RiveSyncModel

/// One room shape for the state machine benchmark: a real `.riv` from `../shared/fixtures/riv/`,
/// the artboard whose state machine each room runs, the instance it binds, and the client write
/// each room gets per advance (one that the state machine reacts to).
struct RoomsFixture: Sendable {
    var file: String
    var artboard: String
    var instance: InstanceSource
    /// What the write does, for the report.
    var writeDescription: String
    /// The `n`th write a room gets.
    var write: @Sendable (Int) -> Command

    /// `listener_view_model.riv`: view-model listeners (num1 → num2 → num3, through a converter
    /// on the trigger's path) write the view model; the write sets `num1`.
    static let listeners = RoomsFixture(
        file: "listener_view_model.riv", artboard: "main",
        instance: .name("Instance", from: .name("vm1")),
        writeDescription: "set num1 (listeners write num2, num3)",
        write: { n in .set(path: "num1", value: .number(Float(n % 1000))) })

    /// `data_binding_test.riv` artboard-2: enum- and trigger-conditioned transitions into
    /// animation states whose timelines run; the write cycles the enum `state`, every fourth a
    /// fire of `trigger-prop`.
    static let enumTransitions = RoomsFixture(
        file: "data_binding_test.riv", artboard: "artboard-2",
        instance: .blank(from: .name("vm2")),
        writeDescription: "set state red/green/blue, fire trigger-prop (transitions, timelines)",
        write: { n in
            let colors = ["state-red", "state-green", "state-blue"]
            return n % 4 == 3 ? .fire(path: "trigger-prop") : .set(path: "state", value: .enumValue(colors[n % 3]))
        })

    /// The fixtures directory: `RIV_FIXTURES`, else `../shared/fixtures/riv` beside the repository.
    static var directory: URL {
        if let path = ProcessInfo.processInfo.environment["RIV_FIXTURES"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures/riv")
    }

    /// The file's schema as the daemon reads it (graph included).
    func schema() throws -> FileSchema {
        let url = Self.directory.appendingPathComponent(file)
        return try RiveFileReader.read([UInt8](Data(contentsOf: url)))
    }
}
