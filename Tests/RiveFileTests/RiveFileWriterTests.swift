import Foundation
import RiveFile
import RiveSyncModel
import XCTest

/// `RiveFileWriter`: random schemas → writer → reader → the same schema; and the checked-in
/// `examples/quickstart.riv` (and `bench/peers/rooms.riv`) is exactly what the writer makes of
/// its schema.
final class RiveFileWriterTests: XCTestCase {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples")

    func testRandomSchemasRoundTripThroughTheReader() throws {
        var random = RandomSchema(generator: SplitMix64(seed: 0x5752_4954_4552))
        for round in 0..<300 {
            let schema = random.make()
            XCTAssertEqual(try RiveFileReader.read(RiveFileWriter.write(schema)).metadata, schema, "round \(round)")
        }
    }

    func testTheTableOfContentsListsEveryKeyFromTheFirstListedOnceWithItsFieldType() {
        let objects = [
            RiveFileObject(1, [.init(4, .string("Main")), .init(583, .uint(0))]),
            RiveFileObject(442, [.init(554, .uint(1)), .init(575, .float(2)), .init(583, .uint(1))]),
        ]
        let bytes = RiveFileWriter.encode(objects)
        // RIVE, 7, 3, file id 0, keys 583 554 575 (LEB128), 0, one word of 2-bit codes (0, 0, 2).
        XCTAssertEqual(
            Array(bytes.prefix(18)),
            Array("RIVE".utf8) + [7, 3, 0, 0xC7, 0x04, 0xAA, 0x04, 0xBF, 0x04, 0] + [0x20, 0, 0, 0])
    }

    /// `bench/peers/rooms.riv`, the rooms workload's `.riv` variant (`bench/run.py --room-files riv`),
    /// is what the writer makes of `rooms-riv.schema.json`, and its state machine reacts to a
    /// client's write: the listener on that property fires the event `wrote` in the same advance.
    func testTheBenchRoomsFileIsWhatTheWriterMakesOfItsSchemaAndFiresOnAWrite() throws {
        let peers = Self.examples.deletingLastPathComponent().appendingPathComponent("bench/peers")
        let source = try String(contentsOf: peers.appendingPathComponent("rooms-riv.schema.json"), encoding: .utf8)
        let written = RiveFileWriter.write(try FileSchema(jsonText: source))
        let file = peers.appendingPathComponent("rooms.riv")
        if ProcessInfo.processInfo.environment["RIVESYNC_WRITE_EXAMPLES"] == "1" { try Data(written).write(to: file) }
        let checkedIn = [UInt8](try Data(contentsOf: file))
        XCTAssertEqual(checkedIn, written, "bench/peers/rooms.riv differs: RIVESYNC_WRITE_EXAMPLES=1 rewrites it")
        var runtime = FileRuntime(schema: try RiveFileReader.read(checkedIn))
        let main = try runtime.createInstance(.blank(from: .name("Room")))
        try runtime.createStateMachine(named: "room-0", artboard: "Room", main: main)
        // A new state machine starts in its entry state: the daemon advances it until it settles.
        for _ in 0..<10 where !runtime.isSettled("room-0") { _ = try runtime.advance("room-0", elapsed: 1.0 / 60) }
        XCTAssertTrue(runtime.isSettled("room-0"))
        try runtime.enqueue(QueuedCommand(id: 1, command: .set(path: "client3", value: .string("~R3:0:1;"))), on: "room-0")
        let batches = try runtime.advance("room-0")
        XCTAssertEqual(batches.flatMap(\.events).map(\.name), ["wrote"])
        XCTAssertEqual(batches.flatMap(\.applied), [1])
    }

    func testTheQuickstartFileIsWhatTheWriterMakesOfItsSchema() throws {
        let source = try String(contentsOf: Self.examples.appendingPathComponent("quickstart.schema.json"), encoding: .utf8)
        let schema = try FileSchema(jsonText: source)
        let written = RiveFileWriter.write(schema)
        let file = Self.examples.appendingPathComponent("quickstart.riv")
        if ProcessInfo.processInfo.environment["RIVESYNC_WRITE_EXAMPLES"] == "1" { try Data(written).write(to: file) }
        let checkedIn = try Data(contentsOf: file)
        XCTAssertEqual([UInt8](checkedIn), written, "examples/quickstart.riv differs: RIVESYNC_WRITE_EXAMPLES=1 rewrites it")
        let read = try RiveFileReader.read([UInt8](checkedIn))
        XCTAssertEqual(read.metadata, schema.metadata)
        XCTAssertEqual(read.artboards.map(\.stateMachines), [["State Machine 1"]])
        let artboard = try XCTUnwrap(read.graph.objects.firstIndex { $0.typeKey == 1 })
        XCTAssertEqual(Array(read.graph.objects[artboard...]), schema.graph.objects, "the graph from the artboard on, as written")
    }
}

/// `RiveFileWriter.write(graph)` on every real fixture: the rewritten file reads as the same
/// schema, graph included.
final class RiveFileGraphWriterTests: XCTestCase {
    func testEveryFixtureRewrittenFromItsGraphReadsTheSame() throws {
        for name in Fixtures.names {
            let schema = try RiveFileReader.read(Fixtures.bytes(name))
            XCTAssertFalse(schema.graph.isEmpty, name)
            let rewritten = RiveFileWriter.write(schema.graph)
            XCTAssertEqual(try RiveFileReader.read(rewritten), schema, name)
        }
    }
}
