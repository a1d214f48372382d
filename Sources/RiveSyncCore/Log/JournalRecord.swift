import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// One record of a file's journal log: a change to the file's runtime, written before the
/// change is made and replayed through the same code on restart. Its JSON is the journal's
/// own (format 4, `JournalRecord.format`), not the wire protocol's.
///
/// Formats: 1 carried creations as wire requests and had no segment line; 2 has typed
/// records; 3 adds to an advance's commands their author (`"a"`) and transaction (`"x"`,
/// `JournalCodec.encode(_:)` of a `QueuedCommand`). Journals of every earlier format read
/// unchanged (a format-2 record simply has neither). The number went up for `"x"`: a daemon
/// that did not know it would replay a transaction that was undone as separate commands,
/// some of them applied, and reach another state than the one acknowledged; with format 3
/// such a daemon refuses the journal (`unknown journal format 3`) instead. 4 adds to an
/// advance the seconds its state machine ran (`"elapsed"`, written only when above 0; a record
/// without it ran none, as every record of an earlier format): a daemon that did not know it
/// would replay timed advances as untimed ones and reach another state, so it refuses format 4.
/// 5 makes blank instances as Rive does, with a new blank instance in each nested view-model
/// property (`"nestedBlanks": true` on creations; a creation without it, as every one of an
/// earlier format, leaves them null, `NestedBlanks.null`), adds `"bindDefaults": false` to a
/// state machine made with empty slots, and the commands `setInput` and `fireInput`: a daemon
/// that did not know them would replay other instances, ids and states, so it refuses format 5.
/// Format 5 also holds the command `setBindTarget` (`"op": "setBindTarget"`, `bind`, `value`),
/// added without a new number: a daemon that does not know it cannot read the record and
/// refuses the journal (a corrupt record) instead of replaying it differently.
public enum JournalRecord: Sendable, Equatable {
    /// The journal format these records are written in (`file.json`'s `format`).
    public static let format = 5
    /// The first format with typed records (creations before it were wire requests).
    static let typedRecords = 2
    /// The first format with an advance's `elapsed`.
    public static let timedAdvances = 4

    /// A new instance; a blank one's nested view-model properties hold what `nested` says.
    case createInstance(InstanceSource, nested: NestedBlanks = .blankInstances)
    /// A state machine, its name, state machine and rate resolved; blank default instances'
    /// nested view-model properties hold what `nested` says. Boxed: inline, its request made
    /// every record (and every worker action and event that carries one) over 128 bytes, each
    /// move of an advance's record or action a `memcpy` call.
    indirect case createStateMachine(StateMachineRequest, nested: NestedBlanks = .blankInstances)
    case publish(instance: InstanceID, name: String)
    case deleteTarget(String)
    /// An advance of `target`: the commands it applied, in order, then `elapsed` seconds of its
    /// state machine (decided once, by whoever proposed it, so every replay runs the same time).
    case advance(target: String, commands: QueuedCommands, elapsed: Double = 0)
}

extension JournalRecord {
    /// The earliest journal format that can hold this record as it is written: what a reader
    /// must know to replay it exactly (the cluster's entry format follows from it).
    public var earliestFormat: Int {
        switch self {
        case .createInstance(_, let nested): return nested == .blankInstances ? Self.format : Self.typedRecords
        case .createStateMachine(let request, let nested):
            return nested == .blankInstances || !request.bindDefaults ? Self.format : Self.typedRecords
        case .publish, .deleteTarget: return Self.typedRecords
        case .advance(_, let commands, let elapsed):
            if commands.contains(where: \.command.drivesStateMachine) { return Self.format }
            return elapsed > 0 ? Self.timedAdvances : Self.typedRecords
        }
    }

    /// The record's members (the journal adds `s`, its number, in front).
    public var members: [(String, JSONValue)] {
        func id(_ instance: InstanceID?) -> JSONValue { instance.map { .number(Double($0.rawValue)) } ?? .null }
        func nestedBlanks(_ nested: NestedBlanks) -> [(String, JSONValue)] { nested == .blankInstances ? [("nestedBlanks", true)] : [] }
        switch self {
        case .createInstance(let source, let nested):
            return [("t", "createInstance"), ("source", JournalCodec.encode(source))] + nestedBlanks(nested)
        case .createStateMachine(let request, let nested):
            let globals: JSONValue = .array(request.globals.map { ["name": .string($0.name), "instance": id($0.instance)] })
            var members: [(String, JSONValue)] = [
                ("t", "createStateMachine"), ("name", request.name.map(JSONValue.string) ?? .null),
                ("artboard", request.artboard.map(JSONValue.string) ?? .null),
                ("stateMachine", request.stateMachine.map(JSONValue.string) ?? .null), ("main", id(request.main)),
                ("globals", globals), ("manual", .bool(request.manual)), ("rate", request.rate.map(JSONValue.number) ?? .null),
            ]
            if !request.bindDefaults { members.append(("bindDefaults", false)) }
            return members + nestedBlanks(nested)
        case .publish(let instance, let name):
            return [("t", "publish"), ("instance", id(instance)), ("name", .string(name))]
        case .deleteTarget(let target):
            return [("t", "deleteTarget"), ("target", .string(target))]
        case .advance(let target, let commands, let elapsed):
            return [
                ("t", "advance"), ("target", .string(target)),
                ("commands", .array(commands.map(JournalCodec.encode))),
            ] + (elapsed > 0 ? [("elapsed", .number(elapsed))] : [])
        }
    }

    /// Reads a record of `file`'s journal strictly: every field present with its type.
    /// `format` 1 (journals written before format 2) carried creations as wire requests.
    public init(json: JSONValue, file: String, format: Int) throws {
        let fields = JournalCodec.Fields(json: json, what: "record")
        let type = try fields.string("t")
        if format < Self.typedRecords, type != "advance" {
            try self.init(legacy: try fields.value("request"), file: file)
            return
        }
        switch type {
        case "advance":
            var commands = QueuedCommands()
            for command in try fields.array("commands") { commands.append(try JournalCodec.decodeQueued(command)) }
            self = .advance(target: try fields.string("target"), commands: commands, elapsed: try fields.elapsed("elapsed"))
        case "createInstance":
            self = .createInstance(try JournalCodec.decodeSource(try fields.value("source")), nested: try fields.nestedBlanks())
        case "createStateMachine":
            var globals: [GlobalBinding] = []
            for global in try fields.array("globals") {
                let item = JournalCodec.Fields(json: global, what: "global")
                globals.append(GlobalBinding(name: try item.string("name"), instance: try item.instance("instance")))
            }
            self = .createStateMachine(
                StateMachineRequest(
                    file: file, name: try fields.optionalString("name"), artboard: try fields.optionalString("artboard"),
                    stateMachine: try fields.optionalString("stateMachine"), main: try fields.optionalInstance("main"),
                    globals: globals, manual: try fields.bool("manual"), rate: try fields.optionalNumber("rate"),
                    bindDefaults: json["bindDefaults"] == nil ? true : try fields.bool("bindDefaults")),
                nested: try fields.nestedBlanks())
        case "publish":
            self = .publish(instance: try fields.instance("instance"), name: try fields.string("name"))
        case "deleteTarget":
            self = .deleteTarget(try fields.string("target"))
        default:
            throw JournalCodec.Invalid(description: "record type '\(type)'")
        }
    }

    /// A creation record of the first format: the wire request it answered.
    private init(legacy request: JSONValue, file: String) throws {
        let decoded: ClientRequest
        do { decoded = try ClientRequest(request) } catch { throw JournalCodec.Invalid(description: "request: \(error.message)") }
        switch decoded {
        case .createInstance(_, let source, _): self = .createInstance(source, nested: .null)
        case .createStateMachine(var request):
            request.file = file
            self = .createStateMachine(request, nested: .null)
        case .publish(let instance, let name): self = .publish(instance: instance, name: name)
        case .deleteTarget(let target): self = .deleteTarget(target)
        default: throw JournalCodec.Invalid(description: "request type '\(decoded.type)'")
        }
    }
}
