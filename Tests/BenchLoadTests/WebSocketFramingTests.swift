import BenchLoadKit
import Foundation
import Testing

/// The raw engine's WebSocket pieces: server-frame parser (fed arbitrary splits), masked
/// client-frame encoder and the handshake helpers, checked against RFC 6455 examples.
struct WebSocketFramingTests {
    /// A parser event with copied bytes, comparable in expectations.
    enum Seen: Equatable {
        case message([UInt8], isText: Bool)
        case ping([UInt8])
        case pong
        case close(UInt16?, String)
        case failure(String)
    }

    static let hello = Array("Hello".utf8)

    /// Feeds `chunks` in order to one parser and returns what it reported.
    static func parse(_ chunks: [ArraySlice<UInt8>], maxMessageBytes: Int = 16 << 20) -> [Seen] {
        var parser = WebSocketFrameParser(maxMessageBytes: maxMessageBytes)
        var seen: [Seen] = []
        for chunk in chunks {
            Array(chunk).withUnsafeBytes { bytes in
                parser.feed(bytes) { event in
                    switch event {
                    case .message(let body, let isText): seen.append(.message(Array(body), isText: isText))
                    case .ping(let body): seen.append(.ping(Array(body)))
                    case .pong: seen.append(.pong)
                    case .close(let code, let reason): seen.append(.close(code, reason))
                    case .failure(let reason): seen.append(.failure(reason))
                    }
                }
            }
        }
        return seen
    }

    static func bytewise(_ stream: [UInt8], maxMessageBytes: Int = 16 << 20) -> [Seen] {
        parse(stream.indices.map { stream[$0...$0] }, maxMessageBytes: maxMessageBytes)
    }

    /// Unmasked server frame with FIN and the shortest length encoding.
    static func serverFrame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        let first = (fin ? 0x80 : 0) | opcode
        let count = payload.count
        if count < 126 { return [first, UInt8(count)] + payload }
        if count <= 0xFFFF { return [first, 126, UInt8(count >> 8), UInt8(count & 0xFF)] + payload }
        return [first, 127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: count >> ($0 * 8)) } + payload
    }

    @Test func smallFramesSurviveEverySplit() {
        let stream: [UInt8] =
            [0x81, 0x05] + Self.hello  // RFC 6455 §5.7 single frame
            + [0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F]  // fragmented "Hel" + "lo"
            + [0x89, 0x05] + Self.hello + [0x8A, 0x00]  // ping "Hello", empty pong
            + [0x82, 0x00] + [0x81, 0x01, 0x21]  // empty binary, "!"
        let expected: [Seen] = [
            .message(Self.hello, isText: true), .message(Self.hello, isText: true), .ping(Self.hello), .pong,
            .message([], isText: false), .message([0x21], isText: true),
        ]
        #expect(Self.parse([stream[...]]) == expected)
        #expect(Self.bytewise(stream) == expected)
        for first in 0...stream.count {
            for second in first...stream.count {
                #expect(Self.parse([stream[..<first], stream[first..<second], stream[second...]]) == expected)
            }
        }
    }

    @Test func sixteenAndSixtyFourBitLengths() {
        let medium = (0..<256).map { UInt8($0) }
        let large = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let stream = Self.serverFrame(2, medium) + Self.serverFrame(2, large) + Self.serverFrame(1, Self.hello)
        #expect(Array(stream[0..<4]) == [0x82, 0x7E, 0x01, 0x00])
        #expect(Array(stream[260..<270]) == [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00])
        let expected: [Seen] = [.message(medium, isText: false), .message(large, isText: false), .message(Self.hello, isText: true)]
        #expect(Self.bytewise(stream) == expected)
        for cut in [1, 3, 4, 5, 259, 261, 262, 269, 270, 271, 65_000, stream.count - 3] {
            #expect(Self.parse([stream[..<cut], stream[cut...]]) == expected)
        }
    }

    @Test func continuationAssemblesAroundControlFrames() {
        let stream =
            Self.serverFrame(1, Array("Hel".utf8), fin: false) + Self.serverFrame(9, [0x70])
            + Self.serverFrame(0, Array("l".utf8), fin: false) + Self.serverFrame(0, [], fin: false)
            + Self.serverFrame(0, Array("o".utf8)) + Self.serverFrame(2, [1, 2], fin: false) + Self.serverFrame(0, [3])
        let expected: [Seen] = [.ping([0x70]), .message(Self.hello, isText: true), .message([1, 2, 3], isText: false)]
        #expect(Self.parse([stream[...]]) == expected)
        #expect(Self.bytewise(stream) == expected)
    }

    @Test func pingIsAnsweredWithMaskedPongOfSamePayload() {
        var parser = WebSocketFrameParser()
        var reply: [UInt8] = []
        parser.feed([0x89, 0x05] + Self.hello) { event in
            if case .ping(let payload) = event {
                WebSocketFrameEncoder.appendMaskedFrame(opcode: .pong, payload: payload, maskKey: 0x37FA_213D, to: &reply)
            }
        }
        #expect(reply == [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    @Test func maskedServerFrameIsRejectedAndLaterInputIgnored() {
        let masked = WebSocketFrameEncoder.maskedFrame(opcode: .text, payload: Self.hello, maskKey: 1)
        let stream = [0x81, 0x01, 0x21] + masked + [0x81, 0x01, 0x21]
        let expected: [Seen] = [.message([0x21], isText: true), .failure("masked server frame")]
        #expect(Self.parse([stream[...]]) == expected)
        #expect(Self.bytewise(stream) == expected)
    }

    @Test func oversizeMessagesAreRejectedBeforeTheirPayload() {
        let single = Self.serverFrame(2, Array(repeating: 0, count: 101))
        #expect(Self.parse([single.prefix(4)], maxMessageBytes: 100) == [.failure("message over 100 bytes")])
        let fragments =
            Self.serverFrame(2, Array(repeating: 0, count: 60), fin: false) + Self.serverFrame(0, Array(repeating: 0, count: 41))
        #expect(Self.bytewise(fragments, maxMessageBytes: 100) == [.failure("message over 100 bytes")])
        let exact = Self.serverFrame(2, Array(repeating: 9, count: 100))
        #expect(Self.parse([exact[...]], maxMessageBytes: 100) == [.message(Array(repeating: 9, count: 100), isText: false)])
        let huge: [UInt8] = [0x82, 0x7F, 0, 0, 0x01, 0, 0, 0, 0, 0]
        #expect(Self.parse([huge[...]]) == [.failure("message over \(16 << 20) bytes")])
    }

    @Test func closeFrameEndsTheStream() {
        let stream: [UInt8] = [0x88, 0x05, 0x03, 0xE8] + Array("bye".utf8) + [0x81, 0x01, 0x21]
        #expect(Self.bytewise(stream) == [.close(1000, "bye")])
        #expect(Self.parse([[0x88, 0x00]]) == [.close(nil, "")])
    }

    @Test(
        arguments: [
            ([0x80, 0x00], "continuation frame without a message"),
            ([0x01, 0x00, 0x81, 0x00], "new message inside a fragmented one"),
            ([0x09, 0x00], "control frame fragmented or over 125 bytes"),
            ([0x89, 0x7E, 0x00, 0x7E], "control frame fragmented or over 125 bytes"),
            ([0xC1, 0x00], "reserved bits set in a server frame (no extension negotiated)"),
            ([0x83, 0x00], "unknown opcode 3"),
            ([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], "64-bit frame length with the top bit set"),
        ] as [([UInt8], String)])
    func protocolErrors(stream: [UInt8], reason: String) {
        #expect(Self.bytewise(stream) == [.failure(reason)])
    }

    @Test func encoderMasksWithTheShortestLength() {
        #expect(
            WebSocketFrameEncoder.maskedFrame(opcode: .text, payload: Self.hello, maskKey: 0x37FA_213D)
                == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        for (count, header) in [
            (125, [0x82, 0xFD]), (126, [0x82, 0xFE, 0, 126]), (65_535, [0x82, 0xFE, 0xFF, 0xFF]),
            (65_536, [0x82, 0xFF, 0, 0, 0, 0, 0, 1, 0, 0]),
        ] as [(Int, [UInt8])] {
            let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0) }
            let frame = WebSocketFrameEncoder.maskedFrame(opcode: .binary, payload: payload, maskKey: 0xA1B2_C3D4)
            #expect(Array(frame.prefix(header.count)) == header)
            #expect(Array(frame[header.count..<(header.count + 4)]) == [0xA1, 0xB2, 0xC3, 0xD4])
            let key = frame[header.count..<(header.count + 4)].map { $0 }
            #expect(frame.dropFirst(header.count + 4).enumerated().map { $0.element ^ key[$0.offset & 3] } == payload)
        }
    }

    @Test func handshakeRequestAndBase64() {
        #expect(WebSocketHandshake.base64(Array("the sample nonce".utf8)) == "dGhlIHNhbXBsZSBub25jZQ==")
        for (text, encoded) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")] {
            #expect(WebSocketHandshake.base64(Array(text.utf8)) == encoded)
        }
        let request = WebSocketHandshake.request(
            host: "127.0.0.1", port: 7420, path: "/x?y", subprotocol: "mqtt",
            key: Array("the sample nonce".utf8))
        #expect(
            String(decoding: request, as: UTF8.self) == "GET /x?y HTTP/1.1\r\nHost: 127.0.0.1:7420\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Protocol: mqtt\r\n\r\n")
        let plain = WebSocketHandshake.request(host: "h", port: 1, path: "/", subprotocol: nil, key: Array(repeating: 0, count: 16))
        #expect(!String(decoding: plain, as: UTF8.self).contains("Sec-WebSocket-Protocol"))
    }

    @Test func sha1MatchesTheFIPSExamples() {
        func hex(_ text: String) -> String { SHA1.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        #expect(hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(String(repeating: "a", count: 1000)) == "291e9a6c66994949b57ba5e650361e98fc36b1ba")
        #expect(hex(String(repeating: "a", count: 55)) == "c1c8bbdc22796e28c0e15163d20899b65621d65a", "padding fits one block")
        #expect(hex(String(repeating: "a", count: 56)) == "c2db330f6083854c99d4b5bfb6e8f29f201be699", "padding needs a second block")
        #expect(hex(String(repeating: "a", count: 64)) == "0098ba824b5c16427bd7a1122a5a442a25ec644d")
    }

    @Test func handshakeResponseNeedsStatus101AndTheAcceptOfTheKey() {
        let key = Array("the sample nonce".utf8)
        #expect(WebSocketHandshake.accept(for: key) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "RFC 6455 section 1.3")
        let header = Array(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nsec-websocket-accept:  s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n".utf8)
        #expect(WebSocketHandshake.response(Array(header.dropLast()), key: key) == .incomplete)
        #expect(WebSocketHandshake.response(header + [0x81, 0x00], key: key) == .accepted(headerBytes: header.count))
        let otherKey = Array("another nonce!!!".utf8)
        guard case .rejected(let reason) = WebSocketHandshake.response(header, key: otherKey) else {
            Issue.record("a response to another key was accepted")
            return
        }
        #expect(reason.contains("does not answer the key"))
        let missing = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n".utf8)
        #expect(WebSocketHandshake.response(missing, key: key) != .accepted(headerBytes: missing.count))
        #expect(
            WebSocketHandshake.response(Array("HTTP/1.1 404 Not Found\r\n\r\n".utf8), key: key)
                == .rejected("handshake: expected status 101, got 'HTTP/1.1 404 Not Found'"))
        #expect(
            WebSocketHandshake.response(Array(repeating: 0x41, count: WebSocketHandshake.maxHeaderBytes + 1), key: key)
                == .rejected("handshake: response header over \(WebSocketHandshake.maxHeaderBytes) bytes"))
    }
}
