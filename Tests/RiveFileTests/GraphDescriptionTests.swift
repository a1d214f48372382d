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

    /// An artboard's state machines written from a `.riv` file (with the file's converters,
    /// the artboard's events and data binds) and read back as a JSON schema file write the same
    /// description again, whenever the format describes all they hold (blend states, converters
    /// the evaluator does not run and the like are written for reading only, and such a
    /// description is refused with its path). A component without a name is written `Type #n`
    /// with its id, which only tells it apart: read back, it has another.
    func testRiveFilesStateMachinesReadBackAsWritten() throws {
        var readBack = 0
        var refused: [String] = []
        for name in try Self.fixtures() {
            let schema = try RiveFileReader.read(Fixtures.bytes(name))
            let written = schema.stateMachineGraphJSON
            let artboards = try XCTUnwrap(written["artboards"]?.arrayValue)
            for (a, artboard) in artboards.enumerated() {
                let machines = artboard["stateMachines"]?.arrayValue ?? []
                guard machines.contains(where: { $0.objectValue?.count ?? 0 > 1 }) else { continue }
                var document = schema.jsonValue(authoredValues: true)
                for (m, machine) in machines.enumerated() { document = Self.replacing(machine, artboard: a, machine: m, in: document) }
                if let converters = written["converters"], var members = document.objectValue {
                    members.append(("converters", converters))
                    document = .object(members)
                }
                let reread: FileSchema
                do {
                    reread = try FileSchema(json: document)
                } catch {
                    refused.append("\(name) \(artboard["name"]?.stringValue ?? ""): \(error)")
                    continue
                }
                let writtenAgain = reread.stateMachineGraphJSON
                let again = writtenAgain["artboards"]?.arrayValue?[a]
                XCTAssertEqual(try Self.unnumbered(again), try Self.unnumbered(artboard), "\(name): \(artboard["name"]?.stringValue ?? "")")
                XCTAssertEqual(writtenAgain["converters"], written["converters"], name)
                readBack += machines.count
            }
        }
        XCTAssertGreaterThanOrEqual(readBack, 60, "refused: \(refused.joined(separator: "\n"))")
        for reason in refused {
            XCTAssertTrue(reason.contains("artboards[") || reason.contains("converters["), "a refusal names its JSON path: \(reason)")
        }
    }

    /// The description with the numbers of unnamed components (`Type #7`) taken out.
    static func unnumbered(_ json: JSONValue?) throws -> JSONValue? {
        guard let text = json?.jsonText else { return nil }
        let cleaned = text.replacingOccurrences(of: #" #[0-9]+""#, with: #" #""#, options: .regularExpression)
        return try JSONParser().parse(cleaned)
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
