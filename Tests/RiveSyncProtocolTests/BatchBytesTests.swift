import RiveSyncJSON
import RiveSyncModel
import Testing

@testable import RiveSyncProtocol

/// A batch and its acks are written straight from the advance's `ChangeBatch`
/// (`ServerMessage.batchBytes`, `ackBytes`): byte for byte what `.batch(Batch(…))` and `.ack`
/// encode, in the room first reserved for them.
struct BatchBytesTests {
    static func set(_ instance: UInt64, _ property: String, _ value: PropertyValue, origin: EffectOrigin = .command) -> Effect {
        Effect(
            paths: [property, "alias/\(property)"],
            change: .set(instance: InstanceID(instance), property: property, value: value, introduced: []), origin: origin)
    }

    /// A room's set as the daemon publishes it: one text value, its command and author.
    static let typical = ChangeBatch(
        target: "room-3", seq: 1_042,
        effects: [
            Effect(
                paths: ["w5"],
                change: .set(
                    instance: InstanceID(7), property: "w5",
                    value: .string("0123456789abcdef"), introduced: []))
        ],
        applied: [88_417], rejected: [], authors: [88_417: Author(client: "bench-5", token: nil)])

    /// The typical batch in epoch `e~1`, with its authors.
    static let typicalBytes =
        #"{"type":"batch","target":"room-3","epoch":"e~1","seq":1042,"effects":[{"op":"set","paths":["w5"],"#
        + #""instance":7,"property":"w5","value":"0123456789abcdef"}],"commands":[88417],"authors":[{"client":"bench-5"}]}"#

    /// The golden bytes: a changed byte here is a wire change (PROTOCOL.md §7, §17).
    @Test func aTypicalBatchAndAckAreTheseBytes() {
        let batch = ServerMessage.batchBytes(Self.typical, epoch: "e~1", effects: Self.typical.effects, withAuthors: true, headroom: 16)
        let expected = Self.typicalBytes
        #expect(String(decoding: batch.bytes, as: UTF8.self) == expected)
        #expect(batch.headroom == 16)
        let message = ServerMessage.batch(ServerMessage.Batch(Self.typical, epoch: "e~1", effects: Self.typical.effects, withAuthors: true))
        #expect(String(decoding: message.serialized(), as: UTF8.self) == expected)
        #expect(String(decoding: message.jsonValue.serialized(), as: UTF8.self) == expected)

        let ack = ServerMessage.ackBytes(target: "room-3", seq: 1_042, command: 88_417, commands: nil, id: .number(311), headroom: 16)
        let expectedAck = #"{"type":"ack","id":311,"target":"room-3","seq":1042,"command":88417}"#
        #expect(String(decoding: ack.bytes, as: UTF8.self) == expectedAck)
        let ackMessage = ServerMessage.ack(ServerMessage.Ack(target: "room-3", seq: 1_042, command: 88_417), id: .number(311))
        #expect(String(decoding: ackMessage.jsonValue.serialized(), as: UTF8.self) == expectedAck)
    }

    static let batches: [ChangeBatch] = [
        typical,
        ChangeBatch(target: "r", seq: 1, effects: [], applied: [], rejected: []),
        ChangeBatch(
            target: "ro\"om\n", seq: 1 << 60,
            effects: [
                set(2, "n", .number(0.25)), set(2, "whole", .number(-42)), set(2, "big", .number(3e9)), set(2, "tiny", .number(1e-7)),
                set(2, "max", .number(16_777_215)), set(2, "over", .number(16_777_216)), set(2, "zero", .number(-0.0)),
                set(3, "s", .string("Ana \"B\"\\ \u{1}é"), origin: .stateMachine), set(3, "on", .boolean(true)),
                set(3, "off", .boolean(false)), set(3, "c", .color(0xFF12_3456)), set(3, "e", .enumValue("big")),
                set(3, "t", .trigger(1 << 54)), set(3, "vm", .viewModel(nil)), set(3, "l", .list([InstanceID(4), InstanceID(5)])),
                set(3, "a", .artboard("Main")), set(3, "i", .symbolListIndex(3)),
                set(3, "asset", .asset(AssetReference(id: "x", byteCount: 3, mediaType: "image/png"))),
            ] + DirectEncodingTests.rarerEffects,
            applied: [41, 42, 43, (1 << 53) + 1], rejected: [],
            authors: [41: Author(client: "c\"1", token: "t"), 42: Author(client: nil, token: "t2"), 43: Author(client: nil, token: nil)],
            elapsed: 0.016, settled: false),
        ChangeBatch(
            target: "sm", seq: 9, effects: [set(1, "x", .number(1))], applied: [3], rejected: [], elapsed: 0.5,
            events: [ReportedEvent(name: "Done")],
            layers: [LayerState(layer: 0, layerName: "Face", state: 3, kind: .animation, animation: "smile")], settled: false),
    ]

    @Test(arguments: batches, [false, true])
    func aChangeBatchsBytesAreItsMessages(_ batch: ChangeBatch, withAuthors: Bool) {
        for effects in [batch.effects, Array(batch.effects.prefix(1)), []] {
            let message = ServerMessage.batch(ServerMessage.Batch(batch, epoch: "e~2", effects: effects, withAuthors: withAuthors))
            let bytes = ServerMessage.batchBytes(batch, epoch: "e~2", effects: effects, withAuthors: withAuthors, headroom: 8)
            #expect(bytes.bytes == message.jsonValue.serialized())
            #expect(bytes.bytes == message.serialized())
            let openings = ServerMessage.TargetOpenings(target: batch.target, epoch: "e~2")
            let opened = ServerMessage.batchBytes(batch, openings: openings, effects: effects, withAuthors: withAuthors, headroom: 8)
            #expect(opened.bytes == bytes.bytes && opened.headroom == 8, "from the target's kept opening")
        }
    }

    /// A target's kept openings hold for its name and epoch only.
    @Test func openingsOpenTheirTargetsBatchesAndAcksInTheirEpoch() {
        let openings = ServerMessage.TargetOpenings(target: "room-3", epoch: "e~1")
        #expect(openings.open("room-3", epoch: "e~1"))
        #expect(!openings.open("room-3", epoch: "e~2") && !openings.open("room-4", epoch: "e~1"))
        let batch = ServerMessage.batchBytes(
            Self.typical, openings: openings, effects: Self.typical.effects, withAuthors: true, headroom: 16)
        #expect(String(decoding: batch.bytes, as: UTF8.self) == Self.typicalBytes)
        let ack = ServerMessage.ackBytes(openings: openings, seq: 1_042, command: 88_417, commands: nil, id: .number(311), headroom: 16)
        #expect(String(decoding: ack.bytes, as: UTF8.self) == #"{"type":"ack","id":311,"target":"room-3","seq":1042,"command":88417}"#)
    }

    @Test(arguments: [nil, [], [7, 8, 1 << 60]] as [[UInt64]?], [nil, .number(-3), .string("a\"b"), .array([.null])] as [JSONValue?])
    func anAcksBytesAreItsMessages(commands: [UInt64]?, id: JSONValue?) {
        let message = ServerMessage.ack(ServerMessage.Ack(target: "t\u{1}", seq: 12, command: 7, commands: commands), id: id)
        let bytes = ServerMessage.ackBytes(target: "t\u{1}", seq: 12, command: 7, commands: commands, id: id, headroom: 4)
        #expect(bytes.bytes == message.jsonValue.serialized())
        let openings = ServerMessage.TargetOpenings(target: "t\u{1}", epoch: "e")
        let opened = ServerMessage.ackBytes(openings: openings, seq: 12, command: 7, commands: commands, id: id, headroom: 4)
        #expect(opened.bytes == bytes.bytes, "from the target's kept openings")
    }

    /// Without strings to escape or numbers other than whole ones, the room reserved is the
    /// message's length: it is written in one block, and nothing past it is kept in the history.
    @Test func theRoomReservedIsTheLengthOfAPlainBatchOrAck() {
        let plain = ChangeBatch(
            target: "room-12", seq: 99_999, effects: [Self.set(123, "w1", .string("abc")), Self.set(9, "n", .number(-17))],
            applied: [1, 22, 333], rejected: [], authors: [1: Author(client: "c", token: "t"), 333: Author(client: nil, token: "tk")])
        for withAuthors in [false, true] {
            let message = ServerMessage.batch(ServerMessage.Batch(plain, epoch: "e", effects: plain.effects, withAuthors: withAuthors))
            #expect(message.expectedSize == message.serialized().count, "withAuthors \(withAuthors)")
        }
        for (commands, id) in [(nil, JSONValue.number(4_000_000_001)), ([5, 60], .string("x")), (nil, nil)] as [([UInt64]?, JSONValue?)] {
            let ack = ServerMessage.ack(ServerMessage.Ack(target: "room-12", seq: 10, command: 1_000, commands: commands), id: id)
            #expect(ack.expectedSize == ack.serialized().count, "\(ack)")
        }
    }
}
