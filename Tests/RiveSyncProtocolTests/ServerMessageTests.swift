import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// Types for decoding in these tests: one file's schema for every target, and the view models
/// of the instances a replica would hold.
struct TestTypes: ServerMessageTypes {
    var schema: FileSchema
    var targets: Set<String>
    var viewModels: [InstanceID: String] = [:]

    func schema(ofTarget target: String) -> FileSchema? { targets.contains(target) ? schema : nil }
    func viewModel(of instance: InstanceID, inTarget target: String) -> String? { viewModels[instance] }
}

@Suite struct ServerMessageTests {
    static let schemaText = #"""
        {"viewModels": [
          {"name": "P", "properties": [{"name": "x", "type": "number"}, {"name": "c", "type": "color"}, {"name": "t", "type": "trigger"}]},
          {"name": "L", "properties": [{"name": "items", "type": "list"}, {"name": "head", "type": "viewModel", "viewModel": "P"}],
           "instances": [{"name": "d", "values": {}}]}],
         "artboards": [{"name": "A", "viewModel": "L", "stateMachines": ["s"]}]}
        """#

    /// The test schema for target "s", whose replica holds instance 2 (a "P").
    static func types() throws -> TestTypes {
        TestTypes(schema: try FileSchema(jsonText: schemaText), targets: ["s"], viewModels: [InstanceID(2): "P"])
    }

    static let p = InstanceState(
        id: InstanceID(2), viewModel: "P", name: "", values: ["x": .number(1.5), "c": .color(0xFF00_00FF), "t": .trigger(3)])
    static let bindings = [Binding(slot: .main, instance: InstanceID(1)), Binding(slot: .global("Theme"), instance: nil)]
    static let info = ServerMessage.TargetInfo(
        name: "s", file: "demo", kind: .stateMachine(artboard: "A", stateMachine: "s"), mode: .manual, rate: 60, seq: 4, bindings: bindings)

    /// One message of every type (and the variants of the ones with shapes).
    static let samples: [ServerMessage] = [
        .welcome(
            ServerMessage.Welcome(protocolVersion: 1, server: "rivesyncd/1", epoch: "e", limits: [.init(name: "maxTargets", value: 10)]),
            id: 1),
        .pong(id: "p"), .pong(id: nil), .filePart(name: "scene", received: 786_213, size: 5_000_000, id: 4),
        .files([ServerMessage.FileInfo(name: "demo", worker: 0, source: .config), .init(name: "up", worker: 1, source: .upload)], id: 2),
        .targets(ServerMessage.TargetPage(targets: [info], next: "s"), id: 3),
        .targets(ServerMessage.TargetPage(targets: [], next: nil), id: 3),
        .schema(file: "demo", schema: ["viewModels": []], id: 4), .names(["a", "b"], id: 5),
        .properties([ServerMessage.PropertyInfo(name: "x", type: .number, metaData: "")], id: 6),
        .enums([ServerMessage.EnumInfo(name: "Mood", values: ["happy", "sad"])], id: 7),
        .defaultViewModelInfo(viewModel: "L", instance: "d", id: 8),
        .instance(ServerMessage.CreatedInstance(instance: InstanceID(9), viewModel: "P", name: ""), id: 9),
        .target(info, id: 10),
        .target(ServerMessage.TargetInfo(name: "pub", file: "demo", kind: .instance, mode: .auto, rate: 30, seq: 0, bindings: []), id: 10),
        .targetDeleted(target: "s", freed: [InstanceID(2), InstanceID(3)], id: 11),
        .subscribed(ServerMessage.Subscribed(target: "s", epoch: "e", seq: 3, resumed: true), id: 12),
        .unsubscribed(target: "s", reason: nil, id: 13), .unsubscribed(target: "s", reason: .deleted, id: nil),
        .snapshot(
            ServerMessage.Snapshot(
                target: "s", epoch: "e", seq: 4, content: .target(bindings: bindings, instances: [p]), reason: nil, resumed: false),
            id: 14),
        .snapshot(
            ServerMessage.Snapshot(
                target: "s", epoch: "e", seq: 4, content: .values([.init(path: "head/x", value: 1.5)]), reason: .catchUp, resumed: nil),
            id: nil),
        .batch(
            ServerMessage.Batch(
                target: "s", epoch: "e", seq: 5,
                effects: [
                    Effect(paths: ["head/x"], change: .set(instance: InstanceID(2), property: "x", value: .number(2), introduced: [])),
                    Effect(
                        paths: ["items"],
                        change: .listInsert(
                            instance: InstanceID(1), property: "items", index: 0, item: InstanceID(7),
                            introduced: [
                                InstanceState(id: InstanceID(7), viewModel: "P", name: "", values: ["x": .number(0)])
                            ])),
                    Effect(paths: ["items/0/x"], change: .set(instance: InstanceID(7), property: "x", value: .number(4), introduced: [])),
                ],
                commands: [12, 13])),
        .ack(ServerMessage.Ack(target: "s", seq: 5, command: 12), id: 15),
        .value(ServerMessage.ValueReply(target: "s", seq: 5, path: "head/c", valueType: .color, value: .color(0xFF12_3456)), id: 16),
        .value(ServerMessage.ValueReply(target: "s", seq: 5, path: "img", valueType: .assetImage, value: .asset(nil)), id: 16),
        .advanced(target: "s", seq: 6, id: 17), .digest(target: "s", seq: 6, digest: "ab", id: 18),
        .asset(AssetReference(id: "sha256:00", byteCount: 4, mediaType: "image/png"), id: 19),
        .error(WireError(code: .typeMismatch, message: "m", details: [("path", "x")]), id: 20),
        .error(WireError(code: .badJSON, message: "m"), id: nil),
        .freshness(fresh: false), .freshness(fresh: true),
        .subscribed(ServerMessage.Subscribed(target: "s", epoch: "e", seq: 3, resumed: true, presence: []), id: 21),
        .snapshot(
            ServerMessage.Snapshot(
                target: "s", epoch: "e", seq: 4, content: .values([]), reason: nil, resumed: nil,
                presence: [PresenceEntry(member: MemberID(2), state: ["name": "Ana"])]),
            id: 22),
        .presence(
            PresenceMessage(
                target: "s", epoch: "e", seq: 4,
                changes: [.join(MemberID(3), state: [:]), .update(MemberID(2), state: ["x": 1]), .leave(MemberID(1), reason: .left)])),
        .presenceJoined(target: "s", member: MemberID(3), resumed: false, id: 23), .presenceUpdated(target: "s", id: 24),
        .presenceLeft(target: "s", id: nil),
        .presenceMembers(target: "s", seq: 4, members: [PresenceEntry(member: MemberID(2), state: ["name": "Ana"])], id: 25),
    ]

    @Test func samplesCoverEveryMessageType() {
        #expect(Set(Self.samples.map(\.type)) == Set(ServerMessageType.allCases))
    }

    /// What the daemon encodes, a client decodes to the same message (through the frame's bytes).
    @Test(arguments: samples)
    func everyMessageRoundTripsThroughItsBytes(message: ServerMessage) throws {
        let parsed = try JSONParser().parse(message.serialized())
        #expect(parsed["type"]?.stringValue == message.type.rawValue)
        #expect(try ServerMessage(parsed, types: try Self.types()) == message)
    }

    /// Field order is part of the bytes (digests and conformance cases compare them).
    @Test func encodingKeepsTheDocumentedFieldOrder() {
        #expect(
            ServerMessage.ack(ServerMessage.Ack(target: "s", seq: 5, command: 12), id: 1).jsonValue.jsonText
                == #"{"type":"ack","id":1,"target":"s","seq":5,"command":12}"#)
        #expect(
            ServerMessage.target(Self.info, id: 2).jsonValue.jsonText
                == #"{"type":"target","id":2,"target":"s","name":"s","file":"demo","kind":"stateMachine","artboard":"A","#
                + #""stateMachine":"s","mode":"manual","rate":60,"seq":4,"bindings":[{"slot":"main","instance":1},{"slot":"Theme","instance":null}]}"#
        )
    }

    @Test(arguments: [
        (#"[1]"#, ServerMessageDecodingError.notAMessage),
        (#"{"type": 3}"#, .notAMessage),
        (#"{"type": "nope", "id": 4}"#, .unknownType("nope", id: 4)),
        (#"{"type": "ack", "id": 1, "target": "s", "seq": 1}"#, .malformed(type: .ack, field: "command", reason: "missing")),
        (#"{"type": "ack", "target": "s", "seq": "1", "command": 2}"#, .malformed(type: .ack, field: "seq", reason: "expected an integer")),
        (
            #"{"type": "ack", "target": "s", "seq": -1, "command": 2}"#,
            .malformed(type: .ack, field: "seq", reason: "expected a non-negative integer")
        ),
        (#"{"type": "pong", "id": [1]}"#, .malformed(type: .pong, field: "id", reason: "expected an integer or a string")),
        (
            #"{"type": "value", "target": "s", "seq": 1, "path": "p", "valueType": "quaternion", "value": 1}"#,
            .malformed(
                type: .value, field: "valueType",
                reason: "'quaternion' is not one of \(DataType.allCases.map(\.rawValue).joined(separator: ", "))")
        ),
        (
            #"{"type": "value", "target": "s", "seq": 1, "path": "p", "valueType": "number", "value": "1"}"#,
            .malformed(type: .value, field: "value", reason: "'p': expected number, got string")
        ),
        (#"{"type": "error", "id": 2, "code": "brand_new", "message": "m"}"#, .unknownErrorCode("brand_new", message: "m", id: 2)),
        (#"{"type": "error", "code": "internal"}"#, .malformed(type: .error, field: "message", reason: "missing")),
        (
            #"{"type": "files", "files": [{"name": "f", "worker": 0, "source": "disk"}]}"#,
            .malformed(type: .files, field: "files[0].source", reason: "'disk' is not one of config, upload")
        ),
        (
            #"{"type": "batch", "target": "other", "epoch": "e", "seq": 1, "effects": [], "commands": []}"#,
            .untypedTarget(type: .batch, target: "other")
        ),
        (
            #"{"type": "snapshot", "target": "s", "epoch": "e", "seq": 1, "values": {}, "bindings": []}"#,
            .malformed(type: .snapshot, field: "values", reason: "a snapshot has values or bindings and instances, not both")
        ),
        (
            #"{"type": "batch", "target": "s", "epoch": "e", "seq": 1, "commands": [], "effects": [{"op": "set", "paths": ["q"], "instance": 99, "property": "x", "value": 1}]}"#,
            .untypedInstance(target: "s", seq: 1, instance: InstanceID(99))
        ),
        (
            #"{"type": "batch", "target": "s", "epoch": "e", "seq": 1, "commands": [], "effects": [{"op": "set", "paths": ["q"], "instance": 2, "property": "nope", "value": 1}]}"#,
            .malformed(type: .batch, field: "effects[0]", reason: "no property at 'nope'")
        ),
        (
            #"{"type": "unsubscribed", "target": "s", "reason": "bored"}"#,
            .malformed(type: .unsubscribed, field: "reason", reason: "'bored' is not one of deleted")
        ),
    ])
    func malformedMessagesAreTypedErrors(text: String, expected: ServerMessageDecodingError) throws {
        let json = try JSONParser().parse(text)
        #expect(throws: expected) { try ServerMessage(json, types: try Self.types()) }
    }

    /// PROTOCOL.md §14: a newer daemon may add optional fields; they are ignored.
    @Test func unknownFieldsAreIgnored() throws {
        let json = try JSONParser().parse(#"{"type": "advanced", "id": 1, "target": "s", "seq": 2, "since": "later"}"#)
        #expect(try ServerMessage(json, types: NoTargetTypes()) == .advanced(target: "s", seq: 2, id: 1))
    }
}
