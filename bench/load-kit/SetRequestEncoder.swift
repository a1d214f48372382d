/// rivesync's `set` request carrying a record (protocol/PROTOCOL.md):
/// `{"type":"set","id":<id>,"target":"<target>","path":"<path>","value":"<record>"}`, ids
/// counting up from `firstID`, the path chosen by the record's seq among `paths`.
///
/// The bytes are written straight into a buffer, digit by digit, from parts made once per
/// path, so a writer's send makes no string and, framed with `appendMaskedFrame`, no
/// allocation once its buffers have grown.
public struct SetRequestEncoder: Sendable {
    private static let head = Array(#"{"type":"set","id":"#.utf8)
    private static let tail = Array(#""}"#.utf8)
    /// `,"target":"<target>","path":"<path>","value":"` for each path.
    private let middles: [[UInt8]]
    /// The id of the next request.
    public private(set) var nextID: Int
    /// The payload of the frame being made (`appendMaskedFrame`), kept for its capacity.
    private var scratch: [UInt8] = []

    /// An encoder for sets of `target`, cycling over `paths` (at least one).
    public init(target: String, paths: [String], firstID: Int) {
        precondition(!paths.isEmpty, "SetRequestEncoder needs a path")
        middles = paths.map { Array(#","target":"\#(target)","path":"\#($0)","value":""#.utf8) }
        nextID = firstID
    }

    /// Appends the next request's JSON text, carrying `record`, to `out`.
    public mutating func appendPayload(_ record: Record, to out: inout [UInt8]) {
        out.append(contentsOf: Self.head)
        Decimal.append(nextID, to: &out)
        out.append(contentsOf: middles[record.seq % middles.count])
        record.append(to: &out)
        out.append(contentsOf: Self.tail)
        nextID += 1
    }

    /// Appends the next request, carrying `record`, as one masked text frame to `out`.
    public mutating func appendMaskedFrame(_ record: Record, maskKey: UInt32, to out: inout [UInt8]) {
        var payload: [UInt8] = []
        swap(&payload, &scratch)
        payload.removeAll(keepingCapacity: true)
        appendPayload(record, to: &payload)
        payload.withUnsafeBytes { WebSocketFrameEncoder.appendMaskedFrame(opcode: .text, payload: $0, maskKey: maskKey, to: &out) }
        scratch = payload
    }
}
