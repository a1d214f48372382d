internal import RiveSyncProtocol

extension StateMachine {
    /// Writes the target side of one of the state machine's artboard data binds (Rive's
    /// `DataBind` target: a component's property), as an interactive component rendered here
    /// would (a text input, a scroll, a drag): the daemon's state machine carries it through a
    /// two-way or to-source bind to the view model, in the batch of the advance that applies
    /// it. `bind` is the bind's number among the artboard's data binds, in Rive's order
    /// (PROTOCOL.md §8), as `rivesync inspect --graph` numbers them; `value` is a `.number`,
    /// `.boolean`, `.string` or `.color`, of the bound property's type. Returns after that advance (on a manual state
    /// machine, await it concurrently with `advance(elapsed:)`).
    /// - Throws: `StateMachineError.noSuchDataBind`, `.bindTargetMismatch` for a value of
    ///   another type.
    @discardableResult
    public func setBindTarget(_ bind: Int, to value: DynamicValue) async throws -> Receipt {
        try await stateMachineCommand(.setBindTarget(target: name, bind: bind, value: value.json))
    }
}
