internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol

extension ViewModelInstance {
    /// Applies the calls `body` makes on its `ViewModelInstanceTransaction` as one transaction
    /// (PROTOCOL.md §16): in one advance, in their order, all or none — as Rive's
    /// `bindViewModelInstances` checks every binding before it applies any. A theme switch of several properties reaches every
    /// subscriber in one batch:
    ///
    /// ```swift
    /// try await theme.transaction { theme in
    ///     theme.setValue(of: name, to: "Dark")
    ///     theme.setValue(of: background, to: Color(0xFF12_1212))
    /// }
    /// ```
    ///
    /// Returns after the daemon applied it, with the receipt of its commands; it takes its
    /// place in the worker's call queue like the `confirmed` calls.
    ///
    /// - Throws: `TransactionFailure` naming the call that failed (by its index among the
    ///   calls `body` made) and its typed error; nothing of the transaction applied.
    ///   `WorkerError.limitExceeded` past the daemon's `maxTransactionCommands`.
    @discardableResult
    public func transaction(_ body: (ViewModelInstanceTransaction) throws -> Void) async throws -> TransactionReceipt {
        let transaction = ViewModelInstanceTransaction()
        try body(transaction)
        let steps = transaction.steps
        guard !steps.isEmpty else { throw ViewModelInstanceError.message("a transaction needs at least one call") }
        return try TransactionReceipt(try await calls.run { [self] in try await submitTransaction(steps) })
    }

    /// Sends the collected calls as one `transaction` on the target this instance is reached
    /// through, its paths prefixed with `#id/` like single commands.
    private func submitTransaction(_ steps: [ViewModelInstanceTransaction.Step]) async throws -> Reply {
        await calls.barrier(before: CallQueue.currentTicket)
        let target = try await anchor()
        let prefix = try await pathPrefix()
        var commands: [ClientRequest] = []
        var placed: [InstanceID] = []
        for step in steps {
            let path = ParsedPath(prefix + step.path)
            switch step.call {
            case .set(let value): commands.append(.set(target: target, path: path, value: value))
            case .fire: commands.append(.fire(target: target, path: path))
            case .setInstance(let other):
                let id = try await other.resolvedID()
                placed.append(id)
                commands.append(.set(target: target, path: path, value: ["instance": .number(Double(id.rawValue))]))
            case .append(let other):
                let id = try await other.resolvedID()
                placed.append(id)
                commands.append(.listAppend(target: target, path: path, instance: id))
            case .insert(let other, let index):
                let id = try await other.resolvedID()
                placed.append(id)
                commands.append(.listInsert(target: target, path: path, index: Int(index), instance: id))
            case .removeAt(let index): commands.append(.listRemoveAt(target: target, path: path, index: Int(index)))
            case .remove(let other): commands.append(.listRemove(target: target, path: path, instance: try await other.resolvedID()))
            case .swap(let index, let other): commands.append(.listSwap(target: target, path: path, index: Int(index), with: Int(other)))
            }
        }
        let adopted = placed
        return try await session.submit(
            .transaction(TransactionRequest(target: target, commands: commands)), .instance, pathPrefix: prefix, commandTo: target
        ) { session in
            for id in adopted { session.adopt(id, anchor: target) }
        }
    }
}

/// The calls of one `ViewModelInstance.transaction(_:)`, with the names of the instance's own
/// setters, `fire` and list edits. They are collected in call order and sent together when the
/// closure returns; the daemon checks each in the state the ones before it leave. (Not named
/// `Transaction`, which StoreKit's would shadow in an app that imports both.)
public final class ViewModelInstanceTransaction {
    struct Step: Sendable {
        enum Call: Sendable {
            case set(JSONValue)
            case fire
            case setInstance(ViewModelInstance)
            case append(ViewModelInstance)
            case insert(ViewModelInstance, at: Int32)
            case removeAt(Int32)
            case remove(ViewModelInstance)
            case swap(Int32, Int32)
        }

        var path: String
        var call: Call
    }

    private(set) var steps: [Step] = []

    init() {}

    private func add(_ path: String, _ call: Step.Call) { steps.append(Step(path: path, call: call)) }

    public func setValue(of property: StringProperty, to value: String) { add(property.path, .set(.string(value))) }
    public func setValue(of property: NumberProperty, to value: Float) { add(property.path, .set(ValueCodec.number(value))) }
    public func setValue(of property: BoolProperty, to value: Bool) { add(property.path, .set(.bool(value))) }
    public func setValue(of property: ColorProperty, to value: Color) { add(property.path, .set(.string(value.description))) }
    public func setValue(of property: EnumProperty, to value: String) { add(property.path, .set(.string(value))) }
    /// Replaces the nested instance.
    public func setValue(of property: ViewModelInstanceProperty, to instance: ViewModelInstance) {
        add(property.path, .setInstance(instance))
    }
    /// Fires a trigger.
    public func fire(trigger property: TriggerProperty) { add(property.path, .fire) }
    public func appendInstance(_ instance: ViewModelInstance, to list: ListProperty) { add(list.path, .append(instance)) }
    public func insertInstance(_ instance: ViewModelInstance, to list: ListProperty, at index: Int32) {
        add(list.path, .insert(instance, at: index))
    }
    public func removeInstance(at index: Int32, from list: ListProperty) { add(list.path, .removeAt(index)) }
    /// Removes every occurrence of the instance from the list.
    public func removeInstance(_ instance: ViewModelInstance, from list: ListProperty) { add(list.path, .remove(instance)) }
    public func swapInstance(atIndex index: Int32, withIndex other: Int32, in list: ListProperty) {
        add(list.path, .swap(index, other))
    }
}

/// The daemon's acknowledgement of a transaction: the one batch that applied all its commands.
public struct TransactionReceipt: Sendable, Hashable {
    public let target: String
    /// The seq of the batch that holds every effect of the transaction.
    public let seq: UInt64
    /// The daemon's numbers for the commands, in call order (the batch's `commands` lists them).
    public let commands: [UInt64]

    init(_ reply: ServerMessage?) throws {
        guard case .ack(let ack, _) = reply else {
            throw reply?.unexpected(.ack) ?? WorkerError.protocolViolation("a transaction got no 'ack'")
        }
        self.target = ack.target
        self.seq = ack.seq
        self.commands = ack.commands ?? [ack.command]
    }
}

/// A transaction that applied nothing: the call that failed, by its index among the calls of
/// the transaction's closure, and that call's typed error (`ViewModelInstanceError`, or
/// `WorkerError.forbidden` for a call the connection may not make).
public struct TransactionFailure: Error, Sendable {
    /// 0-based index of the failing call.
    public let commandIndex: Int
    /// The error the call would have got alone.
    public let error: any Error
}
