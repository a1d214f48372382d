import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

@Suite struct ProtocolTests {
    static let requests: [ClientRequest] = [
        .hello(protocols: [1], token: "t", client: "c"), .listFiles, .listTargets(.first), .describe(file: "demo"),
        .listTargets(TargetPage(limit: 5, after: "lobby")),
        .instanceNames(file: "demo", viewModel: "Theme"), .stateMachineNames(file: "demo", artboard: nil),
        .defaultViewModelInfo(file: "demo", artboard: "Lobby"),
        .createInstance(file: "demo", source: .name("Dark", from: .name("Theme")), publish: "dark"),
        .createInstance(file: "demo", source: .blank(from: .artboardDefault(nil)), publish: nil),
        .createInstance(file: "demo", source: .index(1, from: .artboardDefault("Lobby")), publish: nil),
        .createStateMachine(
            StateMachineRequest(
                file: "demo", name: "c2", artboard: "Character", stateMachine: "character", main: InstanceID(3),
                globals: [GlobalBinding(name: "Theme", instance: InstanceID(4))], manual: true, rate: 30)),
        .bind(target: "c2", main: nil, globals: [GlobalBinding(name: "Theme", instance: InstanceID(5))]),
        .subscribe(target: "character", paths: ["mood"], cursor: Cursor(epoch: "e1", seq: 4)),
        .set(target: "character", path: "mood", value: 5), .fire(target: "character", path: "yes"),
        .listInsert(target: "lobby", path: "players", index: 0, instance: InstanceID(9)),
        .listSwap(target: "lobby", path: "players", index: 0, with: 1), .advance(target: "character"), .digest(target: "lobby"), .ping,
        .upload(kind: "image", data: [0x89, 0x50, 0x4E, 0x47], mediaType: "image/png"),
        .loadFile(name: "x", content: .riv([1, 2, 3])), .loadFile(name: "y", content: .schema(["viewModels": []])),
        .loadFile(name: "z", content: .riv([4, 5]), part: FilePart(offset: 3, size: 5)),
    ]

    @Test(arguments: requests)
    func requestsRoundTripThroughTheirWireForm(request: ClientRequest) throws {
        let wire = Request(id: 7, body: request).jsonValue
        let text = wire.jsonText
        let parsed = try JSONParser().parse(text)
        let decoded = try Request.decode(parsed).get()
        #expect(decoded.body == request)
        #expect(decoded.id == 7)
    }

    @Test(arguments: [
        (#"{"type": "nope"}"#, "unknown_type"),
        (#"{"id": 3}"#, "bad_message"),
        (#"{"type": "set", "target": "t", "path": "p"}"#, "bad_message"),
        (#"{"type": "listAppend", "target": "t", "path": "p", "instance": -1}"#, "bad_message"),
        (#"{"type": "hello", "protocol": []}"#, "bad_message"),
        (#"{"type": "createStateMachine", "file": "f", "mode": "fast"}"#, "bad_message"),
        (#"{"type": "upload", "kind": "image", "data": "***"}"#, "bad_message"),
        (#"[1]"#, "bad_message"),
        (#"{"type": "ping", "id": {"x": 1}}"#, "bad_message"),
    ])
    func badRequestsGiveTypedErrors(text: String, code: String) throws {
        let json = try JSONParser().parse(text)
        guard case .failure(let failure) = Request.decode(json) else {
            Issue.record("decoded \(text)")
            return
        }
        #expect(failure.error.code.rawValue == code)
    }

    @Test func errorIdIsEchoedWhenReadable() throws {
        let json = try JSONParser().parse(#"{"type": "get", "id": "abc"}"#)
        guard case .failure(let failure) = Request.decode(json) else {
            Issue.record("a get without target decoded")
            return
        }
        #expect(failure.id == "abc")
        #expect(
            ServerMessage.error(failure.error, id: failure.id).jsonValue.jsonText
                == #"{"type":"error","id":"abc","code":"bad_message","message":"field 'target': expected a string","details":{"field":"target"}}"#
        )
    }

    @Test func valuesEncodeByType() throws {
        #expect(ValueCodec.encode(.number(0.1)).jsonText == "0.1")
        #expect(ValueCodec.encode(.color(0xFF12_3456)).jsonText == "\"#FF123456\"")
        #expect(ValueCodec.encode(.viewModel(InstanceID(4))).jsonText == #"{"instance":4}"#)
        #expect(try ValueCodec.decode("#123456", as: .color, path: "c") == .color(0xFF12_3456))
        #expect(try ValueCodec.decode(0.1, as: .number, path: "n") == .number(0.1))
        #expect(throws: PropertyError.typeMismatch(path: "n", expected: "number", actual: "string")) {
            try ValueCodec.decode("1", as: .number, path: "n")
        }
        #expect(throws: PropertyError.self) { try ValueCodec.decode(1e300, as: .number, path: "n") }
        #expect(throws: PropertyError.self) { try ValueCodec.decode("red", as: .color, path: "c") }
    }

    @Test func modelErrorsMapToStableCodes() {
        #expect(WireError(PropertyError.noSuchProperty(path: "x")).code == .noSuchProperty)
        #expect(WireError(StateMachineError.duplicateGlobalViewModelInstance("T")).code == .duplicateGlobalViewModelInstance)
        #expect(WireError(ArtboardError.invalidStateMachine("s")).code == .invalidStateMachine)
        #expect(WireError(FileError.invalidViewModel("v")).code == .invalidViewModel)
        let error = WireError(PropertyError.indexOutOfRange(path: "l", index: 3, count: 2))
        #expect(
            ServerMessage.error(error, id: 1).jsonValue.jsonText
                == #"{"type":"error","id":1,"code":"index_out_of_range","message":"'l': index 3 outside 0..<2","details":{"path":"l","index":3,"count":2}}"#
        )
    }

    /// Batches encoded by the daemon and decoded by a client drive a replica to the source's digest.
    @Test func encodedBatchesKeepAReplicaConverged() throws {
        let schema = try FileSchema(
            jsonText: #"""
                {"viewModels": [
                  {"name": "P", "properties": [{"name": "x", "type": "number"}, {"name": "c", "type": "color"}, {"name": "t", "type": "trigger"}]},
                  {"name": "L", "properties": [{"name": "items", "type": "list"}, {"name": "head", "type": "viewModel", "viewModel": "P"}],
                   "instances": [{"name": "d", "values": {}}]}],
                 "artboards": [{"name": "A", "viewModel": "L", "stateMachines": ["s"]}]}
                """#)
        var runtime = FileRuntime(schema: schema)
        try runtime.createStateMachine(artboard: "A")
        let snapshot = try runtime.snapshot(of: "s")
        let snapshotJSON = ServerMessage.snapshot(
            ServerMessage.Snapshot(
                target: "s", epoch: "e", seq: snapshot.seq, content: .target(bindings: snapshot.bindings, instances: snapshot.instances),
                reason: nil, resumed: nil),
            id: nil
        ).jsonValue
        var replica = Replica(snapshot: try StateCodec.decodeSnapshot(snapshotJSON, target: "s", schema: schema))
        for round in 0..<20 {
            let p = try runtime.createInstance(.blank(from: .name("P")))
            let commands: [Command] = [
                .listAppend(path: "items", instance: p), .set(path: "items/\(round)/x", value: .number(Float(round) / 3)),
                .set(path: "items/0/c", value: .color(UInt32(round))), .fire(path: "items/0/t"),
                .set(path: "head", value: .viewModel(p)), .listSwap(path: "items", index: 0, with: round),
            ]
            for (i, command) in commands.enumerated() { try runtime.enqueue(QueuedCommand(id: UInt64(i), command: command), on: "s") }
            for batch in try runtime.advance("s") {
                let wire = try JSONParser().parse(
                    ServerMessage.batch(ServerMessage.Batch(batch, epoch: "e", effects: batch.effects)).serialized())
                let decoded = try StateCodec.decodeBatch(wire, schema: schema, replica: replica)
                #expect(decoded.effects == batch.effects && decoded.applied == batch.applied)
                try replica.apply(decoded)
            }
        }
        #expect(replica.digest == (try runtime.digest(of: "s")))
    }
}
