import RiveSyncJSON
import RiveSyncModel

extension ServerMessage {
    /// Reads a message the daemon sent, strictly: an unknown `type`, a missing or wrongly typed
    /// field, a value its type cannot hold and an unknown error code are all errors, never
    /// defaults. Fields it does not know are ignored (PROTOCOL.md §14). `types` types the values
    /// of batches and whole-target snapshots.
    public init(_ json: JSONValue, types: some ServerMessageTypes) throws(ServerMessageDecodingError) {
        guard json.objectValue != nil, let name = json["type"]?.stringValue else { throw .notAMessage }
        let id = json["id"]
        guard let type = ServerMessageType(rawValue: name) else { throw .unknownType(name, id: id) }
        let r = ServerMessageReader(json, type: type)
        if let id, id.stringValue == nil, id.intValue == nil { throw r.failure("id", "expected an integer or a string") }
        switch type {
        case .welcome:
            let limits = try r.object("limits").map { (name, value) throws(ServerMessageDecodingError) in
                guard let number = value.intValue else { throw r.failure("limits.\(name)", "expected an integer") }
                return Limit(name: name, value: number)
            }
            self = .welcome(
                Welcome(
                    protocolVersion: try r.int("protocol"), server: try r.string("server"), epoch: try r.string("epoch"), limits: limits),
                id: id)
        case .pong: self = .pong(id: id)
        case .filePart: self = .filePart(name: try r.string("name"), received: try r.int("received"), size: try r.int("size"), id: id)
        case .freshness: self = .freshness(fresh: try r.bool("fresh"))
        case .files:
            let files = try r.items("files") { (f) throws(ServerMessageDecodingError) in
                FileInfo(name: try f.string("name"), worker: try f.int("worker"), source: try f.choice("source", FileSource.self))
            }
            self = .files(files, id: id)
        case .targets:
            self = .targets(TargetPage(targets: try r.items("targets", TargetInfo.init), next: try r.optionalString("next")), id: id)
        case .schema:
            _ = try r.object("schema")
            self = .schema(file: try r.string("file"), schema: try r.value("schema"), id: id)
        case .names: self = .names(try r.strings("names"), id: id)
        case .properties:
            let properties = try r.items("properties") { (p) throws(ServerMessageDecodingError) in
                PropertyInfo(name: try p.string("name"), type: try p.choice("type", DataType.self), metaData: try p.string("metaData"))
            }
            self = .properties(properties, id: id)
        case .enums:
            let enums = try r.items("enums") { (e) throws(ServerMessageDecodingError) in
                EnumInfo(name: try e.string("name"), values: try e.strings("values"))
            }
            self = .enums(enums, id: id)
        case .defaultViewModelInfo:
            self = .defaultViewModelInfo(viewModel: try r.string("viewModel"), instance: try r.string("instance"), id: id)
        case .instance:
            self = .instance(
                CreatedInstance(instance: try r.instance("instance"), viewModel: try r.string("viewModel"), name: try r.string("name")),
                id: id)
        case .target:
            let info = try TargetInfo(r)
            guard try r.string("target") == info.name else { throw r.failure("target", "differs from 'name'") }
            self = .target(info, id: id)
        case .targetDeleted: self = .targetDeleted(target: try r.string("target"), freed: try r.instances("freed"), id: id)
        case .subscribed:
            let subscribed = Subscribed(
                target: try r.string("target"), epoch: try r.string("epoch"), seq: try r.count("seq"), resumed: try r.bool("resumed"),
                presence: try PresenceMessage.optionalEntries(r, "presence"))
            self = .subscribed(subscribed, id: id)
        case .unsubscribed:
            self = .unsubscribed(target: try r.string("target"), reason: try r.optionalChoice("reason", UnsubscribeReason.self), id: id)
        case .snapshot: self = .snapshot(try Snapshot(r, types: types), id: id)
        case .batch: self = .batch(try Batch(r, types: types))
        case .ack:
            let commands = r.json["commands"] == nil ? nil : try r.counts("commands")
            if let commands, commands.first != (try r.count("command")) { throw r.failure("commands", "must start with 'command'") }
            self = .ack(
                Ack(target: try r.string("target"), seq: try r.count("seq"), command: try r.count("command"), commands: commands), id: id)
        case .value:
            let valueType = try r.choice("valueType", DataType.self)
            let path = try r.string("path")
            let value = try Self.value(r, "value", as: valueType, path: path)
            self = .value(
                ValueReply(target: try r.string("target"), seq: try r.count("seq"), path: path, valueType: valueType, value: value), id: id)
        case .advanced:
            // A daemon before the state machine ran sent no `settled`: it was always settled.
            self = .advanced(
                target: try r.string("target"), seq: try r.count("seq"), settled: try r.optionalBool("settled") ?? true, id: id)
        case .digest: self = .digest(target: try r.string("target"), seq: try r.count("seq"), digest: try r.string("digest"), id: id)
        case .asset:
            guard case .asset(let reference?) = try Self.value(r, "asset", as: .assetBlob, path: "asset") else {
                throw r.failure("asset", "expected an asset reference")
            }
            self = .asset(reference, id: id)
        case .error:
            let code = try r.string("code")
            let message = try r.string("message")
            guard let typed = WireErrorCode(rawValue: code) else { throw .unknownErrorCode(code, message: message, id: id) }
            let details = r.json["details"] == nil ? [] : try r.object("details")
            self = .error(WireError(code: typed, message: message, details: details), id: id)
        case .presence: self = .presence(try PresenceMessage(r))
        case .presenceJoined:
            self = .presenceJoined(
                target: try r.string("target"), member: try PresenceMessage.member(r, "member"), resumed: try r.bool("resumed"), id: id)
        case .presenceUpdated: self = .presenceUpdated(target: try r.string("target"), id: id)
        case .presenceLeft: self = .presenceLeft(target: try r.string("target"), id: id)
        case .presenceMembers:
            self = .presenceMembers(
                target: try r.string("target"), seq: try r.count("seq"), members: try PresenceMessage.entries(r, "members"), id: id)
        }
    }

    /// A value of `type` at `field`, as §4 encodes it.
    static func value(
        _ r: ServerMessageReader, _ field: String, as type: DataType, path: String
    ) throws(ServerMessageDecodingError) -> PropertyValue {
        let json = try r.value(field)
        do {
            return try ValueCodec.decode(json, as: type, path: path)
        } catch {
            throw r.failure(field, WireError(error).message)
        }
    }
}

extension ServerMessage.TargetInfo {
    init(_ r: ServerMessageReader) throws(ServerMessageDecodingError) {
        let kind: ServerMessage.TargetKind
        switch try r.string("kind") {
        case "stateMachine": kind = .stateMachine(artboard: try r.string("artboard"), stateMachine: try r.string("stateMachine"))
        case "instance": kind = .instance
        case let other: throw r.failure("kind", "'\(other)' is not one of stateMachine, instance")
        }
        self.init(
            name: try r.string("name"), file: try r.string("file"), kind: kind, mode: try r.choice("mode", ServerMessage.AdvanceMode.self),
            rate: try r.number("rate"), seq: try r.count("seq"), bindings: try ServerMessage.bindings(r),
            layers: r.json["layers"] == nil ? nil : try r.items("layers", StateMachineCodec.layer), settled: try r.optionalBool("settled"),
            inputs: r.json["inputs"] == nil ? nil : try r.items("inputs", StateMachineCodec.input))
    }
}

extension ServerMessage.Snapshot {
    init(_ r: ServerMessageReader, types: some ServerMessageTypes) throws(ServerMessageDecodingError) {
        let target = try r.string("target")
        let content: ServerMessage.SnapshotContent
        if r.json["values"] != nil {
            guard r.json["bindings"] == nil, r.json["instances"] == nil else {
                throw r.failure("values", "a snapshot has values or bindings and instances, not both")
            }
            content = .values(try r.object("values").map { ServerMessage.PathValue(path: $0.0, value: $0.1) })
        } else {
            let bindings = try ServerMessage.bindings(r)
            let states = try r.array("instances")
            guard let schema = types.schema(ofTarget: target) else { throw .untypedTarget(type: .snapshot, target: target) }
            var instances: [InstanceState] = []
            for (index, state) in states.enumerated() {
                do {
                    instances.append(try StateCodec.decodeState(state, schema: schema))
                } catch {
                    throw r.failure("instances[\(index)]", error.message)
                }
            }
            content = .target(bindings: bindings, instances: instances)
        }
        self.init(
            target: target, epoch: try r.string("epoch"), seq: try r.count("seq"), content: content,
            reason: try r.optionalChoice("reason", ServerMessage.SnapshotReason.self), resumed: try r.optionalBool("resumed"),
            presence: try PresenceMessage.optionalEntries(r, "presence"))
    }
}

extension ServerMessage.Batch {
    init(_ r: ServerMessageReader, types: some ServerMessageTypes) throws(ServerMessageDecodingError) {
        let target = try r.string("target")
        let seq = try r.count("seq")
        let items = try r.array("effects")
        let commands = try r.counts("commands")
        guard let schema = types.schema(ofTarget: target) else { throw .untypedTarget(type: .batch, target: target) }
        var effects: [Effect] = []
        var introduced: [InstanceID: String] = [:]
        for (index, item) in items.enumerated() {
            var untyped: InstanceID?
            do {
                let effect = try StateCodec.decodeEffect(item, schema: schema) { instance in
                    let viewModel = introduced[instance] ?? types.viewModel(of: instance, inTarget: target)
                    if viewModel == nil { untyped = instance }
                    return viewModel
                }
                for state in effect.change.introducedStates { introduced[state.id] = state.viewModel }
                effects.append(effect)
            } catch {
                if let untyped { throw .untypedInstance(target: target, seq: seq, instance: untyped) }
                throw r.failure("effects[\(index)]", error.message)
            }
        }
        var authors: [Author?]?
        if let json = r.json["authors"] {
            do { authors = try Authors.decode(json, count: commands.count) } catch { throw r.failure("authors", error.message) }
        }
        self.init(target: target, epoch: try r.string("epoch"), seq: seq, effects: effects, commands: commands, authors: authors)
        try StateMachineCodec.read(r, into: &self)
    }
}

extension ServerMessage {
    /// The `bindings` of a target listing or snapshot.
    static func bindings(_ r: ServerMessageReader) throws(ServerMessageDecodingError) -> [Binding] {
        try r.items("bindings") { (b) throws(ServerMessageDecodingError) in
            let instance = b.json["instance"]
            guard let instance, instance.isNull || instance.intValue.map({ $0 > 0 }) == true else {
                throw b.failure("instance", "expected an instance id or null")
            }
            return Binding(slot: StateCodec.decodeSlot(try b.string("slot")), instance: instance.intValue.map { InstanceID(UInt64($0)) })
        }
    }
}
