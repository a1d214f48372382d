import RiveFile
import RiveSyncModel
import XCTest

/// What `rivesync inspect` prints for a `.riv` is the RiveSync JSON schema format: every fixture's
/// schema, written as JSON and loaded back by the JSON schema loader, is the same schema.
final class JSONShapeTests: XCTestCase {
    func testEveryFixtureSchemaSurvivesTheJSONSchemaFormat() throws {
        for name in Fixtures.names {
            let schema = try RiveFileReader.read(Fixtures.bytes(name))
            XCTAssertEqual(try FileSchema(json: schema.jsonValue), schema.metadata, name)
        }
    }
}
