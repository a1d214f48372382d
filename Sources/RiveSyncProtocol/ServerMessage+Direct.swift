import RiveSyncJSON
import RiveSyncModel

extension ServerMessage {
    /// Writes the two messages every command makes (its `ack`, its advance's `batch`) straight
    /// into `out` rather than through a `JSONValue` of the whole message: the same bytes as
    /// `jsonValue.serialized()` (`DirectEncodingTests`). False, with nothing written, for
    /// every other message.
    func writeDirectly(into out: inout some JSONOutput) -> Bool {
        switch self {
        case .ack(let ack, let id):
            Self.opening(#"{"type":"ack""#, id: id, into: &out)
            Self.member("target", ack.target, into: &out)
            Self.member("seq", ack.seq, into: &out)
            Self.member("command", ack.command, into: &out)
            if let commands = ack.commands { Self.member("commands", commands, into: &out) }
            out.append(UInt8(ascii: "}"))
            return true
        case .batch(let batch):
            Self.opening(#"{"type":"batch""#, id: nil, into: &out)
            Self.member("target", batch.target, into: &out)
            Self.member("epoch", batch.epoch, into: &out)
            Self.member("seq", batch.seq, into: &out)
            Self.raw(#","effects":["#, into: &out)
            for (i, effect) in batch.effects.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(effect, into: &out)
            }
            out.append(UInt8(ascii: "]"))
            Self.member("commands", batch.commands, into: &out)
            if let authors = batch.authors { Self.write(authors, into: &out) }
            if batch.events.isEmpty, batch.layers.isEmpty {
                // `StateMachineCodec.members(of:)` without its events and layers.
                if batch.elapsed > 0 {
                    Self.raw(#","elapsed":"#, into: &out)
                    JSONValue.writeNumber(batch.elapsed, into: &out)
                }
                if !batch.settled { Self.raw(#","settled":false"#, into: &out) }
            } else {
                for (name, value) in StateMachineCodec.members(of: batch) {
                    out.append(UInt8(ascii: ","))
                    JSONValue.writeString(name, into: &out)
                    out.append(UInt8(ascii: ":"))
                    value.write(into: &out)
                }
            }
            out.append(UInt8(ascii: "}"))
            return true
        default:
            return false
        }
    }

    /// Room for the message's bytes, so that writing them allocates once: a little more than an
    /// `ack` or a `batch` takes (`writeDirectly`; an ack with an id and a 10-digit command, a
    /// batch's set of a number with its command and author), 64 bytes for the rest.
    var expectedSize: Int {
        switch self {
        case .ack(let ack, _): 96 + ack.target.utf8.count + 24 * (ack.commands?.count ?? 0)
        case .batch(let batch):
            192 + batch.target.utf8.count + batch.epoch.utf8.count + 128 * batch.effects.count + 24 * batch.commands.count
                + 48 * (batch.authors?.count ?? 0)
        default: 64
        }
    }

    /// An effect as `StateCodec.encode(effect)` writes it; a `set` that introduces no
    /// instance (a value written, the usual effect) straight into `out`.
    private static func write(_ effect: Effect, into out: inout some JSONOutput) {
        guard case .set(let instance, let property, let value, let states) = effect.change, states.isEmpty else {
            return StateCodec.encode(effect).write(into: &out)
        }
        Self.raw(#"{"op":"set","paths":["#, into: &out)
        for (i, path) in effect.paths.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeString(path, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        member("instance", instance.rawValue, into: &out)
        member("property", property, into: &out)
        Self.raw(#","value":"#, into: &out)
        ValueCodec.encode(value).write(into: &out)
        if effect.origin == .stateMachine { Self.raw(#","by":"stateMachine""#, into: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// A batch's `authors` as `Authors.encode` writes them (`,"authors":[…]`).
    private static func write(_ authors: [Author?], into out: inout some JSONOutput) {
        Self.raw(#","authors":["#, into: &out)
        for (i, author) in authors.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "{"))
            if let client = author?.client {
                Self.raw(#""client":"#, into: &out)
                JSONValue.writeString(client, into: &out)
            }
            if let token = author?.token {
                if author?.client != nil { out.append(UInt8(ascii: ",")) }
                Self.raw(#""token":"#, into: &out)
                JSONValue.writeString(token, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `{"type":"…"` (`opening`, the type's name needing no escaping) and the `id` member
    /// when there is one.
    private static func opening(_ opening: StaticString, id: JSONValue?, into out: inout some JSONOutput) {
        Self.raw(opening, into: &out)
        if let id {
            Self.raw(#","id":"#, into: &out)
            id.write(into: &out)
        }
    }

    private static func member(_ name: StaticString, _ value: String, into out: inout some JSONOutput) {
        start(of: name, into: &out)
        JSONValue.writeString(value, into: &out)
    }

    private static func member(_ name: StaticString, _ value: UInt64, into out: inout some JSONOutput) {
        start(of: name, into: &out)
        JSONValue.writeNumber(value, into: &out)
    }

    private static func member(_ name: StaticString, _ values: [UInt64], into out: inout some JSONOutput) {
        start(of: name, into: &out)
        out.append(UInt8(ascii: "["))
        for (i, value) in values.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeNumber(value, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Appends a literal's bytes (a `String`'s UTF-8 view would go byte by byte).
    private static func raw(_ text: StaticString, into out: inout some JSONOutput) {
        JSONValue.writeLiteral(text, into: &out)
    }

    /// `,"name":` (member names here need no escaping).
    private static func start(of name: StaticString, into out: inout some JSONOutput) {
        Self.raw(",\"", into: &out)
        Self.raw(name, into: &out)
        Self.raw(#"":"#, into: &out)
    }
}
