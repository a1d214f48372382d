import Foundation
import RiveFile
import RiveSyncJSON
import RiveSyncModel
import XCTest

/// What `rivesync inspect` prints for a `.riv` is the RiveSync JSON schema format: every fixture's
/// schema, written as JSON and loaded back by the JSON schema loader, is the same schema; with
/// its graph (what a journal keeps), the same schema bit for bit, through JSON text too.
final class JSONShapeTests: XCTestCase {
    func testEveryFixtureSchemaSurvivesTheJSONSchemaFormat() throws {
        for name in Fixtures.names {
            let schema = try RiveFileReader.read(Fixtures.bytes(name))
            XCTAssertEqual(try FileSchema(json: schema.jsonValue(authoredValues: true)), schema.metadata, name)
            XCTAssertEqual(try FileSchema(json: schema.jsonValue), schema, name)
            XCTAssertEqual(try FileSchema(jsonText: schema.jsonValue.jsonText), schema, name)
        }
    }

    /// Every `.riv` fixture, the state machine traces' ones included.
    func testEveryGraphSurvivesJSONText() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.directory.path)
            .filter { $0.hasSuffix(".riv") }.map { String($0.dropLast(4)) }
        XCTAssertGreaterThanOrEqual(names.count, 37)
        for name in names {
            let schema = try RiveFileReader.read(Fixtures.bytes(name))
            XCTAssertFalse(schema.graph.isEmpty, name)
            XCTAssertEqual(try RiveGraph(json: JSONParser(maxDepth: 64).parse(schema.graph.jsonValue.jsonText)), schema.graph, name)
        }
    }
}
