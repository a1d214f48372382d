/// The few MQTT 3.1.1 packets the load generator needs (OASIS MQTT 3.1.1 §2–3), encoded by
/// hand: CONNECT with a clean session, SUBSCRIBE at QoS 0, PUBLISH at QoS 0; and a splitter
/// for the packets the broker sends back.
public enum MQTTFraming {
    /// Control packet types (high nibble of the first byte).
    public enum PacketType: UInt8, Sendable {
        case connect = 1, connack = 2, publish = 3, subscribe = 8, suback = 9
    }

    /// CONNECT: protocol "MQTT" level 4, clean session, `keepAlive` seconds (0 = off).
    public static func connect(clientID: String, keepAlive: UInt16 = 0) -> [UInt8] {
        var body: [UInt8] = []
        appendString("MQTT", to: &body)
        body += [4, 0x02, UInt8(keepAlive >> 8), UInt8(keepAlive & 0xFF)]
        appendString(clientID, to: &body)
        return packet(0x10, body)
    }

    /// SUBSCRIBE to one topic filter at QoS 0 (fixed-header flags 0b0010 as the spec requires).
    public static func subscribe(packetID: UInt16, filter: String) -> [UInt8] {
        var body: [UInt8] = [UInt8(packetID >> 8), UInt8(packetID & 0xFF)]
        appendString(filter, to: &body)
        body.append(0)
        return packet(0x82, body)
    }

    /// PUBLISH at QoS 0, not retained: topic, then the payload (no packet identifier).
    public static func publish(topic: String, payload: [UInt8]) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(2 + topic.utf8.count + payload.count)
        appendString(topic, to: &body)
        body += payload
        return packet(0x30, body)
    }

    /// The variable-length "remaining length" (7 bits per byte, low group first).
    public static func remainingLength(_ length: Int) -> [UInt8] {
        var out: [UInt8] = []
        var rest = length
        repeat {
            var byte = UInt8(rest & 0x7F)
            rest >>= 7
            if rest > 0 { byte |= 0x80 }
            out.append(byte)
        } while rest > 0
        return out
    }

    private static func packet(_ first: UInt8, _ body: [UInt8]) -> [UInt8] {
        [first] + remainingLength(body.count) + body
    }

    private static func appendString(_ text: String, to out: inout [UInt8]) {
        let utf8 = Array(text.utf8)
        out += [UInt8(utf8.count >> 8), UInt8(utf8.count & 0xFF)]
        out += utf8
    }
}

/// Reassembles MQTT packets from WebSocket messages: a broker may put several packets in one
/// message or split one over several.
public struct MQTTPacketSplitter: Sendable {
    private var buffer: [UInt8] = []

    public init() {}

    /// Appends `bytes` and calls `packet` with the type nibble and body of each complete packet.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ packet: (UInt8, ArraySlice<UInt8>) -> Void) {
        buffer.append(contentsOf: bytes)
        var start = 0
        while let (headerBytes, length) = Self.header(buffer, from: start), buffer.count - start >= headerBytes + length {
            let body = start + headerBytes
            packet(buffer[start] >> 4, buffer[body..<(body + length)])
            start = body + length
        }
        buffer.removeFirst(start)
    }

    /// Array convenience for `feed(_:_:)`.
    public mutating func feed(_ bytes: [UInt8], _ packet: (UInt8, ArraySlice<UInt8>) -> Void) {
        bytes.withUnsafeBytes { feed($0, packet) }
    }

    /// Fixed-header size and remaining length of the packet at `start`, nil if incomplete.
    private static func header(_ bytes: [UInt8], from start: Int) -> (Int, Int)? {
        var length = 0
        var shift = 0
        var index = start + 1
        while index < bytes.count, shift <= 21 {
            let byte = bytes[index]
            length |= Int(byte & 0x7F) << shift
            index += 1
            if byte & 0x80 == 0 { return (index - start, length) }
            shift += 7
        }
        return nil
    }
}
