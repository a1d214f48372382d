/// A legacy state machine input as a listing shows it (PROTOCOL.md §5): Rive's `SMIInput`.
public struct StateMachineInputState: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case number, boolean, trigger
    }

    public var name: String
    public var kind: Kind
    /// A number input's `.number`, a boolean input's `.boolean`; nil for a trigger.
    public var value: PropertyValue?

    public init(name: String, kind: Kind, value: PropertyValue?) {
        self.name = name
        self.kind = kind
        self.value = value
    }
}

/// Why an input command (`Command.setInput`, `.fireInput`) cannot apply.
public enum StateMachineInputError: Error, Sendable, Hashable {
    /// The target's state machine has no input of this name (or the target runs none).
    case noSuchInput(target: String, name: String)
    /// The value, or the command, does not fit the input: `expected` is the input's kind,
    /// `actual` what the command gave (`number`, `boolean` or `trigger`).
    case typeMismatch(name: String, expected: String, actual: String)
}

extension FileRuntime {
    /// The legacy inputs of the target's state machine, in file order, with their current
    /// values (empty for a published instance or a state machine the file does not describe).
    public func inputStates(_ targetName: String) -> [StateMachineInputState] {
        guard let machine = targets[targetName]?.stateMachine else { return [] }
        return zip(machine.definition.inputs, machine.inputs).map { definition, input in
            switch definition.kind {
            case .number: return StateMachineInputState(name: definition.name, kind: .number, value: .number(input.number))
            case .boolean: return StateMachineInputState(name: definition.name, kind: .boolean, value: .boolean(input.number != 0))
            case .trigger: return StateMachineInputState(name: definition.name, kind: .trigger, value: nil)
            }
        }
    }

    /// Checks an input command against the target's state machine (its inputs never change,
    /// so a command that checks out applies).
    /// - Throws: `StateMachineError.unknownTarget`, `StateMachineInputError`.
    public func checkInput(_ command: Command, on targetName: String) throws {
        _ = try target(targetName)
        let (name, actual): (String, StateMachineInputState.Kind)
        switch command {
        case .setInput(let inputName, .number): (name, actual) = (inputName, .number)
        case .setInput(let inputName, .boolean): (name, actual) = (inputName, .boolean)
        case .setInput(let inputName, let value):
            throw StateMachineInputError.typeMismatch(name: inputName, expected: "number", actual: value.kindName)
        case .fireInput(let inputName): (name, actual) = (inputName, .trigger)
        default: return
        }
        guard let input = inputStates(targetName).first(where: { $0.name == name }) else {
            throw StateMachineInputError.noSuchInput(target: targetName, name: name)
        }
        guard input.kind == actual else {
            throw StateMachineInputError.typeMismatch(name: name, expected: input.kind.rawValue, actual: actual.rawValue)
        }
    }

    /// Applies a checked input or bind-target command to the target's state machine (on an
    /// advance).
    mutating func applyInput(_ command: Command, on targetName: String) throws {
        try checkInput(command, on: targetName)
        try checkBindTarget(command, on: targetName)
        switch command {
        case .setInput(let name, let value): try setStateMachineInput(targetName, name: name, value: value)
        case .fireInput(let name): try setStateMachineInput(targetName, name: name, value: nil)
        case .setBindTarget(let bind, let value): try writeDataBindTarget(targetName, bind: bind, value: value)
        default: return
        }
    }

    /// Sets a legacy state machine input (Rive's `SMINumber.value`, `SMIBool.value`) or, with
    /// no value, fires a trigger input. It takes effect on the target's next advance.
    public mutating func setStateMachineInput(_ targetName: String, name: String, value: PropertyValue?) throws {
        guard var machine = try target(targetName).stateMachine else { throw StateMachineDriveError.noStateMachine(target: targetName) }
        try machine.setInput(named: name, to: value)
        targets[targetName]!.stateMachine = machine
    }

    /// The value on the target of each data bind the state machine reaches (in Rive's order:
    /// the artboard's own, `DataBindOrder`, then its nested artboards'), as its binds left it: what Rive's traces record as `binds[].value`. nil
    /// for a bind whose target is not a component property the file stores or Rive gives an
    /// initial value.
    public func dataBindTargetValues(_ targetName: String) throws -> [PropertyValue?] {
        guard let machine = try target(targetName).stateMachine else { throw StateMachineDriveError.noStateMachine(target: targetName) }
        return machine.bindAddresses.map(machine.bindTargetValue)
    }
}

extension StateMachineInstance {
    /// Sets or fires a legacy input by name.
    mutating func setInput(named name: String, to value: PropertyValue?) throws(StateMachineDriveError) {
        guard let index = definition.inputs.firstIndex(where: { $0.name == name }) else { throw .noSuchInput(name) }
        switch (definition.inputs[index].kind, value) {
        case (.trigger, nil): inputs[index].fired = true
        case (.number, .number(let number)?): inputs[index].number = number
        case (.boolean, .boolean(let flag)?): inputs[index].number = flag ? 1 : 0
        default: throw .invalidInputValue(name)
        }
        isSettled = false
    }
}
