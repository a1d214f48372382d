/// Incremental parser of server-to-client WebSocket frames (RFC 6455 §5), fed arbitrary
/// splits of the byte stream.
///
/// Server frames must be unmasked and use no reserved bits (no extension is negotiated).
/// Continuation frames are assembled into one message; control frames may arrive between
/// fragments. A frame wholly inside one `feed` call is handed out without copying; only
/// messages split over calls or fragments are buffered. After a close frame or a protocol
/// error the parser is finished and ignores further input.
public struct WebSocketFrameParser: Sendable {
    /// What a `feed` call found. Buffers are valid only during the callback.
    public enum Event {
        case message(UnsafeRawBufferPointer, isText: Bool)
        case ping(UnsafeRawBufferPointer)
        case pong
        /// A close frame: its status code (nil if it carried none) and reason text.
        case close(code: UInt16?, reason: String)
        /// A protocol violation; the connection must be dropped.
        case failure(String)
    }

    /// The frame whose payload is being read.
    private struct Frame: Sendable {
        let fin: Bool
        let opcode: WebSocketOpcode
        var remaining: Int
    }

    private enum Header {
        case incomplete
        case frame(fin: Bool, opcode: WebSocketOpcode, length: UInt64, size: Int)
        case failure(String)
    }

    /// Longest header of an unmasked frame.
    private static let maxHeaderBytes = 10

    /// Largest message accepted, summed over its fragments.
    public let maxMessageBytes: Int
    /// True after a close frame or a failure.
    public private(set) var isFinished = false
    private var header: [UInt8] = []
    private var frame: Frame?
    /// Type of a fragmented message in progress (its first frame had no FIN).
    private var messageOpcode: WebSocketOpcode?
    private var message: [UInt8] = []
    private var control: [UInt8] = []

    public init(maxMessageBytes: Int = 16 << 20) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// Parses `input` and calls `handle` for each completed message, control frame or failure,
    /// in stream order. `handle` must not use this parser.
    public mutating func feed(_ input: UnsafeRawBufferPointer, _ handle: (Event) -> Void) {
        var offset = 0
        while !isFinished {
            if let frame {
                if frame.remaining > 0, offset == input.count { return }
                offset += readPayload(input, from: offset, handle)
            } else {
                if offset == input.count { return }
                offset += readHeader(input, from: offset, handle)
            }
        }
    }

    /// Array convenience for `feed(_:_:)`.
    public mutating func feed(_ input: [UInt8], _ handle: (Event) -> Void) {
        input.withUnsafeBytes { feed($0, handle) }
    }

    /// Consumes header bytes from `input`; returns how many.
    private mutating func readHeader(_ input: UnsafeRawBufferPointer, from offset: Int, _ handle: (Event) -> Void) -> Int {
        let before = header.count
        let parsed: Header
        let offered: Int
        if before == 0 {
            offered = input.count - offset
            parsed = Self.parseHeader(UnsafeRawBufferPointer(rebasing: input[offset...]))
        } else {
            offered = min(input.count - offset, Self.maxHeaderBytes - before)
            header.append(contentsOf: input[offset..<(offset + offered)])
            parsed = header.withUnsafeBytes(Self.parseHeader)
        }
        switch parsed {
        case .incomplete:
            if before == 0 { header.append(contentsOf: input[offset...]) }
            return offered
        case .failure(let reason):
            fail(reason, handle)
            return offered
        case .frame(let fin, let opcode, let length, let size):
            header.removeAll(keepingCapacity: true)
            if let problem = begin(fin: fin, opcode: opcode, length: length) { fail(problem, handle) }
            return size - before
        }
    }

    /// Decodes a frame header at the start of `bytes`.
    private static func parseHeader(_ bytes: UnsafeRawBufferPointer) -> Header {
        guard bytes.count >= 2 else { return .incomplete }
        let first = bytes[0], second = bytes[1]
        guard first & 0x70 == 0 else { return .failure("reserved bits set in a server frame (no extension negotiated)") }
        guard second & 0x80 == 0 else { return .failure("masked server frame") }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else { return .failure("unknown opcode \(first & 0x0F)") }
        let code = second & 0x7F
        let size = code == 127 ? 10 : (code == 126 ? 4 : 2)
        guard bytes.count >= size else { return .incomplete }
        var length = UInt64(code)
        if size > 2 {
            length = bytes[2..<size].reduce(0) { $0 << 8 | UInt64($1) }
            guard length >> 63 == 0 else { return .failure("64-bit frame length with the top bit set") }
        }
        return .frame(fin: first & 0x80 != 0, opcode: opcode, length: length, size: size)
    }

    /// Checks a new frame against the message state and starts it; returns a failure reason.
    private mutating func begin(fin: Bool, opcode: WebSocketOpcode, length: UInt64) -> String? {
        if opcode.isControl {
            guard fin, length <= 125 else { return "control frame fragmented or over 125 bytes" }
        } else {
            if opcode == .continuation {
                guard messageOpcode != nil else { return "continuation frame without a message" }
            } else {
                guard messageOpcode == nil else { return "new message inside a fragmented one" }
                if !fin { messageOpcode = opcode }
            }
            guard length <= UInt64(maxMessageBytes - message.count) else { return "message over \(maxMessageBytes) bytes" }
        }
        frame = Frame(fin: fin, opcode: opcode, remaining: Int(length))
        return nil
    }

    /// Consumes payload bytes of the current frame from `input`; returns how many.
    private mutating func readPayload(_ input: UnsafeRawBufferPointer, from offset: Int, _ handle: (Event) -> Void) -> Int {
        guard var current = frame else { return 0 }
        let take = min(current.remaining, input.count - offset)
        let chunk = UnsafeRawBufferPointer(rebasing: input[offset..<(offset + take)])
        let whole = take == current.remaining
        if current.opcode.isControl {
            if whole, control.isEmpty {
                frame = nil
                finishControl(current.opcode, chunk, handle)
                return take
            }
            control.append(contentsOf: chunk)
        } else {
            if whole, current.fin, messageOpcode == nil, message.isEmpty {
                frame = nil
                handle(.message(chunk, isText: current.opcode == .text))
                return take
            }
            message.append(contentsOf: chunk)
        }
        current.remaining -= take
        guard current.remaining == 0 else {
            frame = current
            return take
        }
        frame = nil
        if current.opcode.isControl {
            control.withUnsafeBytes { finishControl(current.opcode, $0, handle) }
            control.removeAll(keepingCapacity: true)
        } else if current.fin {
            let isText = (messageOpcode ?? current.opcode) == .text
            messageOpcode = nil
            message.withUnsafeBytes { handle(.message($0, isText: isText)) }
            if message.capacity > 1 << 16 { message = [] } else { message.removeAll(keepingCapacity: true) }
        }
        return take
    }

    private mutating func finishControl(_ opcode: WebSocketOpcode, _ payload: UnsafeRawBufferPointer, _ handle: (Event) -> Void) {
        switch opcode {
        case .ping:
            handle(.ping(payload))
        case .close:
            isFinished = true
            let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
            handle(.close(code: code, reason: String(decoding: payload.dropFirst(2), as: UTF8.self)))
        default:
            handle(.pong)
        }
    }

    private mutating func fail(_ reason: String, _ handle: (Event) -> Void) {
        isFinished = true
        handle(.failure(reason))
    }
}
