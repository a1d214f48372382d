import RiveSyncJSON
import RiveSyncModel

/// `file.json`: which file a journal belongs to, on which worker, with which schema.
public struct JournalHeader: Sendable {
    /// 1 for journals written before segment lines and typed records, else `JournalRecord.format`.
    public var format: Int
    public var name: String
    public var worker: Int
    /// The file's schema in the SCHEMA.md shape.
    public var schema: JSONValue

    public var json: JSONValue {
        .object([("format", .number(Double(format))), ("name", .string(name)), ("worker", .number(Double(worker))), ("schema", schema)])
    }

    /// Reads `file.json` strictly (a header without `format` is of the first format).
    public init(json: JSONValue) throws(JournalCodec.Invalid) {
        let fields = JournalCodec.Fields(json: json, what: "file.json")
        format = json["format"] == nil ? 1 : try fields.int("format")
        guard (1...JournalRecord.format).contains(format) else {
            throw JournalCodec.Invalid(description: "unknown journal format \(format)")
        }
        name = try fields.string("name")
        worker = try fields.int("worker")
        guard worker >= 0 else { throw JournalCodec.Invalid(description: "worker \(worker)") }
        schema = try fields.value("schema")
    }

    public init(name: String, worker: Int, schema: JSONValue) {
        self.format = JournalRecord.format
        self.name = name
        self.worker = worker
        self.schema = schema
    }
}

/// `snapshot.json`: a file's whole state after record `upTo`, and its targets' modes and
/// recent batches (kept as the batch messages subscribers are sent, since a resume sends
/// them again as they were).
public struct JournalSnapshot: Sendable {
    public var upTo: UInt64
    /// The runtime's state (`JournalCodec.encode(_: FileRuntimeState)`).
    public var state: JSONValue
    public var targets: [Target]

    /// A target's mode and its recent batches.
    public struct Target: Sendable {
        public var name: String
        public var manual: Bool
        public var rate: Double
        /// Batch messages, oldest first.
        public var history: [JSONValue]
        /// The view model of each instance a batch of `history` sets a value of that `state` no
        /// longer holds (freed since the batch): reading the batch back types the value by it.
        /// Written as `freedInstances` when there are any (snapshots before it had none).
        public var freedInstances: [FreedInstance]

        public init(name: String, manual: Bool, rate: Double, history: [JSONValue], freedInstances: [FreedInstance] = []) {
            self.name = name
            self.manual = manual
            self.rate = rate
            self.history = history
            self.freedInstances = freedInstances
        }
    }

    /// An instance a kept batch sets, gone from the snapshot's state, and its view model.
    public struct FreedInstance: Sendable, Equatable {
        public var instance: InstanceID
        public var viewModel: String

        public init(instance: InstanceID, viewModel: String) {
            self.instance = instance
            self.viewModel = viewModel
        }
    }

    public var json: JSONValue {
        .object([
            ("upTo", .number(Double(upTo))), ("state", state),
            (
                "targets",
                .array(
                    targets.map { target in
                        var members: [(String, JSONValue)] = [
                            ("name", .string(target.name)), ("manual", .bool(target.manual)), ("rate", .number(target.rate)),
                            ("history", .array(target.history)),
                        ]
                        if !target.freedInstances.isEmpty {
                            let freed = target.freedInstances.map { freed -> JSONValue in
                                .object([("instance", .number(Double(freed.instance.rawValue))), ("viewModel", .string(freed.viewModel))])
                            }
                            members.append(("freedInstances", .array(freed)))
                        }
                        return .object(members)
                    })
            ),
        ])
    }

    public init(upTo: UInt64, state: JSONValue, targets: [Target]) {
        self.upTo = upTo
        self.state = state
        self.targets = targets
    }

    /// Reads `snapshot.json` strictly.
    public init(json: JSONValue) throws(JournalCodec.Invalid) {
        let fields = JournalCodec.Fields(json: json, what: "snapshot")
        let upTo = try fields.int("upTo")
        guard upTo >= 0 else { throw JournalCodec.Invalid(description: "upTo \(upTo)") }
        self.upTo = UInt64(upTo)
        state = try fields.value("state")
        targets = try fields.array("targets").map { (item) throws(JournalCodec.Invalid) in
            let target = JournalCodec.Fields(json: item, what: "snapshot target")
            let freed = item["freedInstances"] == nil ? [] : try target.array("freedInstances")
            return Target(
                name: try target.string("name"), manual: try target.bool("manual"), rate: try target.number("rate"),
                history: try target.array("history"),
                freedInstances: try freed.map { (item) throws(JournalCodec.Invalid) in
                    let fields = JournalCodec.Fields(json: item, what: "freed instance")
                    return FreedInstance(instance: try fields.instance("instance"), viewModel: try fields.string("viewModel"))
                })
        }
    }
}
