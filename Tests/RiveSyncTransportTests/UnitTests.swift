import RiveSyncTestSupport
import Testing

@testable import RiveSyncTransport

@Suite struct UnitTests {
    @Test func urlParsing() throws {
        let url = try #require(WebSocketURL("wss://example.com:8443/a/b?c=d"))
        #expect(url.isSecure && url.host == "example.com" && url.port == 8443 && url.path == "/a/b?c=d")
        let v6 = try #require(WebSocketURL("ws://[::1]:9/"))
        #expect(v6.host == "::1" && v6.port == 9 && !v6.isSecure)
        let bare = try #require(WebSocketURL("ws://h"))
        #expect(bare.port == 80 && bare.path == "/")
        #expect(WebSocketURL("ws://h?x")?.path == "/?x")
        for bad in ["http://h/", "ws://", "ws://h:0/", "ws://h:99999", "ws://[::1", "ws://u@h/", "ws://h:x/"] {
            #expect(WebSocketURL(bad) == nil, "\(bad)")
        }
    }

    @Test(arguments: [0, 1, 125, 126, 65535, 65536, 1 << 20])
    func frameHeaderEncoding(count: Int) {
        var bytes = [UInt8](repeating: 0, count: 10)
        let size = bytes.withUnsafeMutableBytes { FrameHeader.write(payloadCount: count, isText: true, to: $0.baseAddress!) }
        #expect(size == FrameHeader.size(payloadCount: count))
        var frame = Array(bytes[0..<size])
        frame += [UInt8](repeating: 0, count: count)
        let parsed = RawSocket.parseFrame(frame)
        #expect(parsed?.0.opcode == 1 && parsed?.0.fin == true && parsed?.0.payload.count == count && parsed?.1 == frame.count)
    }

    @Test func assemblerJoinsChunksAndEnforcesLimit() {
        var assembler = MessageAssembler(limit: 6)
        let step1 = Array("abc".utf8).withUnsafeBytes { assembler.append($0, first: true, final: false, binary: false) }
        guard case .partial = step1 else { Issue.record("expected partial"); return }
        let step2 = Array("def".utf8).withUnsafeBytes { assembler.append($0, first: false, final: true, binary: false) }
        guard case .complete(let message, let isText) = step2 else { Issue.record("expected complete"); return }
        #expect(message == Array("abcdef".utf8) && isText)
        let step3 = Array("abcdefg".utf8).withUnsafeBytes { assembler.append($0, first: true, final: true, binary: true) }
        guard case .tooLarge = step3 else { Issue.record("expected tooLarge"); return }
    }

    /// Small messages are coalesced into one raw write whose bytes parse back into the same
    /// frames; big ones leave as separately copied fragments.
    @Test func sendQueueCoalescesAndFragments() throws {
        var queue = SendQueue()
        let small = (0..<5).map { Payload(text: "msg\($0)") }
        small.forEach { queue.append($0) }
        let big = Payload(bytes: (0..<(150 * 1024)).map { UInt8(truncatingIfNeeded: $0) }, isText: false)
        queue.append(big)
        #expect(queue.count == 6 && queue.bytes == 20 + big.count)

        let next = queue.next(coalesceLimit: 16 * 1024, copyEveryWrite: false)
        let batch = try #require(next)
        #expect(batch.completedMessages == 5 && batch.payloadBytes == 20 && batch.flags.rawValue == 3)
        var raw = Array(UnsafeRawBufferPointer(start: batch.buffer.base, count: batch.length))
        for index in 0..<5 {
            let (frame, used) = try #require(RawSocket.parseFrame(raw))
            #expect(frame.opcode == 1 && frame.payload == Array("msg\(index)".utf8))
            raw.removeFirst(used)
        }
        #expect(raw.isEmpty)

        var joined: [UInt8] = []
        var fragments = 0
        while let unit = queue.next(coalesceLimit: 16 * 1024, copyEveryWrite: false) {
            #expect(unit.buffer !== big)
            #expect(unit.length <= SendQueue.fragmentSize)
            joined += UnsafeRawBufferPointer(start: unit.buffer.base, count: unit.length)
            fragments += 1
        }
        #expect(fragments == 3 && joined == big.bytes && queue.isEmpty && queue.bytes == 0)
    }

    @Test func sendQueueSharesOrCopiesWholeMessages() throws {
        var queue = SendQueue()
        let payload = Payload(text: "shared")
        queue.append(payload)
        let shared = queue.next(coalesceLimit: 0, copyEveryWrite: false)
        #expect(try #require(shared).buffer === payload)
        queue.append(payload)
        let next = queue.next(coalesceLimit: 0, copyEveryWrite: true)
        let copied = try #require(next)
        #expect(copied.buffer !== payload && copied.buffer.bytes == payload.bytes)
    }

    @Test func discardKeepsAPartlySentMessage() throws {
        var queue = SendQueue()
        let big = Payload(bytes: [UInt8](repeating: 1, count: 100_000), isText: false)
        queue.append(big)
        queue.append(Payload(text: "x"))
        let first = queue.next(coalesceLimit: 0, copyEveryWrite: false)
        #expect(first?.completedMessages == 0)
        #expect(queue.discardUnstarted() == 1)
        let next = queue.next(coalesceLimit: 0, copyEveryWrite: false)
        let rest = try #require(next)
        #expect(rest.length == 100_000 - SendQueue.fragmentSize && rest.completedMessages == 1)
        #expect(queue.isEmpty)
    }
}
