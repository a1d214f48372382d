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

    /// Writes the header of a FIN frame of `payloadCount` bytes so that it ends at `end`,
    /// unless the bytes there already are that header: a block that other threads may be
    /// reading is then only read.
    static func writeIfDifferent(payloadCount: Int, isText: Bool, before end: UnsafeMutableRawPointer) {
        var header: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &header) { scratch in
            let size = write(payloadCount: payloadCount, isText: isText, to: scratch.baseAddress!)
            let target = UnsafeMutableRawBufferPointer(start: end - size, count: size)
            if !target.elementsEqual(scratch.prefix(size)) {
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: scratch.prefix(size)))
            }
        }
    }
}
