/// A component's property, as a data bind targets it.
struct BoundComponentProperty: Sendable, Hashable {
    var component: Int
    var key: Int
}

extension StateMachineInstance {
    /// Runs the artboard's data binds: on the first advance after a bind, each bind's
    /// precedence decides which side wins (a two-way bind without "source to target first",
    /// and a to-source bind, take the component's value into the view model; the others push
    /// the view model's value to the component); later, a changed view-model value (or a
    /// changed converter input, or a time-based converter's moved output, `moved`, or a view
    /// model on the way to it replaced) flows to its components, and a component written from the target side (`writeTarget`) flows
    /// back through to-source and two-way binds. Values pass through each bind's converter.
    /// Returns whether a time-based converter is still on its way to a new value.
    mutating func updateArtboardBinds(moved: Set<BindSlot> = [], access: inout some ViewModelAccess) -> Bool {
        let first = bindPassPending
        bindPassPending = false
        var moving = false
        for (index, bind) in definition.artboardBinds.enumerated() {
            guard case .component(let component) = bind.target, let location = access.locate(bind.sourcePath) else { continue }
            let slot = BindSlot.artboard(index)
            let property = BoundComponentProperty(component: component, key: bind.propertyKey)
            let targetWins = bind.toSource || (bind.twoWay && !bind.sourceToTargetFirst)
            if (first && targetWins) || (writtenTargets.contains(index) && (bind.toSource || bind.twoWay)) {
                pushToSource(bind: index, access: &access)
            } else if !bind.toSource,
                first || changed.contains(location) || moved.contains(slot) || converterInputsChanged(slot, access: access)
                    || sourceReplaced(bind.sourcePath, access: access),
                let value = access.value(at: location)
            {
                let converted = convert(value, slot: slot, towardSource: false, source: location, access: access)
                componentValues[property] = converted
                if !bind.twoWay { boundThisFrame[property] = converted }
                if bindConverters[slot]?.isMoving == true { moving = true }
            }
        }
        writtenTargets = []
        changedSinceBinds = []
        return moving
    }

    /// Whether a view model on the way to a bind's source was replaced since the last frame
    /// (the bind now reads another instance's value, which Rive pushes as it rebinds).
    func sourceReplaced(_ path: [Int], access: some ViewModelAccess) -> Bool {
        guard path.count > 1, !changed.isEmpty else { return false }
        return (1..<path.count).contains { length in access.locate(Array(path.prefix(length))).map(changed.contains) ?? false }
    }

    /// Writes a bind's component value to its view-model source, through its converter.
    mutating func pushToSource(bind index: Int, access: inout some ViewModelAccess) {
        let bind = definition.artboardBinds[index]
        guard case .component(let component) = bind.target, let location = access.locate(bind.sourcePath),
            let value = componentValue(BoundComponentProperty(component: component, key: bind.propertyKey)),
            let current = access.value(at: location)
        else { return }
        let converted = convert(value, slot: .artboard(index), towardSource: true, source: location, access: access)
        if case .trigger = current {
            if case .number(let count) = converted, count != 0 { fire(location, access: &access) }
            return
        }
        guard let written = Self.fitted(converted, to: current) else { return }
        if access.write(written, at: location) { markChanged(location) }
    }

    /// Writes a bound component's property as an animation would (it reaches the view model
    /// through to-source and two-way binds on the next advance).
    mutating func writeTarget(bind index: Int, value: PropertyValue) throws(StateMachineDriveError) {
        guard definition.artboardBinds.indices.contains(index), case .component(let component) = definition.artboardBinds[index].target
        else { throw .noSuchDataBind(index) }
        componentValues[BoundComponentProperty(component: component, key: definition.artboardBinds[index].propertyKey)] = value
        writtenTargets.insert(index)
        isSettled = false
    }

    /// A component property's current value: a node's computed property as the transform
    /// pass gives it, else written by a bind or an animation, else stored in the file, else
    /// Rive's initial value for the property.
    func componentValue(_ property: BoundComponentProperty) -> PropertyValue? {
        computedValue(property) ?? componentValues[property] ?? Self.storedValue(property, in: definition)
    }

    /// A component property's value as the file stores it, else Rive's initial value for it.
    static func storedValue(_ property: BoundComponentProperty, in definition: StateMachineDefinition) -> PropertyValue? {
        guard definition.components.indices.contains(property.component),
            let known = RiveDefinitions.property(property.key)
        else { return nil }
        switch definition.components[property.component].properties[property.key] {
        case .float(let number)?: return .number(number)
        case .color(let color)?: return .color(color)
        case .bytes(let bytes)?: return .string(String(decoding: bytes, as: UTF8.self))
        case .uint(let number)?: return known.kind == .bool ? .boolean(number != 0) : .number(Float(number))
        case nil: return initialValue(known)
        }
    }

    private static func initialValue(_ property: RiveDefinitions.PropertyDefinition) -> PropertyValue? {
        let text = property.initialValue
        switch property.kind {
        case .double: return .number(Float(text) ?? 0)
        case .bool: return .boolean(text == "true")
        case .string: return .string(String(text.filter { $0 != "'" }))
        case .color: return .color(text.hasPrefix("0x") ? UInt32(text.dropFirst(2), radix: 16) ?? 0 : 0)
        case .uint, .int: return .number(Float(text) ?? 0)
        default: return nil
        }
    }

    /// A value in the kind of the view-model value it is written to.
    static func fitted(_ value: PropertyValue, to current: PropertyValue) -> PropertyValue? {
        switch (value, current) {
        case (.number, .number), (.string, .string), (.boolean, .boolean), (.color, .color): return value
        case (.number(let number), .string): return .string(text(number))
        default: return nil
        }
    }

    /// A number as Rive's to-string shows it (no trailing ".0").
    static func text(_ number: Float) -> String {
        number == number.rounded() && abs(number) < 1e9 ? String(Int(number)) : String(number)
    }
}
