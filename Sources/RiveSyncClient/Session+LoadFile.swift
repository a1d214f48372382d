internal import RiveSyncProtocol

extension Session {
    /// Loads a `.riv` file into the daemon as `name`: in one `loadFile`, or, when its base64
    /// would not fit in the daemon's `maxMessageBytes`, in parts sent in order, each answered
    /// `filePart` until the last, answered `files` (PROTOCOL.md §9).
    func loadRiv(_ bytes: [UInt8], as name: String) async throws {
        try await waitUntilReady()
        let partBytes = Self.partBytes(maxMessageBytes: maxMessageBytes, name: name)
        guard bytes.count > partBytes else {
            _ = try await request(.loadFile(name: name, content: .riv(bytes)), .file)
            return
        }
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + partBytes, bytes.count)
            let part = FilePart(offset: offset, size: bytes.count)
            let reply = try await request(.loadFile(name: name, content: .riv(Array(bytes[offset..<end])), part: part), .file)
            let expected: ServerMessageType = end < bytes.count ? .filePart : .files
            guard reply.type == expected else { throw reply.unexpected(expected) }
            offset = end
        }
    }

    /// The most `.riv` bytes one `loadFile` carries under `maxMessageBytes`: base64 takes 4
    /// characters for every 3 bytes; the rest of the message (type, id, offset, size, and the
    /// name, escaped at worst 6 characters a byte) fits in 256 bytes besides the name.
    static func partBytes(maxMessageBytes: Int, name: String) -> Int {
        max(3, (maxMessageBytes - 256 - 6 * name.utf8.count) / 4 * 3)
    }
}
