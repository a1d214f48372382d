import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// `ack` and `batch` are written straight into their bytes (`ServerMessage+Direct.swift`):
/// the bytes must be exactly those of the message's `jsonValue`, member order included.
struct DirectEncodingTests {
    static func set(_ path: String, _ value: PropertyValue, origin: EffectOrigin = .command) -> Effect {
        Effect(
            paths: [path, "alias/\(path)"], change: .set(instance: InstanceID(12), property: path, value: value, introduced: []),
            origin: origin)
    }

    /// A trigger fired and a set that introduces an instance (encoded through `StateCodec`).
    static let rarerEffects = [
        Effect(paths: ["head/t"], change: .fire(instance: InstanceID(2), property: "t")),
        Effect(
            paths: ["list"],
            change: .set(
                instance: InstanceID(2), property: "child", value: .viewModel(InstanceID(5)),
                introduced: [InstanceState(id: InstanceID(5), viewModel: "Item", name: "", values: ["x": .number(1)])])),
    ]

    static let messages: [ServerMessage] = [
        .ack(ServerMessage.Ack(target: "room-1", seq: 7, command: 4_294_967_301, commands: nil), id: .number(3)),
        .ack(ServerMessage.Ack(target: "ro\"om", seq: 0, command: 1, commands: [1, 2, 3]), id: .string("a\nb")),
        .ack(ServerMessage.Ack(target: "r", seq: 1 << 60, command: 2, commands: []), id: nil),
        .ack(ServerMessage.Ack(target: "r", seq: 1, command: 2, commands: nil), id: .object([("k", .array([.null, .bool(true)]))])),
        .batch(ServerMessage.Batch(target: "room-1", epoch: "e~2", seq: 9, effects: [], commands: [])),
        .batch(
            ServerMessage.Batch(
                target: "room-1", epoch: "e", seq: 10,
                effects: [
                    set("client3", .number(0.25)), set("name", .string("Ana \"B\"")), set("on", .boolean(true), origin: .stateMachine),
                ] + rarerEffects,
                commands: [41, 42], authors: [Author(client: "c", token: nil), nil], elapsed: 0.5,
                events: [ReportedEvent(name: "Done")],
                layers: [LayerState(layer: 0, layerName: "Face", state: 3, kind: .animation, animation: "smile")], settled: false)),
        // Authors and the state machine's members without events or layers: written directly.
        .batch(
            ServerMessage.Batch(
                target: "room-2", epoch: "e", seq: 11, effects: [set("client1", .number(3))], commands: [5, 6, 7],
                authors: [Author(client: "c\"1", token: "t"), Author(client: nil, token: "t2"), Author(client: nil, token: nil)],
                elapsed: 0.016, settled: false)),
        .batch(
            ServerMessage.Batch(
                target: "room-2", epoch: "e", seq: 1 << 53, effects: [], commands: [(1 << 53) + 1], authors: [], elapsed: 0.25)),
    ]

    @Test(arguments: messages)
    func directBytesAreTheMessagesJSON(_ message: ServerMessage) {
        #expect(String(decoding: message.serialized(), as: UTF8.self) == message.jsonValue.jsonText)
    }

    /// Integral numbers are written digit by digit (no `String` made for them).
    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (7, "7"), (-7, "-7"), (10, "10"), (1_234_567_890, "1234567890"),
        (-9_007_199_254_740_991, "-9007199254740991"), (9_007_199_254_740_991, "9007199254740991"), (0.5, "0.5"),
        (9_007_199_254_740_992, "9007199254740992.0"),
    ])
    func integersAreWrittenAsTheirDigits(_ number: Double, _ text: String) {
        #expect(JSONValue.number(number).jsonText == text)
    }

    /// An unsigned integer is written as the `Double` it is sent as would be.
    @Test(arguments: [0, 1, 42, 9_007_199_254_740_991, 9_007_199_254_740_992, 1 << 60, UInt64.max])
    func unsignedIntegersAreWrittenAsTheirDouble(_ number: UInt64) {
        var out: [UInt8] = []
        JSONValue.writeNumber(number, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == JSONValue.number(Double(number)).jsonText)
    }
}
