/// WebSocket frame opcodes (RFC 6455 §5.2).
public enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA

    /// True for close, ping and pong.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}

/// Encodes client-to-server frames: always FIN, always masked (RFC 6455 §5.3).
public enum WebSocketFrameEncoder {
    /// Appends one masked frame carrying `payload` to `out`. The mask key's bytes are
    /// `maskKey` in big-endian order (the order they appear on the wire).
    public static func appendMaskedFrame(
        opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer, maskKey: UInt32,
        to out: inout [UInt8]
    ) {
        let count = payload.count
        out.reserveCapacity(out.count + 14 + count)
        out.append(0x80 | opcode.rawValue)
        if count < 126 {
            out.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            out += [0x80 | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            out.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(shift))) }
        }
        for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: maskKey >> UInt32(shift))) }
        let start = out.count
        out.append(contentsOf: payload)
        out.withUnsafeMutableBufferPointer { frame in
            for offset in 0..<count {
                frame[start + offset] ^= UInt8(truncatingIfNeeded: maskKey >> (24 - 8 * UInt32(offset & 3)))
            }
        }
    }

    /// One masked frame carrying `payload`.
    public static func maskedFrame(opcode: WebSocketOpcode, payload: [UInt8], maskKey: UInt32) -> [UInt8] {
        var out: [UInt8] = []
        payload.withUnsafeBytes { appendMaskedFrame(opcode: opcode, payload: $0, maskKey: maskKey, to: &out) }
        return out
    }
}
