import Foundation
import RiveFile
import RiveSyncJSON
import RiveSyncModel
import XCTest

/// Rive's own files' state machines written in the JSON schema format's description
/// (`FileSchema.stateMachineGraphJSON`, what `inspect --graph --json` prints) and read back
/// (`protocol/SCHEMA.md`, "State machines"): one codec for both directions.
final class GraphDescriptionTests: XCTestCase {
    /// Every `.riv` fixture in `../shared/fixtures/riv/`.
    static func fixtures() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.directory.path)
            .filter { $0.hasSuffix(".riv") }.map { String($0.dropLast(4)) }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 30, "the fixtures directory holds Rive's test files")
        return names
    }

    /// A state machine written from a `.riv` file and read back as a JSON schema file writes
    /// the same description again (without the artboard's binds to its components), whenever the
    /// format describes all it holds (converters, events and blend states are written for
    /// reading only, and such a description is refused with its path).
    func testRiveFilesStateMachinesReadBackAsWritten() throws {
        var readBack = 0
        var refused: [String] = []
        for name in try Self.fixtures() {
            let schema = try RiveFileReader.read(Fixtures.bytes(name))
            let written = schema.stateMachineGraphJSON
            let artboards = try XCTUnwrap(written["artboards"]?.arrayValue)
            for (a, artboard) in artboards.enumerated() {
                for (m, whole) in (artboard["stateMachines"]?.arrayValue ?? []).enumerated() {
                    // The artboard's binds target its components, which a JSON schema file has not.
                    let machine = JSONValue.object((whole.objectValue ?? []).filter { $0.0 != "dataBinds" })
                    var document = schema.jsonValue(authoredValues: true)
                    document = Self.replacing(machine, artboard: a, machine: m, in: document)
                    let reread: FileSchema
                    do {
                        reread = try FileSchema(json: document)
                    } catch {
                        refused.append("\(name) \(artboard["name"]?.stringValue ?? "")/\(machine["name"]?.stringValue ?? ""): \(error)")
                        continue
                    }
                    let again = reread.stateMachineGraphJSON["artboards"]?.arrayValue?[a]["stateMachines"]?.arrayValue?[m]
                    XCTAssertEqual(again, machine, "\(name): \(artboard["name"]?.stringValue ?? "")/\(machine["name"]?.stringValue ?? "")")
                    readBack += 1
                }
            }
        }
        XCTAssertGreaterThanOrEqual(readBack, 95, "refused: \(refused.joined(separator: "\n"))")
        for reason in refused {
            XCTAssertTrue(reason.contains("artboards["), "a refusal names its JSON path: \(reason)")
        }
    }

    /// The document with artboard `a`'s state machine `m` replaced by its description.
    static func replacing(_ machine: JSONValue, artboard a: Int, machine m: Int, in document: JSONValue) -> JSONValue {
        guard var members = document.objectValue, let index = members.firstIndex(where: { $0.0 == "artboards" }),
            var artboards = members[index].1.arrayValue, var artboard = artboards[a].objectValue,
            let machinesIndex = artboard.firstIndex(where: { $0.0 == "stateMachines" }),
            var machines = artboard[machinesIndex].1.arrayValue
        else { return document }
        machines[m] = machine
        artboard[machinesIndex].1 = .array(machines)
        artboards[a] = .object(artboard)
        members[index].1 = .array(artboards)
        return .object(members)
    }
}
