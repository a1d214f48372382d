import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// The wire of a running state machine (PROTOCOL.md §8, §19): `advance`'s `elapsed`,
/// `advanced`'s `settled`, a batch's `elapsed`, `events`, `layers`, `settled` and its effects'
/// `by`, a listing's `layers` and `settled`.
@Suite struct StateMachineMessageTests {
    static func roundTrip(_ message: ServerMessage) throws -> (JSONValue, ServerMessage) {
        let parsed = try JSONParser().parse(message.serialized())
        return (parsed, try ServerMessage(parsed, types: try ServerMessageTests.types()))
    }

    static let layers = [
        LayerState(layer: 0, layerName: "Face", state: 3, kind: .animation, animation: "smile"),
        LayerState(layer: 1, layerName: "Body", state: 0, kind: .entry),
    ]

    @Test func advanceCarriesElapsedOnlyWhenAboveZero() throws {
        for (request, text) in [
            (ClientRequest.advance(target: "s", elapsed: 0.7), #"{"type":"advance","id":1,"target":"s","elapsed":0.7}"#),
            (ClientRequest.advance(target: "s"), #"{"type":"advance","id":1,"target":"s"}"#),
        ] {
            let wire = Request(id: 1, body: request).jsonValue
            #expect(wire.jsonText == text)
            #expect(try Request.decode(wire).get().body == request)
        }
    }

    @Test(arguments: [#""0.5""#, "-0.1", "60.5", "1e300", "true", "[1]"])
    func aBadElapsedIsABadMessageNamingIt(value: String) throws {
        let json = try JSONParser().parse(#"{"type": "advance", "target": "s", "elapsed": "# + value + "}")
        guard case .failure(let failure) = Request.decode(json) else {
            Issue.record("decoded elapsed \(value)")
            return
        }
        #expect(failure.error.code == .badMessage)
        #expect(failure.error.details.first { $0.0 == "field" }?.1 == "elapsed")
    }

    @Test func elapsedAtTheLimitsIsAccepted() throws {
        for value in ["0", "60", "null", "0.016666666666666666"] {
            let json = try JSONParser().parse(#"{"type": "advance", "target": "s", "elapsed": "# + value + "}")
            guard case .advance(_, let elapsed) = try Request.decode(json).get().body else {
                Issue.record("not an advance")
                continue
            }
            #expect(elapsed == (value == "null" ? 0 : Double(value)!))
        }
    }

    @Test func advancedSaysSettled() throws {
        let (json, decoded) = try Self.roundTrip(.advanced(target: "s", seq: 3, settled: false, id: 2))
        #expect(json.jsonText == #"{"type":"advanced","id":2,"target":"s","seq":3,"settled":false}"#)
        #expect(decoded == .advanced(target: "s", seq: 3, settled: false, id: 2))
        let old = try JSONParser().parse(#"{"type": "advanced", "id": 2, "target": "s", "seq": 3}"#)
        #expect(try ServerMessage(old, types: try ServerMessageTests.types()) == .advanced(target: "s", seq: 3, id: 2), "absent: settled")
    }

    @Test func aBatchCarriesWhatTheStateMachineDid() throws {
        let batch = ServerMessage.Batch(
            target: "s", epoch: "e", seq: 9,
            effects: [
                Effect(paths: ["head/t"], change: .fire(instance: InstanceID(2), property: "t")),
                Effect(
                    paths: ["head/x"], change: .set(instance: InstanceID(2), property: "x", value: .number(3), introduced: []),
                    origin: .stateMachine),
            ],
            commands: [41], elapsed: 0.25,
            events: [
                ReportedEvent(
                    name: "Cheer", delay: 0.125,
                    properties: [.init(name: "volume", value: .number(0.5)), .init(name: "who", value: .string("Ana"))]),
                ReportedEvent(name: "Done"),
            ],
            layers: [Self.layers[0]], settled: false)
        let (json, decoded) = try Self.roundTrip(.batch(batch))
        #expect(decoded == .batch(batch))
        #expect(json["elapsed"] == 0.25)
        #expect(json["settled"] == false)
        #expect(json["effects"]?.arrayValue?[0]["by"] == nil, "a client's fire has no by")
        #expect(json["effects"]?.arrayValue?[1]["by"] == "stateMachine")
        #expect(json["events"]?.arrayValue?[0].jsonText == #"{"name":"Cheer","delay":0.125,"properties":{"volume":0.5,"who":"Ana"}}"#)
        #expect(json["events"]?.arrayValue?[1].jsonText == #"{"name":"Done","delay":0}"#)
        #expect(json["layers"]?.jsonText == #"[{"layer":0,"name":"Face","state":3,"kind":"animation","animation":"smile"}]"#)
        let change = batch.changeBatch
        #expect(change.elapsed == 0.25 && change.events == batch.events && change.layers == batch.layers && !change.settled)
    }

    @Test func aBatchOfCommandsOnlyHasNoneOfThem() throws {
        let batch = ServerMessage.Batch(
            target: "s", epoch: "e", seq: 9, effects: [Effect(paths: ["head/t"], change: .fire(instance: InstanceID(2), property: "t"))],
            commands: [41])
        let (json, decoded) = try Self.roundTrip(.batch(batch))
        #expect(decoded == .batch(batch))
        for member in ["elapsed", "events", "layers", "settled"] { #expect(json[member] == nil, "\(member)") }
    }

    @Test(arguments: [
        #""by": "someone""#, #""kind": "walking""#, #""elapsed": -1"#, #""settled": "no""#,
    ])
    func aMalformedStateMachineMemberIsRefused(member: String) throws {
        let effect = member.hasPrefix(#""by""#) ? ", " + member : ""
        let layer = member.hasPrefix(#""kind""#) ? member : #""kind": "entry""#
        let other = member.hasPrefix(#""elapsed""#) || member.hasPrefix(#""settled""#) ? ", " + member : ""
        let text = """
            {"type": "batch", "target": "s", "epoch": "e", "seq": 1, "commands": [],
             "effects": [{"op": "fire", "paths": ["head/t"], "instance": 2, "property": "t"\(effect)}],
             "layers": [{"layer": 0, "name": "L", "state": 0, \(layer)}]\(other)}
            """
        let json = try JSONParser().parse(text)
        #expect(throws: ServerMessageDecodingError.self) { try ServerMessage(json, types: try ServerMessageTests.types()) }
    }

    @Test func aStateMachineListingShowsItsLayersAndSettledness() throws {
        var info = ServerMessageTests.info
        info.layers = Self.layers
        info.settled = true
        let (json, decoded) = try Self.roundTrip(.targets(ServerMessage.TargetPage(targets: [info], next: nil), id: 1))
        #expect(decoded == .targets(ServerMessage.TargetPage(targets: [info], next: nil), id: 1))
        #expect(
            json["targets"]?.arrayValue?[0]["layers"]?.arrayValue?[1].jsonText == #"{"layer":1,"name":"Body","state":0,"kind":"entry"}"#)
        #expect(json["targets"]?.arrayValue?[0]["settled"] == true)
        let published = ServerMessage.TargetInfo(name: "pub", file: "demo", kind: .instance, mode: .auto, rate: 30, seq: 0, bindings: [])
        let (plain, _) = try Self.roundTrip(.target(published, id: 2))
        #expect(plain["layers"] == nil && plain["settled"] == nil, "a published instance runs no state machine")
    }
}
