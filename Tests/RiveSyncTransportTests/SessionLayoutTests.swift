import Testing

@testable import RiveSyncTransport

/// Where a server session keeps what a delivery and a flush read: within the first
/// `ServerSession.hotBytes` of its object, the bytes a send prefetches for every recipient
/// before it queues for any (`ServerLoop.deliver(_:toEach:inTransit:tally:)`).
@Suite struct SessionLayoutTests {
    /// A field's end, in bytes from the object's start (its address is the stored property's
    /// own: a final class's field passed inout is not copied).
    static func end<T>(of field: UnsafeMutablePointer<T>, in session: ServerSession) -> Int {
        let start = Int(bitPattern: Unmanaged.passUnretained(session).toOpaque())
        return Int(bitPattern: field) + MemoryLayout<T>.size - start
    }

    @Test func aDeliverysFieldsLieInTheHotBytes() {
        let session = ServerSession(
            id: 1, wsi: OpaquePointer(bitPattern: 0x10)!, stats: SessionStats(), maxMessageBytes: 16)
        let ends = [
            withUnsafeMutablePointer(to: &session.queue) { Self.end(of: $0, in: session) },
            withUnsafeMutablePointer(to: &session.overflowed) { Self.end(of: $0, in: session) },
            withUnsafeMutablePointer(to: &session.awaitingWriteable) { Self.end(of: $0, in: session) },
            withUnsafeMutablePointer(to: &session.writesAtOnce) { Self.end(of: $0, in: session) },
            withUnsafeMutablePointer(to: &session.readingPaused) { Self.end(of: $0, in: session) },
            withUnsafeMutablePointer(to: &session.isClosed) { Self.end(of: $0, in: session) },
            withUnsafeMutablePointer(to: &session.listedForFlush) { Self.end(of: $0, in: session) },
            withUnsafeMutablePointer(to: &session.heldOutputAtFlush) { Self.end(of: $0, in: session) },
        ]
        let pendingCloseEnd = withUnsafeMutablePointer(to: &session.pendingClose) { Self.end(of: $0, in: session) }
        for end in ends { #expect(end > 0 && end < pendingCloseEnd) }
        // The last of them ends the hot bytes: the prefetch covers them and no more.
        #expect(pendingCloseEnd == ServerSession.hotBytes)
        let unhandledEnd = withUnsafeMutablePointer(to: &session.unhandledMessages) { Self.end(of: $0, in: session) }
        #expect(unhandledEnd > ServerSession.hotBytes)
    }
}
