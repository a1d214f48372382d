import Glibc

/// One update as it travels through every peer: writer index, per-writer sequence number and
/// the writer's `CLOCK_MONOTONIC` send time, as the ASCII text `~R<writer>:<seq>:<sendNs>;`.
///
/// The text is embedded unchanged in a JSON string, an MQTT payload, a Yjs map value or a raw
/// mirror message, so one scanner reads them all.
public struct Record: Sendable, Hashable {
    public var writer: Int
    public var seq: Int
    public var sentNanoseconds: UInt64

    public init(writer: Int, seq: Int, sentNanoseconds: UInt64) {
        self.writer = writer
        self.seq = seq
        self.sentNanoseconds = sentNanoseconds
    }

    /// The record's text as bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        append(to: &out)
        return out
    }

    /// Appends the record's text to `out`, digit by digit: a writer's send makes no string.
    public func append(to out: inout [UInt8]) {
        out.append(UInt8(ascii: "~"))
        out.append(UInt8(ascii: "R"))
        Decimal.append(writer, to: &out)
        out.append(UInt8(ascii: ":"))
        Decimal.append(seq, to: &out)
        out.append(UInt8(ascii: ":"))
        Decimal.append(sentNanoseconds, to: &out)
        out.append(UInt8(ascii: ";"))
    }
}

/// Finds records in a byte stream. It keeps its state between calls, so a record split over
/// two messages (the lws mirror server forwards receive chunks, LWS.md §5) is still found;
/// bytes that do not continue a record restart the search.
public struct RecordScanner: Sendable {
    private enum Phase: Sendable { case search, marker, writer, seq, time }
    private var phase = Phase.search
    private var fields: (Int, Int, UInt64) = (0, 0, 0)
    private var digits = 0

    public init() {}

    /// Calls `found` for every record completed by `bytes`, in stream order. Between records
    /// it jumps to the next `~` with `memchr`, and a record that lies whole after it is read in
    /// one pass; only a record split over calls, or bytes that are not one, go byte by byte.
    public mutating func scan(_ bytes: UnsafeRawBufferPointer, _ found: (Record) -> Void) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            if phase == .search {
                guard let marker = memchr(base + offset, Int32(UInt8(ascii: "~")), bytes.count - offset) else { return }
                offset = base.distance(to: UnsafeRawPointer(marker))
                if let (record, length) = Self.whole(UnsafeRawBufferPointer(rebasing: bytes[offset...])) {
                    found(record)
                    offset += length
                    continue
                }
            }
            step(bytes[offset], found)
            offset += 1
        }
    }

    /// The record that `bytes` (from a `~`) starts with and its length, if it lies there
    /// whole: what `step` would find byte by byte (the same wrapping arithmetic), else nil.
    private static func whole(_ bytes: UnsafeRawBufferPointer) -> (Record, Int)? {
        guard bytes.count > 2, bytes[1] == UInt8(ascii: "R") else { return nil }
        var position = 2
        var fields: (UInt64, UInt64, UInt64) = (0, 0, 0)
        for field in 0..<3 {
            let start = position
            var value: UInt64 = 0
            while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 {
                value = value &* 10 &+ UInt64(bytes[position] &- UInt8(ascii: "0"))
                position += 1
            }
            let end = field < 2 ? UInt8(ascii: ":") : UInt8(ascii: ";")
            guard position > start, position < bytes.count, bytes[position] == end else { return nil }
            position += 1
            switch field {
            case 0: fields.0 = value
            case 1: fields.1 = value
            default: fields.2 = value
            }
        }
        let record = Record(
            writer: Int(truncatingIfNeeded: fields.0), seq: Int(truncatingIfNeeded: fields.1), sentNanoseconds: fields.2)
        return (record, position)
    }

    /// Array convenience for `scan(_:_:)`.
    public mutating func scan(_ bytes: [UInt8], _ found: (Record) -> Void) {
        bytes.withUnsafeBytes { scan($0, found) }
    }

    private mutating func step(_ byte: UInt8, _ found: (Record) -> Void) {
        let digit = byte &- UInt8(ascii: "0")
        switch phase {
        case .search:
            if byte == UInt8(ascii: "~") { phase = .marker }
        case .marker:
            if byte == UInt8(ascii: "R") {
                phase = .writer
                fields = (0, 0, 0)
                digits = 0
            } else {
                restart(byte)
            }
        case .writer, .seq, .time:
            if digit < 10 {
                digits += 1
                switch phase {
                case .writer: fields.0 = fields.0 &* 10 &+ Int(digit)
                case .seq: fields.1 = fields.1 &* 10 &+ Int(digit)
                default: fields.2 = fields.2 &* 10 &+ UInt64(digit)
                }
            } else if digits > 0, byte == UInt8(ascii: ":"), phase != .time {
                phase = phase == .writer ? .seq : .time
                digits = 0
            } else if digits > 0, byte == UInt8(ascii: ";"), phase == .time {
                found(Record(writer: fields.0, seq: fields.1, sentNanoseconds: fields.2))
                phase = .search
            } else {
                restart(byte)
            }
        }
    }

    private mutating func restart(_ byte: UInt8) {
        phase = byte == UInt8(ascii: "~") ? .marker : .search
    }
}
