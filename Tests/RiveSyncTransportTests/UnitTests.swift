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

        let (block, coalescing) = CoalescingBuffer.make(limit: 16 * 1024)
        let batch = queue.next(coalescingInto: coalescing, copyEveryWrite: false)
        #expect(batch.completedMessages == 5 && batch.payloadBytes == 20 && batch.flags.rawValue == 3)
        // Framed in the loop's block, which keeps the bytes: no payload made for the write.
        #expect(batch.buffer == nil && batch.start == block.messageStart)
        var raw = Array(UnsafeRawBufferPointer(start: batch.start, count: batch.length))
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
            let buffer = try #require(unit.buffer)
            #expect(!buffer.sharesBytes(with: big))
            #expect(unit.length <= SendQueue.fragmentSize)
            joined += UnsafeRawBufferPointer(start: buffer.base, count: unit.length)
            fragments += 1
        }
        #expect(fragments == 3 && joined == big.bytes && queue.isEmpty && queue.bytes == 0)
        withExtendedLifetime(block) {}
    }

    /// A coalesced write takes what fits in the buffer's limit; the rest waits for the next
    /// write, which frames it where the last one lay (the buffer is reused).
    @Test func coalescedWritesStopAtTheLimitAndReuseTheBuffer() throws {
        var queue = SendQueue()
        let messages = (0..<6).map { Payload(bytes: [UInt8](repeating: UInt8($0), count: 100), isText: false) }
        messages.forEach { queue.append($0) }
        // 102 bytes per framed message: three fit in 310, the fourth would not.
        let (block, coalescing) = CoalescingBuffer.make(limit: 310)
        var frames: [[UInt8]] = []
        for expected in [3, 3] {
            let unit = queue.next(coalescingInto: coalescing, copyEveryWrite: false)
            #expect(unit.completedMessages == expected && unit.length == 306)
            #expect(unit.buffer == nil && unit.start == block.messageStart)
            var raw = Array(UnsafeRawBufferPointer(start: unit.start, count: unit.length))
            while let (frame, used) = RawSocket.parseFrame(raw) {
                frames.append(frame.payload)
                raw.removeFirst(used)
            }
        }
        #expect(queue.isEmpty && frames == messages.map(\.bytes))
        withExtendedLifetime(block) {}
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
            for _ in 0..<(round * 2) { sent.append(queue.next(coalescingInto: nil, copyEveryWrite: false).buffer?.bytes ?? []) }
        }
        while !queue.isEmpty { sent.append(queue.next(coalescingInto: nil, copyEveryWrite: false).buffer?.bytes ?? []) }
        #expect(sent == (0..<next).map { Array("m\($0)".utf8) } && queue.bytes == 0 && queue.count == 0)
    }

    /// The server sends a whole message from its own block as one raw write of the frame its
    /// header was written for when the payload was made (lws writes nothing into a block that
    /// other sessions may be sending); the client sends a copy, which lws frames and masks.
    @Test func sendQueueSharesOrCopiesWholeMessages() throws {
        var queue = SendQueue()
        let payload = Payload(text: "shared")
        queue.append(payload)
        let shared = queue.next(coalescingInto: nil, copyEveryWrite: false)
        #expect(shared.buffer?.sharesBytes(with: payload) == true)
        #expect(shared.start == payload.base - 2 && shared.length == 2 + payload.count && shared.flags.rawValue == 3)
        let (frame, used) = try #require(RawSocket.parseFrame(Array(UnsafeRawBufferPointer(start: shared.start, count: shared.length))))
        #expect(frame.opcode == 1 && frame.payload == payload.bytes && used == shared.length)
        queue.append(payload)
        let copied = queue.next(coalescingInto: nil, copyEveryWrite: true)
        let copy = try #require(copied.buffer)
        #expect(!copy.sharesBytes(with: payload) && copy.bytes == payload.bytes)
        // LWS_WRITE_TEXT is 0: lws writes the header.
        #expect(copied.start == copy.base && copied.length == payload.count && copied.flags.rawValue == 0)
    }

    /// A block shared again (a kept frame sent again) keeps the header it was given; headers of
    /// every length frame the bytes they precede.
    @Test func aPayloadsFrameHeaderIsWrittenOnceAndFitsItsLength() throws {
        for count in [0, 125, 126, 65_535, 65_536] {
            let block = Payload(bytes: [UInt8](repeating: 7, count: count), isText: count % 2 == 0)
            let again = Payload(sharing: block.base, count: count, isText: count % 2 == 0, owner: block as AnyObject)
            #expect(again.framed.start == block.framed.start && again.framed.count == block.framed.count)
            let bytes = Array(UnsafeRawBufferPointer(start: again.framed.start, count: again.framed.count))
            let (frame, used) = try #require(RawSocket.parseFrame(bytes), "\(count) bytes")
            #expect(frame.opcode == (count % 2 == 0 ? 1 : 2) && frame.payload.count == count && used == bytes.count)
        }
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
