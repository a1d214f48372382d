internal import RiveSyncModel
internal import RiveSyncProtocol

/// A legacy input of a state machine (Rive's `SMIInput`: a number, a boolean or a trigger),
/// with its value as the daemon lists it (PROTOCOL.md §19).
public struct StateMachineInput: Sendable, Hashable {
    /// What kind of input it is, in Rive's words (`SMINumber`, `SMIBool`, `SMITrigger`).
    public enum Kind: String, Sendable, Hashable {
        case number, boolean, trigger
    }

    public let name: String
    public let kind: Kind
    /// A number input's `.number`, a boolean input's `.boolean`; nil for a trigger.
    public let value: DynamicValue?

    init(_ input: StateMachineInputState) {
        name = input.name
        switch input.kind {
        case .number: kind = .number
        case .boolean: kind = .boolean
        case .trigger: kind = .trigger
        }
        value = input.value.map(DynamicValue.init)
    }
}

extension StateMachine {
    /// The state machine's legacy inputs in file order, with their values as the daemon lists
    /// them now.
    public func inputs() async throws -> [StateMachineInput] {
        try await RemoteTarget(worker: worker, name: name).info().inputs
    }

    /// Sets a number input, as Rive's `SMINumber.value`; returns after the advance that applied
    /// it (on a manual state machine, await it concurrently with `advance(elapsed:)`).
    /// - Throws: `StateMachineError.noSuchInput`, `.inputMismatch` for an input of another kind.
    @discardableResult
    public func setInput(named input: String, to value: Double) async throws -> Receipt {
        try await stateMachineCommand(.setInput(target: name, name: input, value: .number(Float(value))))
    }

    /// Sets a boolean input, as Rive's `SMIBool.value`; returns after the advance that applied
    /// it.
    /// - Throws: `StateMachineError.noSuchInput`, `.inputMismatch` for an input of another kind.
    @discardableResult
    public func setInput(named input: String, to value: Bool) async throws -> Receipt {
        try await stateMachineCommand(.setInput(target: name, name: input, value: .boolean(value)))
    }

    /// Fires a trigger input, as Rive's `SMITrigger.fire()`; the advance that applies it
    /// consumes it. Returns after that advance.
    /// - Throws: `StateMachineError.noSuchInput`, `.inputMismatch` for a number or boolean input.
    @discardableResult
    public func fireInput(named input: String) async throws -> Receipt {
        try await stateMachineCommand(.fireInput(target: name, name: input))
    }

    /// Submits a command that drives the state machine (an input, a data bind's target);
    /// returns after the advance that applied it.
    func stateMachineCommand(_ body: ClientRequest) async throws -> Receipt {
        let target = name
        return try Receipt(
            try await worker.calls.run { [worker] in try await worker.session.submit(body, .stateMachine, commandTo: target) })
    }
}
