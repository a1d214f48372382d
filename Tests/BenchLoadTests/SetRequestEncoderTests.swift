import BenchLoadKit
import Foundation
import Testing

/// The writers' bytes made without strings: a record's text, and rivesync `set` requests
/// written straight into masked frames, checked against the JSON and text they stand for.
struct SetRequestEncoderTests {
    @Test(arguments: [
        Record(writer: 0, seq: 0, sentNanoseconds: 0), Record(writer: 7, seq: 10, sentNanoseconds: 9),
        Record(writer: 4095, seq: 1_234_567, sentNanoseconds: UInt64.max), Record(writer: -3, seq: 99, sentNanoseconds: 100),
    ])
    func recordTextIsWrittenDigitByDigit(record: Record) {
        let text = "~R\(record.writer):\(record.seq):\(record.sentNanoseconds);"
        #expect(record.bytes == Array(text.utf8))
        var out = Array("x".utf8)
        record.append(to: &out)
        #expect(out == Array(("x" + text).utf8))
    }

    @Test func payloadsCountTheirIdsAndCycleThePathsBySeq() throws {
        var encoder = SetRequestEncoder(target: "room-3", paths: ["s0", "s1"], firstID: 11)
        var texts: [String] = []
        for seq in 0..<3 {
            var out: [UInt8] = []
            encoder.appendPayload(Record(writer: 2, seq: seq, sentNanoseconds: 5_000 + UInt64(seq)), to: &out)
            texts.append(String(decoding: out, as: UTF8.self))
        }
        #expect(
            texts == [
                #"{"type":"set","id":11,"target":"room-3","path":"s0","value":"~R2:0:5000;"}"#,
                #"{"type":"set","id":12,"target":"room-3","path":"s1","value":"~R2:1:5001;"}"#,
                #"{"type":"set","id":13,"target":"room-3","path":"s0","value":"~R2:2:5002;"}"#,
            ])
        #expect(encoder.nextID == 14)
        for text in texts {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(object["type"] as? String == "set" && object["target"] as? String == "room-3")
        }
    }

    @Test func framesAreTheMaskedPayloadsOneAfterAnother() {
        var framed = SetRequestEncoder(target: "room-0", paths: ["client5"], firstID: 11)
        var plain = framed
        var out: [UInt8] = [0xEE]
        var expected: [UInt8] = [0xEE]
        for (seq, key) in [(0, UInt32(0x37FA_213D)), (1, 0xA1B2_C3D4), (2, 0)] {
            let record = Record(writer: 5, seq: seq, sentNanoseconds: 1_765_000_000_000_000_000 + UInt64(seq))
            framed.appendMaskedFrame(record, maskKey: key, to: &out)
            var payload: [UInt8] = []
            plain.appendPayload(record, to: &payload)
            expected += WebSocketFrameEncoder.maskedFrame(opcode: .text, payload: payload, maskKey: key)
        }
        #expect(out == expected)
        #expect(framed.nextID == 14)
    }

    @Test func splitMixIsReproducibleFromItsSeed() {
        var first = SplitMix64(seed: 42)
        var second = SplitMix64(seed: 42)
        var other = SplitMix64(seed: 43)
        let a = (0..<4).map { _ in first.next() }
        #expect(a == (0..<4).map { _ in second.next() })
        #expect(a != (0..<4).map { _ in other.next() })
        #expect(Set(a).count == 4)
    }
}
