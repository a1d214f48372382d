/// Where one data bind of Rive's list lives: the nested state machines on the way to it (indices
/// into `nested`, outermost first) and the bind's index in that artboard's data binds.
struct BindAddress: Sendable, Hashable {
    var nested: [Int]
    var bind: Int
}

extension StateMachineInstance {
    /// Rive's list of the data binds a state machine reaches: the artboard's own in Rive's order
    /// (`DataBindOrder`), then each nested artboard's (once per nested artboard, in the order
    /// they nest, each with its own nested artboards' after it).
    var bindAddresses: [BindAddress] {
        var addresses = definition.artboardBindsInRiveOrder.map { BindAddress(nested: [], bind: $0) }
        var seen: Set<Int> = []
        for (index, child) in nested.enumerated() where seen.insert(child.component).inserted {
            addresses += child.machine.bindAddresses.map { BindAddress(nested: [index] + $0.nested, bind: $0.bind) }
        }
        return addresses
    }

    /// The state machine that runs the artboard an address's bind belongs to.
    func machine(at address: BindAddress) -> StateMachineInstance {
        address.nested.reduce(self) { machine, index in machine.nested[index].machine }
    }

    /// The value on the target of the data bind at `address` (nil when it is no component's).
    func bindTargetValue(at address: BindAddress) -> PropertyValue? {
        let machine = machine(at: address)
        guard case .component(let component) = machine.definition.artboardBinds[address.bind].target else { return nil }
        return machine.componentValue(
            BoundComponentProperty(component: component, key: machine.definition.artboardBinds[address.bind].propertyKey))
    }

    /// Writes the target of the data bind at `address`, in the state machine of its artboard.
    mutating func writeTarget(at address: BindAddress, value: PropertyValue) throws(StateMachineDriveError) {
        guard let first = address.nested.first else { return try writeTarget(bind: address.bind, value: value) }
        try nested[first].machine.writeTarget(at: BindAddress(nested: Array(address.nested.dropFirst()), bind: address.bind), value: value)
        isSettled = false
    }
}
