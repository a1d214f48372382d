extension StateMachineInstance {
    /// A node's computed property (world, root or local position, size) as Rive's transform
    /// pass leaves it, from the component values binds and animations wrote; nil for any other
    /// property, or one the pass cannot compute headless.
    func computedValue(_ property: BoundComponentProperty) -> PropertyValue? {
        guard TransformHierarchy.Key.computed.contains(property.key), let hierarchy = transforms.hierarchy else { return nil }
        var pass = TransformPass(hierarchy: hierarchy, components: definition.components, values: componentValues)
        return pass.computed(property.key, of: property.component).map { .number($0) }
    }

    /// Rive's update pass as the state machine sees it: to-source binds whose component an
    /// animation changed write the view model; then, when a node's computed property is
    /// bound, the view-model values changed since the frame's binds reach the node
    /// properties they bind (so the transforms are this frame's), and every to-source bind on
    /// a computed property writes the settled value (Rive polls those binds each update).
    mutating func updatePass(access: inout some ViewModelAccess) {
        pushAnimatedToSource(access: &access)
        guard transforms.hierarchy != nil else { return }
        let fresh = changedSinceBinds
        changedSinceBinds = []
        for index in transforms.inputBinds {
            let bind = definition.artboardBinds[index]
            guard case .component(let component) = bind.target, let location = access.locate(bind.sourcePath),
                fresh.contains(location), let value = access.value(at: location)
            else { continue }
            componentValues[BoundComponentProperty(component: component, key: bind.propertyKey)] = convert(
                value, slot: .artboard(index), towardSource: false, source: location, access: access)
        }
        for index in transforms.polledBinds { pushToSource(bind: index, access: &access) }
    }
}
