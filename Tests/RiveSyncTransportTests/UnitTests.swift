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

        let coalescing = CoalescingBuffer(limit: 16 * 1024)
        let batch = queue.next(coalescingInto: coalescing, copyEveryWrite: false)
        #expect(batch.completedMessages == 5 && batch.payloadBytes == 20 && batch.flags.rawValue == 3)
        #expect(batch.buffer.base == coalescing.block.messageStart)
        var raw = Array(UnsafeRawBufferPointer(start: batch.buffer.base, count: batch.length))
        for index in 0..<5 {
            let (frame, used) = try #require(RawSocket.parseFrame(raw))
            #expect(frame.opcode == 1 && frame.payload == Array("msg\(index)".utf8))
            raw.removeFirst(used)
        }
        #expect(raw.isEmpty)

        var joined: [UInt8] = []
        var fragments = 0
        while !queue.isEmpty {
            let unit = queue.next(coalescingInto: coalescing, copyEveryWrite: false)
            #expect(!unit.buffer.sharesBytes(with: big))
            #expect(unit.length <= SendQueue.fragmentSize)
            joined += UnsafeRawBufferPointer(start: unit.buffer.base, count: unit.length)
            fragments += 1
        }
        #expect(fragments == 3 && joined == big.bytes && queue.isEmpty && queue.bytes == 0)
    }

    /// A coalesced write takes what fits in the buffer's limit; the rest waits for the next
    /// write, which frames it where the last one lay (the buffer is reused).
    @Test func coalescedWritesStopAtTheLimitAndReuseTheBuffer() throws {
        var queue = SendQueue()
        let messages = (0..<6).map { Payload(bytes: [UInt8](repeating: UInt8($0), count: 100), isText: false) }
        messages.forEach { queue.append($0) }
        // 102 bytes per framed message: three fit in 310, the fourth would not.
        let coalescing = CoalescingBuffer(limit: 310)
        var frames: [[UInt8]] = []
        for expected in [3, 3] {
            let unit = queue.next(coalescingInto: coalescing, copyEveryWrite: false)
            #expect(unit.completedMessages == expected && unit.length == 306)
            #expect(unit.buffer.base == coalescing.block.messageStart)
            var raw = Array(UnsafeRawBufferPointer(start: unit.buffer.base, count: unit.length))
            while let (frame, used) = RawSocket.parseFrame(raw) {
                frames.append(frame.payload)
                raw.removeFirst(used)
            }
        }
        #expect(queue.isEmpty && frames == messages.map(\.bytes))
    }

    /// The ring grows past its first slots with the messages kept in order, also when they
    /// wrap around its end.
    @Test func sendQueueKeepsOrderAcrossItsRingsGrowth() {
        var queue = SendQueue()
        var sent: [[UInt8]] = []
        var next = 0
        for round in 1...5 {
            for _ in 0..<(round * 3) {
                queue.append(Payload(text: "m\(next)"))
                next += 1
            }
            for _ in 0..<(round * 2) { sent.append(queue.next(coalescingInto: nil, copyEveryWrite: false).buffer.bytes) }
        }
        while !queue.isEmpty { sent.append(queue.next(coalescingInto: nil, copyEveryWrite: false).buffer.bytes) }
        #expect(sent == (0..<next).map { Array("m\($0)".utf8) } && queue.bytes == 0 && queue.count == 0)
    }

    @Test func sendQueueSharesOrCopiesWholeMessages() {
        var queue = SendQueue()
        let payload = Payload(text: "shared")
        queue.append(payload)
        let shared = queue.next(coalescingInto: nil, copyEveryWrite: false)
        #expect(shared.buffer.sharesBytes(with: payload))
        queue.append(payload)
        let copied = queue.next(coalescingInto: nil, copyEveryWrite: true)
        #expect(!copied.buffer.sharesBytes(with: payload) && copied.buffer.bytes == payload.bytes)
    }

    @Test func discardKeepsAPartlySentMessage() {
        var queue = SendQueue()
        let big = Payload(bytes: [UInt8](repeating: 1, count: 100_000), isText: false)
        queue.append(big)
        queue.append(Payload(text: "x"))
        let first = queue.next(coalescingInto: nil, copyEveryWrite: false)
        #expect(first.completedMessages == 0)
        #expect(queue.discardUnstarted() == 1)
        #expect(queue.count == 1 && queue.bytes == 100_000)
        let rest = queue.next(coalescingInto: nil, copyEveryWrite: false)
        #expect(rest.length == 100_000 - SendQueue.fragmentSize && rest.completedMessages == 1)
        #expect(queue.isEmpty)
    }
}
