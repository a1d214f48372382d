import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

extension WorkerCore {
    /// Checks a command, queues it on its target and schedules an advance. What can be checked
    /// now is checked now, so most bad commands get their error at once; the rest fail when
    /// applied and get an error carrying the batch's seq. `author`: who sent it (recorded when
    /// the daemon records authors).
    func enqueueCommand(
        _ body: ClientRequest, session: ConnectionID, requestID: JSONValue?, grants: any RequestGrants, author: Author?
    ) throws(WireError) {
        // The record and the file found once, by the check; the parts moved out, not copied.
        let (target, command, checkedResolution, record, runtime) = try self.command(for: body, grants: grants)
        var resolved = checkedResolution
        // Against the applied state only while nothing waits to apply before this command:
        // commands queued (or proposed) ahead of it may make it valid (an insert, then a swap
        // of the new index) or invalid; then it is checked when it applies, and its error
        // carries the batch's seq. A `set`'s path was resolved in this state already; another
        // command's path is resolved here, once, and carried like a set's.
        if targets[record].queued.isEmpty && targets[record].advancesInFlight == 0 {
            do {
                if case .set(let path, let value) = command, let setResolved = checkedResolution {
                    try files[runtime].validateSet(value, at: setResolved, path: path)
                } else if let (_, path) = body.commandLocation {
                    let here = try files[runtime].resolve(path, inTarget: target)
                    try files[runtime].validate(command, on: target, resolved: here)
                    resolved = here
                } else {
                    try files[runtime].validate(command, on: target)
                }
            } catch { throw WireError(error) }
        }
        let hidden: String?
        if case .bind = command {
            hidden = nil
        } else if let (_, path) = body.commandLocation {
            hidden = grants.may(.read, on: target, at: path) ? nil : path.text
        } else {
            hidden = grants.may(.read, on: target, at: "") ? nil : ""
        }
        let number = numbering.next()
        targets[record].queued.append(QueuedCommand(id: number, command: consume command, author: recorded(author), resolved: resolved))
        targets[record].pending[number] = PendingAck(connection: session, requestID: requestID, hiddenPath: hidden)
        waitingChange.commands += 1
        scheduleAdvance(target, at: record)
    }

    /// Whether a new command of `target` is checked against the applied state: only while no
    /// command waits to apply before it.
    func checksAgainstAppliedState(_ target: String) -> Bool {
        let record = targets[target]!
        return record.queued.isEmpty && record.advancesInFlight == 0
    }

    /// The author to record with a command: nil when the daemon records none (`authors`
    /// false).
    func recorded(_ author: Author?) -> Author? { settings.recordsAuthors ? author : nil }

    /// A command request as the model's command, with what the model cannot check checked:
    /// the value's type at its path (in the state as it is now), assets, and that instances
    /// exist and may be attached. `resolved`: where a `set`'s path leads now (its one
    /// resolution while it is checked). `record` and `runtime`: where the target's record and
    /// its file's runtime are in `targets` and `files`, found once here for the caller.
    func command(for body: ClientRequest, grants: any RequestGrants) throws(WireError) -> CheckedCommand {
        let target: String
        let command: Command
        switch body {
        case .set(let t, let path, let json):
            let (record, runtime) = try place(of: t)
            let file = targets[record].file
            let property: ResolvedProperty
            do { property = try files[runtime].resolve(path, inTarget: t) } catch { throw WireError(error) }
            let value: PropertyValue
            do { value = try ValueCodec.decode(json, as: property.property.type, path: path.text) } catch { throw WireError(error) }
            try checkValue(value, file: file, target: t, path: path, grants: grants)
            // Its target's record was found above; nothing below concerns a set.
            return (t, .set(path: path.text, value: value), property, record, runtime)
        case .fire(let t, let path): (target, command) = (t, .fire(path: path.text))
        case .listAppend(let t, let path, let instance): (target, command) = (t, .listAppend(path: path.text, instance: instance))
        case .listInsert(let t, let path, let index, let instance):
            (target, command) = (t, .listInsert(path: path.text, index: index, instance: instance))
        case .listRemoveAt(let t, let path, let index): (target, command) = (t, .listRemoveAt(path: path.text, index: index))
        case .listRemove(let t, let path, let instance): (target, command) = (t, .listRemove(path: path.text, instance: instance))
        case .listSwap(let t, let path, let index, let with):
            (target, command) = (t, .listSwap(path: path.text, index: index, with: with))
        case .bind(let t, let main, let globals):
            let file = try record(t).file
            if let main { try checkAttach(main, in: file, to: t, at: "", grants: grants) }
            for global in globals { try checkAttach(global.instance, in: file, to: t, at: ParsedPath("@" + global.name), grants: grants) }
            let bind: Command?
            do { bind = try files[file]!.bindCommand(t, main: main, globals: globals.map { ($0.name, $0.instance) }) } catch {
                throw WireError(error)
            }
            guard let bind else { throw WireError(code: .badMessage, message: "bind needs main or globals") }
            (target, command) = (t, bind)
        case .setInput(let t, let name, let value): (target, command) = (t, .setInput(name: name, value: value))
        case .fireInput(let t, let name): (target, command) = (t, .fireInput(name: name))
        case .setBindTarget(let t, let bind, let json):
            let file = try record(t).file
            let type: DataType
            do { type = try files[file]!.dataBindTargetType(t, bind: bind) } catch { throw WireError(error) }
            let value: PropertyValue
            do { value = try ValueCodec.decode(json, as: type, path: "") } catch {
                guard case .typeMismatch(_, let expected, let actual) = error else { throw WireError(error) }
                throw WireError(DataBindTargetError.typeMismatch(bind: bind, expected: expected, actual: actual))
            }
            (target, command) = (t, .setBindTarget(bind: bind, value: value))
        default:
            throw WireError.internalError("not a command: \(body.type)")
        }
        let (record, runtime) = try place(of: target)
        let file = targets[record].file
        switch command {
        case .listAppend(_, let instance), .listInsert(_, _, let instance):
            try checkAttach(instance, in: file, to: target, at: body.commandLocation?.path ?? "", grants: grants)
        case .listRemove(_, let instance):
            try checkInstance(instance, in: file)
        case .setInput, .fireInput, .setBindTarget:
            // A state machine's inputs and data binds never change: checked now, whatever is
            // queued before it.
            do { try files[file]!.validate(command, on: target) } catch { throw WireError(error) }
        default:
            break
        }
        return (target, command, nil, record, runtime)
    }

    /// Where `target`'s record is in `targets` and its file's runtime in `files` (one hash of
    /// the target's name: the record knows its file's handle).
    private func place(of target: String) throws(WireError) -> (record: TargetHandle, runtime: FileHandle) {
        guard let record = targets.handle(of: target) else { throw WireError(StateMachineError.unknownTarget(target)) }
        return (record, targets[record].runtime)
    }

    /// Ends queued commands that will never apply: each one a session still waits for gets
    /// `error(command number)`, and the gauges count every one as rejected.
    func abandon(_ commands: some Collection<QueuedCommand>, on target: String, pending: PendingAcks, error: (UInt64) -> WireError) {
        count(.commandsRejected(target: target, count: commands.count))
        waitingChange.commands -= commands.count
        for command in commands {
            guard let waiting = pending[command.id] else { continue }
            sendError(error(command.id), id: waiting.requestID, to: waiting.connection)
        }
    }

    /// Checks what the model cannot: asset ids must be uploaded or file assets, nested
    /// instances must belong to the target's file on this worker and be attachable.
    private func checkValue(_ value: PropertyValue, file: String, target: String, path: ParsedPath, grants: any RequestGrants)
        throws(WireError)
    {
        switch value {
        case .asset(let reference?):
            if reference.id.hasPrefix("file:") {
                let name = String(reference.id.dropFirst(5))
                guard files[file]!.schema.assets.contains(where: { $0.name == name }) else {
                    throw WireError(FileError.invalidAsset(name))
                }
            } else if !assets.contains(reference.id) {
                throw WireError(FileError.invalidAsset(reference.id))
            }
        case .viewModel(let id?):
            try checkAttach(id, in: file, to: target, at: path, grants: grants)
        default:
            break
        }
    }
}

/// A command request checked and made the model's command (`WorkerCore.command(for:grants:)`):
/// its target; the command; where a `set`'s path leads now (`resolved`, nil for other
/// commands); the target's record in the worker's `targets` and its file's runtime in `files`.
/// A tuple, so that its parts are moved out of it, not copied (a struct's fields were read as
/// copies, the command's ~160 instructions each).
typealias CheckedCommand = (
    target: String, command: Command, resolved: ResolvedProperty?, record: WorkerCore.TargetHandle, runtime: WorkerCore.FileHandle
)
