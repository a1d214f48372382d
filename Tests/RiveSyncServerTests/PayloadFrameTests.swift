import RiveSyncCore
import RiveSyncProtocol
import RiveSyncTransport
import Testing

@testable import RiveSyncServer

/// A frame the core wrote with the transport's headroom in front is sent where it lies (the
/// payload shares its bytes); any other frame is copied.
struct PayloadFrameTests {
    static let ack = ServerMessage.ack(ServerMessage.Ack(target: "room", seq: 3, command: 9, commands: nil), id: .number(4))

    @Test func aFrameWithTheTransportsHeadroomIsSentWhereItWasWritten() {
        let frame = Frame(Self.ack, headroom: Payload.headroom)
        let payload = Payload(frame)
        #expect(payload.isText)
        #expect(payload.bytes == Self.ack.serialized())
        #expect(payload.withUnsafeBytes { $0.baseAddress } == UnsafeRawPointer(frame.storage.unsafeMessageStart))
    }

    @Test(arguments: [0, Payload.headroom - 1])
    func aFrameWithLessHeadroomIsCopied(headroom: Int) {
        let frame = Frame(Self.ack, headroom: headroom)
        let payload = Payload(frame)
        #expect(payload.bytes == Self.ack.serialized())
        #expect(payload.withUnsafeBytes { $0.baseAddress } != UnsafeRawPointer(frame.storage.unsafeMessageStart))
    }
}
