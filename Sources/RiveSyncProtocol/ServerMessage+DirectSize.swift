import RiveSyncJSON
import RiveSyncModel

extension ServerMessage {
    /// Room for the message's bytes, so that writing them allocates once: for an `ack` or a
    /// `batch` (`writeDirectly`), their length when no string needs escaping and every number
    /// is whole (a little more for other numbers and rarer effects); 64 bytes for the rest.
    /// (The room is kept with the bytes: a batch's frame lives on in its target's history.)
    var expectedSize: Int {
        switch self {
        case .ack(let ack, let id):
            Self.ackSize(target: ack.target, seq: ack.seq, command: ack.command, commands: ack.commands, id: id)
        case .batch(let batch):
            Self.batchSize(batch, epoch: batch.epoch, effects: batch.effects, withAuthors: batch.authors != nil)
        default: 64
        }
    }

    /// `writeAck`'s length.
    static func ackSize(target: String, seq: UInt64, command: UInt64, commands: [UInt64]?, id: JSONValue?) -> Int {
        var size = length(#"{"type":"ack""#) + ackTargetSize(target) + length(of: seq)
        size += length(#","command":"#) + length(of: command) + 1
        if let id { size += length(#","id":"#) + length(of: id) }
        if let commands { size += length(#","commands":"#) + length(of: commands) }
        return size
    }

    /// `writeBatch`'s length.
    static func batchSize(_ batch: borrowing some BatchContent, epoch: String, effects: [Effect], withAuthors: Bool) -> Int {
        batchOpeningSize(target: batch.target, epoch: epoch) + batchRestSize(batch, effects: effects, withAuthors: withAuthors)
    }

    /// `writeAckTarget`'s length.
    static func ackTargetSize(_ target: String) -> Int { length(#","target":"#) + string(target) + length(#","seq":"#) }

    /// `writeBatchOpening`'s length.
    static func batchOpeningSize(target: String, epoch: String) -> Int {
        length(#"{"type":"batch""#) + length(#","target":"#) + string(target) + length(#","epoch":"#) + string(epoch) + length(#","seq":"#)
    }

    /// `writeBatchRest`'s length.
    static func batchRestSize(_ batch: borrowing some BatchContent, effects: [Effect], withAuthors: Bool) -> Int {
        var size = length(of: batch.seq) + length(#","effects":[]"#) + max(effects.count - 1, 0)
        for i in effects.indices { size += length(of: effects[i]) }
        size += length(#","commands":"#) + length(of: batch.commands) + 1
        if withAuthors {
            let authors = batch.authorCount
            size += length(#","authors":[]"#) + max(authors - 1, 0) + 2 * authors
            for i in 0..<authors {
                let author = batch.author(ofCommandAt: i)
                if let client = author?.client { size += length(#""client":"#) + string(client) }
                if let token = author?.token { size += length(#""token":"#) + string(token) + (author?.client != nil ? 1 : 0) }
            }
        }
        if batch.elapsed > 0 { size += length(#","elapsed":"#) + 24 }
        if !batch.events.isEmpty { size += length(#","events":[]"#) + 64 * batch.events.count }
        if !batch.layers.isEmpty { size += length(#","layers":[]"#) + 96 * batch.layers.count }
        if !batch.settled { size += length(#","settled":false"#) }
        return size
    }

    /// An effect's length: exact for a `set` that introduces no instance.
    private static func length(of effect: Effect) -> Int {
        guard case .set(let instance, let property, let value, let states) = effect.change, states.isEmpty else { return 128 }
        var size = length(#"{"op":"set","paths":[]"#) + max(effect.paths.count - 1, 0)
        for i in effect.paths.indices { size += string(effect.paths[i]) }
        size += length(#","instance":"#) + length(of: instance.rawValue) + length(#","property":"#) + string(property)
        size += length(#","value":"#) + length(of: value) + 1
        if effect.origin == .stateMachine { size += length(#","by":"stateMachine""#) }
        return size
    }

    /// A value's length, as `write(_:into:)` writes it (a bound for other numbers and values).
    private static func length(of value: PropertyValue) -> Int {
        switch value {
        case .string(let text), .enumValue(let text): string(text)
        case .boolean(let on): on ? 4 : 5
        case .trigger(let count): length(of: count)
        case .number(let n) where isWholeFloat(n): (n < 0 ? 1 : 0) + length(of: UInt64(abs(n)))
        case .number: 24
        default: 32
        }
    }

    /// An id's length (a bound for ids other than whole numbers and strings).
    private static func length(of id: JSONValue) -> Int {
        switch id {
        case .number(let n) where n.rounded() == n && abs(n) < 9.007_199_254_740_992e15:
            (n < 0 ? 1 : 0) + length(of: UInt64(abs(n)))
        case .string(let text): string(text)
        default: 32
        }
    }

    /// `[…]` of integers.
    private static func length(of numbers: [UInt64]) -> Int {
        var size = 2 + max(numbers.count - 1, 0)
        for i in numbers.indices { size += length(of: numbers[i]) }
        return size
    }

    /// An integer's digits as `JSONValue.writeNumber` writes them (a bound past 2^53, where it
    /// goes through `Double`).
    private static func length(of n: UInt64) -> Int {
        guard n < 9_007_199_254_740_992 else { return 24 }
        var digits = 1
        var rest = n
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }

    /// A quoted string's length when nothing in it is escaped.
    private static func string(_ text: String) -> Int { text.utf8.count + 2 }

    private static func length(_ literal: StaticString) -> Int { literal.utf8CodeUnitCount }
}
