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
    /// animation changed write the view model; the to-target binds this frame's bind pass ran
    /// write their values again over what the animations wrote (Rive runs a changed bind after
    /// the state machine's advance; later frames, the animation wins); then the view-model
    /// values changed since the frame's binds (by listeners, transitions' actions, timelines'
    /// events, nested state machines) reach the components their to-target and two-way binds
    /// write (Rive marks such a bind dirty and updates it in the artboard's update pass), and,
    /// when a node's computed property is bound, every to-source bind on a computed property
    /// writes the settled value (Rive polls those binds each update).
    mutating func updatePass(access: inout some ViewModelAccess) {
        pushAnimatedToSource(access: &access)
        if !boundThisFrame.isEmpty {
            // A bind whose source changed this frame is applied after the animations.
            for (property, value) in boundThisFrame { componentValues[property] = value }
            boundThisFrame = [:]
        }
        let fresh = changedSinceBinds
        changedSinceBinds = []
        if !fresh.isEmpty {
            for (index, bind) in definition.artboardBinds.enumerated() where !bind.toSource {
                guard case .component(let component) = bind.target, let location = access.locate(bind.sourcePath),
                    fresh.contains(location), let value = access.value(at: location)
                else { continue }
                componentValues[BoundComponentProperty(component: component, key: bind.propertyKey)] = convert(
                    value, slot: .artboard(index), towardSource: false, source: location, access: access)
            }
        }
        guard transforms.hierarchy != nil else { return }
        for index in transforms.polledBinds { pushToSource(bind: index, access: &access) }
    }
}
