/// Why a bind-target command (`Command.setBindTarget`) cannot apply.
public enum DataBindTargetError: Error, Sendable, Hashable {
    /// The target's state machine has no data bind with this index among its artboard's and
    /// its nested artboards' data binds, or the target runs no state machine (a published instance has no data binds), or
    /// the bind's target property takes no number, boolean, string or color.
    case noSuchDataBind(target: String, bind: Int)
    /// The value does not fit the bind's target property: `expected` is the property's type
    /// (`number`, `boolean`, `string` or `color`), `actual` what the command gave.
    case typeMismatch(bind: Int, expected: String, actual: String)
}

extension FileRuntime {
    /// The type of value the target of data bind `bind` takes (Rive's number: the artboard's
    /// own binds in `DataBindOrder`, then its nested artboards', `bindAddresses`): a component's number, boolean, string or color property.
    /// - Throws: `StateMachineError.unknownTarget`, `DataBindTargetError.noSuchDataBind`.
    public func dataBindTargetType(_ targetName: String, bind: Int) throws -> DataType {
        let machine = try target(targetName).stateMachine
        let addresses = machine?.bindAddresses ?? []
        guard let machine, addresses.indices.contains(bind),
            let property = RiveDefinitions.property(
                machine.machine(at: addresses[bind]).definition.artboardBinds[addresses[bind].bind].propertyKey)
        else { throw DataBindTargetError.noSuchDataBind(target: targetName, bind: bind) }
        switch property.kind {
        case .double, .uint, .int, .id: return .number
        case .bool: return .boolean
        case .string: return .string
        case .color: return .color
        case .bytes, .idList: throw DataBindTargetError.noSuchDataBind(target: targetName, bind: bind)
        }
    }

    /// Checks a bind-target command against the target's state machine (its data binds never
    /// change, so a command that checks out applies).
    /// - Throws: `StateMachineError.unknownTarget`, `DataBindTargetError`.
    public func checkBindTarget(_ command: Command, on targetName: String) throws {
        guard case .setBindTarget(let bind, let value) = command else { return }
        let type = try dataBindTargetType(targetName, bind: bind)
        guard value.fits(type) else { throw DataBindTargetError.typeMismatch(bind: bind, expected: type.rawValue, actual: value.kindName) }
    }

    /// Writes the target of data bind `bind` (Rive's number, nested artboards' included) as
    /// an interactive component or an animation would: on the target's next advance, to-source
    /// and two-way binds carry it (through their converters, in reverse) to the view model.
    mutating func writeDataBindTarget(_ targetName: String, bind: Int, value: PropertyValue) throws {
        guard var machine = try target(targetName).stateMachine else { throw StateMachineDriveError.noStateMachine(target: targetName) }
        let addresses = machine.bindAddresses
        guard addresses.indices.contains(bind) else { throw StateMachineDriveError.noSuchDataBind(bind) }
        try machine.writeTarget(at: addresses[bind], value: value)
        targets[targetName]!.stateMachine = machine
    }
}
