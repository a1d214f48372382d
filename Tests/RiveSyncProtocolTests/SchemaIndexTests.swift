import Foundation
import Testing

/// protocol/schemas/README.md indexes every schema file of `client/` and `server/`, and every
/// file it links to exists.
@Suite struct SchemaIndexTests {
    @Test func theIndexListsEverySchemaAndOnlySchemasThatExist() throws {
        let schemas = DocumentAgreementTests.root.appendingPathComponent("protocol/schemas")
        let index = try DocumentAgreementTests.text("protocol/schemas/README.md")
        let linked = Set(
            try DocumentAgreementTests.matches(#"\]\((client|server)/[A-Za-z]+\.schema\.json\)"#, in: index).map {
                String($0.dropFirst(2).dropLast())
            })
        var present: Set<String> = []
        for side in ["client", "server"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: schemas.appendingPathComponent(side).path)
            present.formUnion(files.filter { $0.hasSuffix(".schema.json") }.map { side + "/" + $0 })
        }
        #expect(present.subtracting(linked).isEmpty, "schemas missing from the index: \(present.subtracting(linked).sorted())")
        #expect(
            linked.subtracting(present).isEmpty, "the index links to schemas that do not exist: \(linked.subtracting(present).sorted())")
        #expect(present.count > 40)
    }
}
