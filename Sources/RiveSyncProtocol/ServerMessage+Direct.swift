import RiveSyncJSON
import RiveSyncModel

extension ServerMessage {
    /// Writes the two messages every command makes (its `ack`, its advance's `batch`) straight
    /// into `out` rather than through a `JSONValue` of the whole message: the same bytes as
    /// `jsonValue.serialized()` (`DirectEncodingTests`). False, with nothing written, for
    /// every other message.
    func writeDirectly(into out: inout some JSONOutput & ~Copyable) -> Bool {
        switch self {
        case .ack(let ack, let id):
            Self.writeAck(target: ack.target, seq: ack.seq, command: ack.command, commands: ack.commands, id: id, into: &out)
            return true
        case .batch(let batch):
            Self.writeBatch(batch, epoch: batch.epoch, effects: batch.effects, withAuthors: batch.authors != nil, into: &out)
            return true
        default:
            return false
        }
    }

    /// An `ack` (`ServerMessage.ack`'s members, in order).
    static func writeAck(
        target: String, seq: UInt64, command: UInt64, commands: [UInt64]?, id: JSONValue?, into out: inout some JSONOutput & ~Copyable
    ) {
        writeAckOpening(id: id, into: &out)
        writeAckTarget(target, into: &out)
        writeAckRest(seq: seq, command: command, commands: commands, into: &out)
    }

    /// An `ack`'s type and id.
    static func writeAckOpening(id: JSONValue?, into out: inout some JSONOutput & ~Copyable) {
        opening(#"{"type":"ack""#, id: id, into: &out)
    }

    /// An `ack`'s target, up to its seq (`TargetOpenings`).
    static func writeAckTarget(_ target: String, into out: inout some JSONOutput & ~Copyable) {
        member(#","target":"#, target, into: &out)
        raw(#","seq":"#, into: &out)
    }

    /// An `ack` from its seq on (after `writeAckTarget`).
    static func writeAckRest(seq: UInt64, command: UInt64, commands: [UInt64]?, into out: inout some JSONOutput & ~Copyable) {
        JSONValue.writeNumber(seq, into: &out)
        member(#","command":"#, command, into: &out)
        if let commands { member(#","commands":"#, commands, into: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// A `batch` of `effects` (all of `batch`'s, or those a subscriber's paths see), with its
    /// commands' authors when `withAuthors`.
    static func writeBatch(
        _ batch: borrowing some BatchContent, epoch: String, effects: [Effect], withAuthors: Bool,
        into out: inout some JSONOutput & ~Copyable
    ) {
        writeBatchOpening(target: batch.target, epoch: epoch, into: &out)
        writeBatchRest(batch, effects: effects, withAuthors: withAuthors, into: &out)
    }

    /// What every `batch` of `target` in `epoch` starts with, up to its seq (`TargetOpenings`).
    static func writeBatchOpening(target: String, epoch: String, into out: inout some JSONOutput & ~Copyable) {
        member(#"{"type":"batch","target":"#, target, into: &out)
        member(#","epoch":"#, epoch, into: &out)
        raw(#","seq":"#, into: &out)
    }

    /// A `batch` from its seq on (after `writeBatchOpening`).
    static func writeBatchRest(
        _ batch: borrowing some BatchContent, effects: [Effect], withAuthors: Bool, into out: inout some JSONOutput & ~Copyable
    ) {
        JSONValue.writeNumber(batch.seq, into: &out)
        raw(#","effects":["#, into: &out)
        for i in effects.indices {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            // The usual effect read part by part where it lies: passed or bound whole, it was
            // copied (~400 instructions: everything it holds retained, then released).
            guard case .set(let instance, let property, let value, let states) = effects[i].change, states.isEmpty else {
                StateCodec.encode(effects[i]).write(into: &out)
                continue
            }
            writeSet(
                paths: effects[i].paths, instance: instance, property: property, value: value, origin: effects[i].origin, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        member(#","commands":"#, batch.commands, into: &out)
        if withAuthors { writeAuthors(of: batch, into: &out) }
        // `StateMachineCodec.members(of:)`.
        if batch.elapsed > 0 {
            raw(#","elapsed":"#, into: &out)
            JSONValue.writeNumber(batch.elapsed, into: &out)
        }
        if !batch.events.isEmpty {
            raw(#","events":"#, into: &out)
            JSONValue.array(batch.events.map(StateMachineCodec.encode)).write(into: &out)
        }
        if !batch.layers.isEmpty {
            raw(#","layers":"#, into: &out)
            JSONValue.array(batch.layers.map(StateMachineCodec.encode)).write(into: &out)
        }
        if !batch.settled { raw(#","settled":false"#, into: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// A `set` effect that introduces no instance (a value written, the usual effect) as
    /// `StateCodec.encode(effect)` writes it.
    private static func writeSet(
        paths: [String], instance: InstanceID, property: String, value: PropertyValue, origin: EffectOrigin,
        into out: inout some JSONOutput & ~Copyable
    ) {
        raw(#"{"op":"set","paths":["#, into: &out)
        for i in paths.indices {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeString(paths[i], into: &out)
        }
        member(#"],"instance":"#, instance.rawValue, into: &out)
        member(#","property":"#, property, into: &out)
        raw(#","value":"#, into: &out)
        write(value, into: &out)
        if origin == .stateMachine { raw(#","by":"stateMachine""#, into: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// A value as `ValueCodec.encode(value)` writes it; text, booleans, trigger counts and
    /// whole numbers a `Float` holds exactly without making a `JSONValue` (or, for a number,
    /// the `String` `ValueCodec.number` reads it back from).
    private static func write(_ value: PropertyValue, into out: inout some JSONOutput & ~Copyable) {
        switch value {
        case .string(let text), .enumValue(let text): JSONValue.writeString(text, into: &out)
        case .boolean(let on): raw(on ? "true" : "false", into: &out)
        case .trigger(let count): JSONValue.writeNumber(count, into: &out)
        case .number(let n) where isWholeFloat(n): JSONValue.writeNumber(Double(n), into: &out)
        default: ValueCodec.encode(value).write(into: &out)
        }
    }

    /// Whether `n` is a whole number below 2^24, which its `Float` holds exactly: its shortest
    /// text is its digits, so `ValueCodec.number(n)` is `Double(n)`.
    static func isWholeFloat(_ n: Float) -> Bool {
        n.rounded() == n && abs(n) < 16_777_216
    }

    /// A batch's `authors` as `Authors.encode` writes them (`,"authors":[…]`).
    private static func writeAuthors(of batch: borrowing some BatchContent, into out: inout some JSONOutput & ~Copyable) {
        raw(#","authors":["#, into: &out)
        for i in 0..<batch.authorCount {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "{"))
            let author = batch.author(ofCommandAt: i)
            if let client = author?.client {
                raw(#""client":"#, into: &out)
                JSONValue.writeString(client, into: &out)
            }
            if let token = author?.token {
                if author?.client != nil { out.append(UInt8(ascii: ",")) }
                raw(#""token":"#, into: &out)
                JSONValue.writeString(token, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `{"type":"…"` (`opening`, the type's name needing no escaping) and the `id` member
    /// when there is one.
    private static func opening(_ opening: StaticString, id: JSONValue?, into out: inout some JSONOutput & ~Copyable) {
        raw(opening, into: &out)
        if let id {
            raw(#","id":"#, into: &out)
            id.write(into: &out)
        }
    }

    /// `key` (the member's `,"name":`, or all that goes before the value: member names here
    /// need no escaping), then the value.
    private static func member(_ key: StaticString, _ value: String, into out: inout some JSONOutput & ~Copyable) {
        raw(key, into: &out)
        JSONValue.writeString(value, into: &out)
    }

    private static func member(_ key: StaticString, _ value: UInt64, into out: inout some JSONOutput & ~Copyable) {
        raw(key, into: &out)
        JSONValue.writeNumber(value, into: &out)
    }

    private static func member(_ key: StaticString, _ values: [UInt64], into out: inout some JSONOutput & ~Copyable) {
        raw(key, into: &out)
        out.append(UInt8(ascii: "["))
        for i in values.indices {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeNumber(values[i], into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Appends a literal's bytes (a `String`'s UTF-8 view would go byte by byte).
    @inline(__always)
    private static func raw(_ text: StaticString, into out: inout some JSONOutput & ~Copyable) {
        JSONValue.writeLiteral(text, into: &out)
    }
}
