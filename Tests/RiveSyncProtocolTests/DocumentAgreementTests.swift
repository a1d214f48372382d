import Foundation
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// PROTOCOL.md, the JSON Schemas and the code name the same error codes, close codes and
/// server message types: each list is compared with the code's both ways.
@Suite struct DocumentAgreementTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The part of PROTOCOL.md from the heading starting `start` to the next `## ` heading.
    static func section(_ start: String) throws -> String {
        let document = try text("protocol/PROTOCOL.md")
        let begin = try #require(document.range(of: "\n" + start))
        let rest = document[begin.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    static func matches(_ pattern: String, in text: String) throws -> [String] {
        let regex = try Regex(pattern)
        return text.matches(of: regex).map { String(text[$0.range]) }
    }

    func expectSame(_ documented: Set<String>, _ coded: Set<String>, _ what: String) {
        #expect(documented.subtracting(coded).isEmpty, "\(what) documented but not in the code: \(documented.subtracting(coded).sorted())")
        #expect(coded.subtracting(documented).isEmpty, "\(what) in the code but not documented: \(coded.subtracting(documented).sorted())")
        #expect(!documented.isEmpty)
    }

    @Test func errorCodesOfSection13AreTheCodesOfWireErrorCode() throws {
        let section = try Self.section("## 13. Error codes")
        let table = section.split(separator: "\n").filter { $0.hasPrefix("| `") }
        var documented: Set<String> = []
        for row in table {
            let firstCell = row.split(separator: "|", omittingEmptySubsequences: true)[0]
            for code in try Self.matches("`[a-z_]+`", in: String(firstCell)) { documented.insert(String(code.dropFirst().dropLast())) }
        }
        expectSame(documented, Set(WireErrorCode.allCases.map(\.rawValue)), "error codes (PROTOCOL.md §13)")
    }

    @Test func errorCodesOfTheSchemasAreTheCodesOfWireErrorCode() throws {
        let common = try JSONParser().parse(try Self.text("protocol/schemas/common.schema.json"))
        let items = try #require(common["$defs"]?["errorCode"]?["enum"]?.arrayValue)
        let documented = Set(items.compactMap(\.stringValue))
        #expect(documented.count == items.count)
        expectSame(documented, Set(WireErrorCode.allCases.map(\.rawValue)), "error codes (common.schema.json errorCode)")
    }

    @Test func closeCodesOfSection12AreTheCasesOfCloseCode() throws {
        let section = try Self.section("## 12. Limits and close codes")
        let paragraph = try #require(section.range(of: "Close codes:")).upperBound
        let rest = section[paragraph...]
        let text = String(rest[..<(rest.range(of: "\n\n")?.lowerBound ?? rest.endIndex)])
        let documented = Set(try Self.matches(#"\*\*1[0-9]{3}\*\*"#, in: text).map { String($0.dropFirst(2).dropLast(2)) })
        expectSame(documented, Set(CloseCode.allCases.map { String($0.rawValue) }), "close codes (PROTOCOL.md §12)")
    }

    @Test func serverMessageSchemasAreTheCasesOfServerMessage() throws {
        let directory = Self.root.appendingPathComponent("protocol/schemas/server")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".schema.json") }
        var documented: Set<String> = []
        for file in files {
            let schema = try JSONParser().parse(try Self.text("protocol/schemas/server/" + file))
            let type = try #require(schema["properties"]?["type"]?["const"]?.stringValue, "\(file) has no type const")
            #expect(file == type + ".schema.json")
            documented.insert(type)
        }
        expectSame(documented, Set(ServerMessageType.allCases.map(\.rawValue)), "server message types (protocol/schemas/server)")
    }

    /// Every request type that has a schema in protocol/schemas/client is one the decoder
    /// knows (an empty one is refused for its fields, never as `unknown_type`), and a type with
    /// no schema is `unknown_type`.
    @Test func clientRequestSchemasAreTypesTheDecoderKnows() throws {
        let directory = Self.root.appendingPathComponent("protocol/schemas/client")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".schema.json") }
        #expect(files.count > 30)
        var types: Set<String> = []
        for file in files {
            let schema = try JSONParser().parse(try Self.text("protocol/schemas/client/" + file))
            let type = try #require(schema["properties"]?["type"]?["const"]?.stringValue, "\(file) has no type const")
            #expect(file == type + ".schema.json")
            types.insert(type)
            if case .failure(let refusal) = Request.decode(["type": .string(type)]) {
                #expect(refusal.error.code != .unknownType, "\(type) has a schema but the decoder does not know it")
            }
        }
        let unknown = "noSuchRequest"
        #expect(!types.contains(unknown))
        guard case .failure(let refusal) = Request.decode(["type": .string(unknown)]) else {
            Issue.record("a request type with no schema was decoded")
            return
        }
        #expect(refusal.error.code == .unknownType)
    }

    /// Every error code PROTOCOL.md, CLUSTER.md, the README and the user documents of `docs/`
    /// name anywhere (a backquoted `snake_case` word: the protocol's fields and settings are
    /// camelCase; the Prometheus metrics, `rivesync_…` and `process_…`, aside) is one the daemon
    /// sends. The state machine documents name Rive's traces in `snake_case` and are left out.
    @Test func everyErrorCodeNamedInTheDocumentsIsAWireErrorCode() throws {
        let coded = Set(WireErrorCode.allCases.map(\.rawValue))
        let userDocuments = ["CLI", "CONFIGURATION", "HOW-IT-WORKS", "OPERATING", "RUNNING-A-CLUSTER"].map { "docs/\($0).md" }
        for document in ["protocol/PROTOCOL.md", "protocol/CLUSTER.md", "README.md"] + userDocuments {
            let named = Set(try Self.matches("`[a-z]+(_[a-z]+)+`", in: try Self.text(document)).map { String($0.dropFirst().dropLast()) })
                .filter { !$0.hasPrefix("rivesync_") && !$0.hasPrefix("process_") }
            #expect(named.subtracting(coded).isEmpty, "named in \(document) but not error codes: \(named.subtracting(coded).sorted())")
            if document.hasPrefix("protocol/") { #expect(!named.isEmpty, "\(document) names no error code") }
        }
    }

    /// Every WebSocket close code PROTOCOL.md mentions anywhere (1000–1015, or the
    /// application range 4000–4999) is a case of `CloseCode`.
    @Test func everyCloseCodeMentionedInPROTOCOLmdIsACloseCode() throws {
        let document = try Self.text("protocol/PROTOCOL.md")
        let mentioned = Set(try Self.matches(#"\b(10(0[0-9]|1[0-5])|4[0-9]{3})\b"#, in: document))
        let coded = Set(CloseCode.allCases.map { String($0.rawValue) })
        #expect(
            mentioned.subtracting(coded).isEmpty, "mentioned in PROTOCOL.md but not close codes: \(mentioned.subtracting(coded).sorted())")
        #expect(coded.subtracting(mentioned).isEmpty, "close codes PROTOCOL.md never mentions: \(coded.subtracting(mentioned).sorted())")
    }

    /// Every relative link of the protocol's documents leads to a file or directory that exists
    /// (PROTOCOL.md once pointed at a `schemas/proposed/` that never did).
    @Test func everyRelativeLinkOfTheProtocolDocumentsExists() throws {
        let documents = ["PROTOCOL.md", "CLUSTER.md", "SCHEMA.md", "JSON-CONFORMANCE.md", "schemas/README.md"].map { "protocol/" + $0 }
        var checked = 0
        for document in documents {
            let text = try Self.text(document)
            let base = Self.root.appendingPathComponent(document).deletingLastPathComponent()
            for link in try Self.matches(#"\]\([^)\s]+\)"#, in: text) {
                let target = String(link.dropFirst(2).dropLast()).split(separator: "#", omittingEmptySubsequences: false)[0]
                guard !target.isEmpty, !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                checked += 1
                let path = base.appendingPathComponent(String(target)).standardizedFileURL.path
                #expect(FileManager.default.fileExists(atPath: path), "\(document) links to \(target), which does not exist")
            }
        }
        #expect(checked > 10)
    }

    /// The enum at `pointer` (keys, then array indices as strings) of a schema file.
    static func schemaEnum(_ file: String, _ pointer: [String]) throws -> Set<String> {
        var node = try JSONParser().parse(try text("protocol/schemas/" + file))
        for key in pointer {
            if let index = Int(key), let items = node.arrayValue { node = items[index] } else { node = node[key] ?? .null }
        }
        let items = try #require(node["enum"]?.arrayValue, "no enum at \(pointer) in \(file)")
        return Set(items.compactMap(\.stringValue))
    }

    /// Every other enum of the schemas is the code's enum, both ways: value types, asset kinds,
    /// advance modes, file sources, the reasons of `unsubscribed`, `snapshot` and a presence leave.
    @Test func theSchemasEnumsAreTheCodesEnums() throws {
        let types = Set(DataType.allCases.map(\.rawValue))
        expectSame(try Self.schemaEnum("common.schema.json", ["$defs", "dataType"]), types, "value types (common dataType)")
        expectSame(
            try Self.schemaEnum("file-schema.schema.json", ["$defs", "property", "properties", "type"]), types,
            "value types (file-schema property type)")
        expectSame(
            try Self.schemaEnum("file-schema.schema.json", ["properties", "assets", "items", "properties", "kind"]),
            Set(FileAssetSchema.Kind.allCases.map(\.rawValue)), "asset kinds (file-schema)")
        let modes = Set(ServerMessage.AdvanceMode.allCases.map(\.rawValue))
        expectSame(try Self.schemaEnum("common.schema.json", ["$defs", "targetInfo", "properties", "mode"]), modes, "modes (targetInfo)")
        expectSame(try Self.schemaEnum("server/target.schema.json", ["properties", "mode"]), modes, "modes (target)")
        expectSame(
            try Self.schemaEnum("client/createStateMachine.schema.json", ["properties", "mode"]), modes, "modes (createStateMachine)")
        expectSame(
            try Self.schemaEnum("server/files.schema.json", ["properties", "files", "items", "properties", "source"]),
            Set(ServerMessage.FileSource.allCases.map(\.rawValue)), "file sources (files)")
        expectSame(
            try Self.schemaEnum("server/unsubscribed.schema.json", ["properties", "reason"]),
            Set(ServerMessage.UnsubscribeReason.allCases.map(\.rawValue)), "unsubscribed reasons")
        expectSame(
            try Self.schemaEnum("server/snapshot.schema.json", ["properties", "reason"]),
            Set(ServerMessage.SnapshotReason.allCases.map(\.rawValue)), "snapshot reasons")
        expectSame(
            try Self.schemaEnum("server/presence.schema.json", ["properties", "changes", "items", "oneOf", "1", "properties", "reason"]),
            Set(LeaveReason.allCases.map(\.rawValue)), "presence leave reasons")
    }
}
