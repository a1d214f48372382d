/// Encoding of unmasked WebSocket frame headers (RFC 6455 §5.2), for server-side coalescing.
enum FrameHeader {
    /// Header length for an unmasked frame carrying `payloadCount` bytes.
    static func size(payloadCount: Int) -> Int {
        payloadCount < 126 ? 2 : (payloadCount <= 0xFFFF ? 4 : 10)
    }

    /// Writes a FIN frame header (text or binary, no mask) at `target` and returns its length.
    static func write(payloadCount: Int, isText: Bool, to target: UnsafeMutableRawPointer) -> Int {
        target.storeBytes(of: 0x80 | (isText ? 0x1 : 0x2), as: UInt8.self)
        if payloadCount < 126 {
            target.storeBytes(of: UInt8(payloadCount), toByteOffset: 1, as: UInt8.self)
            return 2
        }
        if payloadCount <= 0xFFFF {
            target.storeBytes(of: 126, toByteOffset: 1, as: UInt8.self)
            target.storeBytes(of: UInt16(payloadCount).bigEndian, toByteOffset: 2, as: UInt16.self)
            return 4
        }
        target.storeBytes(of: 127, toByteOffset: 1, as: UInt8.self)
        target.storeBytes(of: UInt64(payloadCount).bigEndian, toByteOffset: 2, as: UInt64.self)
        return 10
    }
}
