import BenchLoadKit
import Testing

/// Byte-level checks of the hand-written MQTT and Yjs encoders and of the record scanner.
struct FramingTests {
    @Test func mqttConnectIsCleanSessionLevel4() {
        let bytes = MQTTFraming.connect(clientID: "ab")
        #expect(bytes == [0x10, 14, 0, 4] + Array("MQTT".utf8) + [4, 0x02, 0, 0, 0, 2] + Array("ab".utf8))
    }

    @Test func mqttSubscribeAndPublish() {
        #expect(MQTTFraming.subscribe(packetID: 1, filter: "t/#") == [0x82, 8, 0, 1, 0, 3] + Array("t/#".utf8) + [0])
        #expect(MQTTFraming.publish(topic: "t", payload: [9]) == [0x30, 4, 0, 1, UInt8(ascii: "t"), 9])
    }

    @Test(arguments: [(0, [0x00]), (127, [0x7F]), (128, [0x80, 0x01]), (16_383, [0xFF, 0x7F]), (2_097_152, [0x80, 0x80, 0x80, 0x01])])
    func mqttRemainingLength(length: Int, expected: [UInt8]) {
        #expect(MQTTFraming.remainingLength(length) == expected)
    }

    @Test func mqttSplitterReassemblesAcrossMessages() {
        let publish = MQTTFraming.publish(topic: "bench/0", payload: Array(repeating: 7, count: 200))
        let stream = [0x20, 2, 0, 0] + publish + [0x90, 3, 0, 1, 0]
        var splitter = MQTTPacketSplitter()
        var types: [UInt8] = []
        var bodyLengths: [Int] = []
        for chunk in [stream[0..<3], stream[3..<100], stream[100...]] {
            splitter.feed(Array(chunk)) { type, body in
                types.append(type)
                bodyLengths.append(body.count)
            }
        }
        #expect(types == [2, 3, 9])
        #expect(bodyLengths == [2, 209, 3])
    }

    @Test func yjsVarUint() {
        var out: [UInt8] = []
        for value: UInt in [0, 127, 128, 300] { YjsFraming.appendVarUint(value, to: &out) }
        #expect(out == [0, 127, 0x80, 0x01, 0xAC, 0x02])
    }

    @Test func yjsFirstMapWriteNamesRootAndKey() {
        let update = YjsFraming.mapSetUpdate(client: 5, clock: 0, root: "m", key: "k", value: "v")
        #expect(update == [1, 1, 5, 0, 0x28, 1, 1, UInt8(ascii: "m"), 1, UInt8(ascii: "k"), 1, 119, 1, UInt8(ascii: "v"), 0])
    }

    @Test func yjsLaterMapWriteHasLeftOrigin() {
        let update = YjsFraming.mapSetUpdate(client: 5, clock: 3, root: "m", key: "k", value: "v")
        #expect(update == [1, 1, 5, 3, 0xA8, 5, 2, 1, 119, 1, UInt8(ascii: "v"), 0])
        #expect(YjsFraming.updateMessage([1, 2]) == [0, 2, 2, 1, 2])
    }

    @Test func scannerFindsRecordsSplitAnywhere() {
        let records = (0..<3).map { Record(writer: $0, seq: 10 + $0, sentNanoseconds: 123_456_789 + UInt64($0)) }
        let stream = Array("x~~R~".utf8) + records.flatMap(\.bytes) + Array("~R1:2;".utf8)
        for cut in 0...stream.count {
            var scanner = RecordScanner()
            var found: [Record] = []
            scanner.scan(Array(stream[..<cut])) { found.append($0) }
            scanner.scan(Array(stream[cut...])) { found.append($0) }
            #expect(found == records)
        }
    }

    @Test func scannerReadsWholeRecordsAsItReadsThemByteByByte() {
        let pieces = [
            "~R1:2:3;", "~R12:0:99;", "~R1:2;", "~R:1:2;", "~R1::2;", "~R1:2:3", "~R1:2:3~R4:5:6;", "~~R7:8:9;", "~X", "R1:2:3;", "x",
        ]
        var generator = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let stream = (0..<6).flatMap { _ in Array(pieces[Int(generator.next() % UInt64(pieces.count))].utf8) }
            var whole = RecordScanner()
            var byByte = RecordScanner()
            var fromWhole: [Record] = []
            var fromBytes: [Record] = []
            whole.scan(stream) { fromWhole.append($0) }
            for byte in stream { byByte.scan([byte]) { fromBytes.append($0) } }
            #expect(fromWhole == fromBytes, "\(String(decoding: stream, as: UTF8.self))")
        }
        var scanner = RecordScanner()
        var found: [Record] = []
        scanner.scan(Array("~R1:2:3~R4:5:6;~R99999999999999999999:1:18446744073709551615;".utf8)) { found.append($0) }
        #expect(
            found == [
                Record(writer: 4, seq: 5, sentNanoseconds: 6),
                Record(writer: Int(truncatingIfNeeded: 7_766_279_631_452_241_919 as UInt64), seq: 1, sentNanoseconds: .max),
            ])
    }

    @Test func histogramBucketsRoundTrip() {
        var histogram = LatencyHistogram()
        for value: UInt64 in [5, 63, 64, 1_000, 1_000_000, 50_000_000] {
            let index = LatencyHistogram.index(of: value)
            let lower = LatencyHistogram.lowerBound(of: index)
            #expect(lower <= value && Double(value - lower) <= Double(value) / 32)
            histogram.record(value)
        }
        #expect(histogram.quantile(0.5) == 64)
        #expect(histogram.maxValue == 50_000_000)
    }
}
