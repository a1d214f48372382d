extension FileRuntime {
    /// Sets a legacy state machine input (Rive's `SMINumber.value`, `SMIBool.value`) or, with
    /// no value, fires a trigger input. It takes effect on the target's next advance.
    public mutating func setStateMachineInput(_ targetName: String, name: String, value: PropertyValue?) throws {
        guard var machine = try target(targetName).stateMachine else { throw StateMachineDriveError.noStateMachine(target: targetName) }
        try machine.setInput(named: name, to: value)
        targets[targetName]!.stateMachine = machine
    }

    /// Test-only: writes the target of the artboard's data bind `bind` (file order) as an
    /// animation would, the way Rive's traces drive two-way binds from the target side.
    public mutating func writeDataBindTarget(_ targetName: String, bind: Int, value: PropertyValue) throws {
        guard var machine = try target(targetName).stateMachine else { throw StateMachineDriveError.noStateMachine(target: targetName) }
        try machine.writeTarget(bind: bind, value: value)
        targets[targetName]!.stateMachine = machine
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
