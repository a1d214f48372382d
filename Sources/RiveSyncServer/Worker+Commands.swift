import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport

extension Worker {
    /// Checks a command against the current state, queues it on its target and schedules an
    /// advance. What can be checked now is checked now, so most bad commands get their error
    /// at once; the rest fail when applied and get an error carrying the batch's seq.
    func enqueueCommand(_ body: ClientRequest, session: SessionID, requestID: JSONValue?) throws(WireError) {
        let command: Command
        let target: String
        func property(_ path: String, in target: String) throws(WireError) -> PropertySchema {
            do { return try files[targets[target]!.file]!.property(at: path, in: target) } catch { throw WireError(error) }
        }
        func expect(_ type: DataType, _ path: String, in target: String) throws(WireError) {
            let actual = try property(path, in: target).type
            guard actual == type else {
                throw WireError(PropertyError.typeMismatch(path: path, expected: type.rawValue, actual: actual.rawValue))
            }
        }
        switch body {
        case .set(let t, let path, let json):
            target = t
            let file = try record(t).file
            let type = try property(path, in: t).type
            let value: PropertyValue
            do { value = try ValueCodec.decode(json, as: type, path: path) } catch { throw WireError(error) }
            try checkValue(value, file: file, path: path)
            command = .set(path: path, value: value)
        case .fire(let t, let path):
            target = t
            _ = try record(t)
            try expect(.trigger, path, in: t)
            command = .fire(path: path)
        case .listAppend(let t, let path, let instance):
            target = t
            try checkInstance(instance, in: try record(t).file)
            try expect(.list, path, in: t)
            command = .listAppend(path: path, instance: instance)
        case .listInsert(let t, let path, let index, let instance):
            target = t
            try checkInstance(instance, in: try record(t).file)
            try expect(.list, path, in: t)
            command = .listInsert(path: path, index: index, instance: instance)
        case .listRemoveAt(let t, let path, let index):
            target = t
            _ = try record(t)
            try expect(.list, path, in: t)
            command = .listRemoveAt(path: path, index: index)
        case .listRemove(let t, let path, let instance):
            target = t
            try checkInstance(instance, in: try record(t).file)
            try expect(.list, path, in: t)
            command = .listRemove(path: path, instance: instance)
        case .listSwap(let t, let path, let index, let with):
            target = t
            _ = try record(t)
            try expect(.list, path, in: t)
            command = .listSwap(path: path, index: index, with: with)
        default:
            throw WireError.internalError("not a command: \(body.type)")
        }
        let number = context.nextCommandNumber()
        do {
            try files[targets[target]!.file]!.enqueue(QueuedCommand(id: number, command: command), on: target)
        } catch {
            throw WireError(error)
        }
        try queued(number, on: target, session: session, requestID: requestID)
    }

    /// Records who waits for a queued command's ack and schedules the advance.
    func queued(_ number: UInt64, on target: String, session: SessionID, requestID: JSONValue?) throws(WireError) {
        targets[target]!.pending[number] = PendingAck(session: session, requestID: requestID)
        context.metrics.commandsQueued.add(1, ordering: .relaxed)
        scheduleAdvance(target)
    }

    /// Checks what the model cannot: asset ids must be uploaded or file assets, nested
    /// instances must belong to the target's file on this worker.
    private func checkValue(_ value: PropertyValue, file: String, path: String) throws(WireError) {
        switch value {
        case .asset(let reference?):
            if reference.id.hasPrefix("file:") {
                let name = String(reference.id.dropFirst(5))
                guard files[file]!.schema.assets.contains(where: { $0.name == name }) else {
                    throw WireError(FileError.invalidAsset(name))
                }
            } else if !context.assets.contains(reference.id) {
                throw WireError(FileError.invalidAsset(reference.id))
            }
        case .viewModel(let id?):
            try checkInstance(id, in: file)
        default:
            break
        }
    }
}
