import RiveFile
import RiveSyncModel
import XCTest

/// The reader keeps every object of the stream, in order, with every property: the state
/// machine evaluator's input.
final class GraphTests: XCTestCase {
    /// `vm_listener_fire_event.riv` as `RIV-FORMAT.md` §2 walks it: a backboard, a view model
    /// "Document" with a trigger "go", its instance, then the artboard.
    func testTheGraphHoldsEveryObjectInStreamOrder() throws {
        let graph = try RiveFileReader.read(Fixtures.bytes("vm_listener_fire_event")).graph
        let objects = graph.objects
        XCTAssertGreaterThan(objects.count, 8)
        XCTAssertEqual(objects.prefix(5).map(\.typeKey), [23, 435, 502, 437, 501])
        XCTAssertEqual(objects[1].string(557), "Document")
        XCTAssertEqual(objects[2].string(557), "go")
        XCTAssertEqual(objects[3].uint(566), 0)
        XCTAssertEqual(objects[3].string(4), "Instance")
        XCTAssertEqual(objects[4].uint(554), 0)
        let artboard = try XCTUnwrap(objects.first { $0.typeKey == 1 })
        XCTAssertEqual(artboard.string(4), "Artboard")
        XCTAssertEqual(artboard.float(7), 100)
        XCTAssertEqual(artboard.uint(236), 0)
    }

    /// Objects of types the metadata reader does not interpret are kept too, with their
    /// properties.
    func testObjectsOfEveryTypeAreKept() throws {
        for name in Fixtures.names {
            let graph = try RiveFileReader.read(Fixtures.bytes(name)).graph
            XCTAssertTrue(graph.objects.contains { $0.typeKey == 1 }, "\(name): an artboard")
            XCTAssertTrue(graph.objects.contains { $0.typeKey == 53 }, "\(name): a state machine")
        }
    }
}
