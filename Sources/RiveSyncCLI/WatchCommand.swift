import Foundation
import RiveSyncClient
import RiveSyncJSON

/// `rivesync watch TARGET [PATH...] [--count N] [--current] [--timeout S]`: JSON lines, one
/// per batch of the target (no PATH) or one per change of a PATH's value, until interrupted,
/// N lines, or S seconds (exit 0, or 9 when `--count` lines did not come). Every line has the
/// `seq` (of the batch; for a value, the seq this client had applied when it printed it) and
/// the UTC `time`. A starting point or resync prints `{"seq":N,"time":…,"resync":true}`. A
/// batch line says what the target's state machine did (PROTOCOL.md §19): a change it made
/// has `"by":"stateMachine"`, and the line has `elapsed`, `events`, `layers` (those whose state
/// changed) and `"settled":false` when they say something.
enum WatchCommand {
    static let spec = CommandSpec(
        name: "watch", summary: "Print JSON lines of a target's batches, or of the values at PATHs as they change.",
        details: """
            Without --count or --timeout it watches until interrupted. --timeout S stops it after S
            seconds with status 0, or 9 when --count N was given and fewer than N lines came; S also
            bounds connecting (5 seconds without it).
            """,
        positionals: ["TARGET", "PATH"], variadic: true,
        options: RemoteCommand.options(timeoutHelp: "stop watching after SECONDS (default: never; see above)") + [
            .init("count", valueName: "N", help: "stop after N lines"),
            .init("current", help: "start with each PATH's current value (no PATH: the current seq)"),
        ]
    ) { (arguments, console) throws(CommandError) in
        let targetName = arguments.positionals[0]
        let paths = Array(arguments.positionals.dropFirst())
        var limit: Int?
        if let text = arguments.value("count") {
            guard let count = Int(text), count > 0 else { throw .invalidValue("watch: --count needs a positive integer, not '\(text)'") }
            limit = count
        }
        let current = arguments.has("current")
        let duration = try RemoteCommand.timeout(arguments)
        let expiry: Result<Void, CommandError>? = limit == nil ? .success(()) : nil
        try RemoteCommand.run(arguments, &console, reconnect: true, workLimit: duration, expiry: expiry) { [limit] worker, output in
            let target = try await worker.target(named: targetName)
            let counter = LineCounter(limit: limit)
            if paths.isEmpty {
                for try await batch in target.batches(includingCurrent: current) {
                    guard let last = await counter.take() else { return }
                    output.line(json(batch, time: timestamp()).jsonText)
                    if last { return }
                }
                return
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for path in paths {
                    let stream = target.valueStream(at: path, includingCurrent: current)
                    group.addTask {
                        for try await value in stream {
                            guard let last = await counter.take() else { return }
                            let seq = try await target.seq()
                            output.line(
                                #"{"path":\#(JSONValue.string(path).jsonText),"value":\#(value.jsonText),"seq":\#(seq),"time":"\#(timestamp())"}"#
                            )
                            if last { return }
                        }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// Now in UTC, `2026-12-01T17:04:05.123Z`.
    static func timestamp() -> String {
        Date().ISO8601Format(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// A batch as one JSON line: `{"seq":4,"time":"…","changes":[{"op":"set","path":"mood","value":5}]}`,
    /// with the state machine's part when there is one (`"by"`, `elapsed`, `events`, `layers`,
    /// `settled`).
    static func json(_ batch: Batch, time: String) -> JSONValue {
        let seq: (String, JSONValue) = ("seq", .number(Double(batch.seq)))
        if batch.isResync { return .object([seq, ("time", .string(time)), ("resync", true)]) }
        let changes = zip(batch.changes, batch.origins).map { change, origin in
            guard case .object(let members) = json(change), origin == .stateMachine else { return json(change) }
            return .object(members + [("by", "stateMachine")])
        }
        var members: [(String, JSONValue)] = [seq, ("time", .string(time)), ("changes", .array(changes))]
        if batch.elapsed > 0 { members.append(("elapsed", .number(batch.elapsed))) }
        if !batch.events.isEmpty { members.append(("events", .array(batch.events.map(json)))) }
        if !batch.layers.isEmpty { members.append(("layers", .array(batch.layers.map(json)))) }
        if !batch.settled { members.append(("settled", false)) }
        return .object(members)
    }

    static func json(_ change: Batch.Change) -> JSONValue {
        switch change {
        case .set(let path, let v): return .object([("op", "set"), ("path", .string(path)), ("value", value(v))])
        case .fire(let path): return .object([("op", "fire"), ("path", .string(path))])
        case .listInsert(let path, let index, let item):
            return .object([
                ("op", "listInsert"), ("path", .string(path)), ("index", .number(Double(index))), ("item", .number(Double(item))),
            ])
        case .listRemove(let path, let index):
            return .object([("op", "listRemove"), ("path", .string(path)), ("index", .number(Double(index)))])
        case .listSwap(let path, let index, let with):
            return .object([
                ("op", "listSwap"), ("path", .string(path)), ("index", .number(Double(index))), ("with", .number(Double(with))),
            ])
        case .bind(let slot, let instance):
            return .object([("op", "bind"), ("slot", .string(slot)), ("instance", .number(Double(instance)))])
        }
    }

    /// A Rive event as the wire has it: `{"name","delay","properties"?}`.
    static func json(_ event: StateMachineEvent) -> JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(event.name)), ("delay", .number(event.delay))]
        if !event.properties.isEmpty {
            members.append(("properties", .object(event.properties.sorted { $0.key < $1.key }.map { ($0.key, value($0.value)) })))
        }
        return .object(members)
    }

    /// A layer's state as the wire has it: `{"layer","name","state","kind","animation"?}`.
    static func json(_ layer: StateMachineLayer) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("layer", .number(Double(layer.layer))), ("name", .string(layer.name)), ("state", .number(Double(layer.state))),
            ("kind", .string(layer.kind.rawValue)),
        ]
        if let animation = layer.animation { members.append(("animation", .string(animation))) }
        return .object(members)
    }

    /// The value as JSON. `jsonText` is the client's own serialization, so it always parses.
    private static func value(_ dynamic: DynamicValue) -> JSONValue { (try? JSONParser().parse(dynamic.jsonText)) ?? .null }
}

/// Counts printed lines across concurrent streams.
actor LineCounter {
    let limit: Int?
    var count = 0

    init(limit: Int?) { self.limit = limit }

    /// Claims one more line: nil when the limit was reached, else whether it is the last.
    func take() -> Bool? {
        if let limit, count >= limit { return nil }
        count += 1
        return limit.map { count >= $0 } ?? false
    }
}
