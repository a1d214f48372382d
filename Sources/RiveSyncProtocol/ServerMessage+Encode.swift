import RiveSyncJSON
import RiveSyncModel

extension ServerMessage {
    /// The frame's bytes.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(expectedSize)
        if !writeDirectly(into: &out) { jsonValue.write(into: &out) }
        return out
    }

    /// The frame's bytes, written once after `headroom` free bytes (for a transport that writes
    /// its frame header there and sends the bytes where they lie).
    public func serialized(headroom: Int) -> HeadroomBytes {
        var out = HeadroomWriter(headroom: headroom, capacity: expectedSize)
        if !writeDirectly(into: &out) { jsonValue.write(into: &out) }
        return out.finish()
    }

    /// The bytes of `.ack(Ack(target:seq:command:commands:), id:)` after `headroom` free bytes,
    /// written without making the message.
    public static func ackBytes(
        target: String, seq: UInt64, command: UInt64, commands: [UInt64]?, id: JSONValue?, headroom: Int
    ) -> HeadroomBytes {
        var out = HeadroomWriter(
            headroom: headroom, capacity: ackSize(target: target, seq: seq, command: command, commands: commands, id: id))
        writeAck(target: target, seq: seq, command: command, commands: commands, id: id, into: &out)
        return out.finish()
    }

    /// `ackBytes(target:seq:command:commands:id:headroom:)` of an ack of `openings`' target: their
    /// ack's bytes copied in.
    public static func ackBytes(
        openings: TargetOpenings, seq: UInt64, command: UInt64, commands: [UInt64]?, id: JSONValue?, headroom: Int
    ) -> HeadroomBytes {
        let size = ackSize(target: openings.target, seq: seq, command: command, commands: commands, id: id)
        var out = HeadroomWriter(headroom: headroom, capacity: size)
        writeAckOpening(id: id, into: &out)
        out.append(openings.ack)
        writeAckRest(seq: seq, command: command, commands: commands, into: &out)
        return out.finish()
    }

    /// The bytes of `.batch(Batch(batch, epoch: epoch, effects: effects, withAuthors: withAuthors))`
    /// after `headroom` free bytes, written from the change batch without making the message.
    /// `effects`: the batch's, or those a subscriber's paths see.
    public static func batchBytes(
        _ batch: borrowing ChangeBatch, epoch: String, effects: [Effect], withAuthors: Bool, headroom: Int
    ) -> HeadroomBytes {
        var out = HeadroomWriter(
            headroom: headroom, capacity: batchSize(batch, epoch: epoch, effects: effects, withAuthors: withAuthors))
        writeBatch(batch, epoch: epoch, effects: effects, withAuthors: withAuthors, into: &out)
        return out.finish()
    }

    /// `batchBytes(_:epoch:effects:withAuthors:headroom:)` of a batch of `openings`' target and
    /// epoch: their batch's bytes copied in, the rest written.
    public static func batchBytes(
        _ batch: borrowing ChangeBatch, openings: TargetOpenings, effects: [Effect], withAuthors: Bool, headroom: Int
    ) -> HeadroomBytes {
        var out = HeadroomWriter(
            headroom: headroom, capacity: openings.batch.count + batchRestSize(batch, effects: effects, withAuthors: withAuthors))
        out.append(openings.batch)
        writeBatchRest(batch, effects: effects, withAuthors: withAuthors, into: &out)
        return out.finish()
    }

    /// The message as JSON, fields in the documented order (tests and digests compare bytes).
    public var jsonValue: JSONValue {
        var members: [(String, JSONValue)] = [("type", .string(type.rawValue))]
        if let id { members.append(("id", id)) }
        members += fields
        return .object(members)
    }

    /// The id of the request this message answers, if any.
    public var id: JSONValue? {
        switch self {
        case .welcome(_, let id), .pong(let id), .files(_, let id), .filePart(_, _, _, let id), .targets(_, let id), .schema(_, _, let id),
            .names(_, let id),
            .properties(_, let id), .enums(_, let id), .defaultViewModelInfo(_, _, let id), .instance(_, let id), .target(_, let id),
            .targetDeleted(_, _, let id), .subscribed(_, let id), .unsubscribed(_, _, let id), .snapshot(_, let id), .ack(_, let id),
            .value(_, let id), .advanced(_, _, _, let id), .digest(_, _, _, let id), .asset(_, let id), .error(_, let id),
            .presenceJoined(_, _, _, let id), .presenceUpdated(_, let id),
            .presenceLeft(_, let id), .presenceMembers(_, _, _, let id):
            id
        case .batch, .freshness, .presence: nil
        }
    }

    /// The fields after `type` and `id`.
    private var fields: [(String, JSONValue)] {
        switch self {
        case .welcome(let welcome, _):
            [
                ("protocol", .number(Double(welcome.protocolVersion))), ("server", .string(welcome.server)),
                ("epoch", .string(welcome.epoch)), ("limits", .object(welcome.limits.map { ($0.name, .number(Double($0.value))) })),
            ]
        case .pong: []
        case .filePart(let name, let received, let size, _):
            [("name", .string(name)), ("received", .number(Double(received))), ("size", .number(Double(size)))]
        case .freshness(let fresh): [("fresh", .bool(fresh))]
        case .files(let files, _):
            [
                (
                    "files",
                    .array(
                        files.map {
                            ["name": .string($0.name), "worker": .number(Double($0.worker)), "source": .string($0.source.rawValue)]
                        })
                )
            ]
        case .targets(let page, _):
            [("targets", .array(page.targets.map { .object($0.members) }))] + (page.next.map { [("next", .string($0))] } ?? [])
        case .schema(let file, let schema, _): [("file", .string(file)), ("schema", schema)]
        case .names(let names, _): [("names", .array(names.map(JSONValue.string)))]
        case .properties(let properties, _):
            [
                (
                    "properties",
                    .array(
                        properties.map { ["name": .string($0.name), "type": .string($0.type.rawValue), "metaData": .string($0.metaData)] })
                )
            ]
        case .enums(let enums, _):
            [("enums", .array(enums.map { ["name": .string($0.name), "values": .array($0.values.map(JSONValue.string))] }))]
        case .defaultViewModelInfo(let viewModel, let instance, _): [("viewModel", .string(viewModel)), ("instance", .string(instance))]
        case .instance(let created, _):
            [
                ("instance", Self.number(created.instance.rawValue)), ("viewModel", .string(created.viewModel)),
                ("name", .string(created.name)),
            ]
        case .target(let info, _): [("target", .string(info.name))] + info.members
        case .targetDeleted(let target, let freed, _):
            [("target", .string(target)), ("freed", .array(freed.map { Self.number($0.rawValue) }))]
        case .subscribed(let subscribed, _):
            [
                ("target", .string(subscribed.target)), ("epoch", .string(subscribed.epoch)), ("seq", Self.number(subscribed.seq)),
                ("resumed", .bool(subscribed.resumed)),
            ] + (subscribed.presence.map { [("presence", PresenceMessages.encode($0))] } ?? [])
        case .unsubscribed(let target, let reason, _):
            [("target", .string(target))] + (reason.map { [("reason", .string($0.rawValue))] } ?? [])
        case .snapshot(let snapshot, _): snapshot.members
        case .batch(let batch):
            [
                ("target", .string(batch.target)), ("epoch", .string(batch.epoch)), ("seq", Self.number(batch.seq)),
                ("effects", .array(batch.effects.map(StateCodec.encode))), ("commands", .array(batch.commands.map(Self.number))),
            ] + (batch.authors.map { [("authors", Authors.encode($0))] } ?? []) + StateMachineCodec.members(of: batch)
        case .ack(let ack, _):
            [("target", .string(ack.target)), ("seq", Self.number(ack.seq)), ("command", Self.number(ack.command))]
                + (ack.commands.map { [("commands", .array($0.map(Self.number)))] } ?? [])
        case .value(let reply, _):
            [
                ("target", .string(reply.target)), ("seq", Self.number(reply.seq)), ("path", .string(reply.path)),
                ("valueType", .string(reply.valueType.rawValue)), ("value", ValueCodec.encode(reply.value)),
            ]
        case .advanced(let target, let seq, let settled, _):
            [("target", .string(target)), ("seq", Self.number(seq)), ("settled", .bool(settled))]
        case .digest(let target, let seq, let digest, _):
            [("target", .string(target)), ("seq", Self.number(seq)), ("digest", .string(digest))]
        case .asset(let reference, _): [("asset", ValueCodec.encode(.asset(reference)))]
        case .error(let error, _):
            [("code", .string(error.code.rawValue)), ("message", .string(error.message))]
                + (error.details.isEmpty ? [] : [("details", .object(error.details))])
        case .presence(let message): message.members
        case .presenceJoined(let target, let member, let resumed, _):
            [("target", .string(target)), ("member", .string("\(member)")), ("resumed", .bool(resumed))]
        case .presenceUpdated(let target, _), .presenceLeft(let target, _): [("target", .string(target))]
        case .presenceMembers(let target, let seq, let members, _):
            [("target", .string(target)), ("seq", Self.number(seq)), ("members", PresenceMessages.encode(members))]
        }
    }

    static func number(_ n: UInt64) -> JSONValue { .number(Double(n)) }
}

extension ServerMessage.TargetInfo {
    /// The listing entry's fields.
    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("name", .string(name)), ("file", .string(file))]
        switch kind {
        case .stateMachine(let artboard, let stateMachine):
            members += [("kind", "stateMachine"), ("artboard", .string(artboard)), ("stateMachine", .string(stateMachine))]
        case .instance:
            members.append(("kind", "instance"))
        }
        return members + [
            ("mode", .string(mode.rawValue)), ("rate", .number(rate)), ("seq", ServerMessage.number(seq)),
            ("bindings", .array(bindings.map(StateCodec.encode))),
        ] + (layers.map { [("layers", .array($0.map(StateMachineCodec.encode)))] } ?? []) + (settled.map { [("settled", .bool($0))] } ?? [])
            + (inputs.map { [("inputs", .array($0.map(StateMachineCodec.encode)))] } ?? [])
    }

    /// The listing entry as JSON.
    public var jsonValue: JSONValue { .object(members) }
}

extension ServerMessage.Snapshot {
    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("target", .string(target)), ("epoch", .string(epoch)), ("seq", ServerMessage.number(seq))]
        switch content {
        case .target(let bindings, let instances):
            members += [("bindings", .array(bindings.map(StateCodec.encode))), ("instances", .array(instances.map(StateCodec.encode)))]
        case .values(let values):
            members.append(("values", .object(values.map { ($0.path, $0.value) })))
        }
        if let reason { members.append(("reason", .string(reason.rawValue))) }
        if let resumed { members.append(("resumed", .bool(resumed))) }
        if let presence { members.append(("presence", PresenceMessages.encode(presence))) }
        return members
    }
}
