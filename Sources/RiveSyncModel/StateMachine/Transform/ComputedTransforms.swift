/// What the state machine keeps of the artboard's transform pass: the hierarchy (nil when no
/// bind or condition reads a node's computed property, so nothing is computed), the
/// to-source binds on computed properties Rive polls every update, and the component
/// properties those computed values read.
struct ComputedTransforms: Sendable, Hashable {
    var hierarchy: TransformHierarchy?
    var polledBinds: [Int] = []
    var inputs: Set<BoundComponentProperty> = []

    init(definition: StateMachineDefinition) {
        var nodes: Set<Int> = []
        for (index, bind) in definition.artboardBinds.enumerated() {
            guard case .component(let component) = bind.target, TransformHierarchy.Key.computed.contains(bind.propertyKey) else {
                continue
            }
            nodes.insert(component)
            if bind.toSource || bind.twoWay { polledBinds.append(index) }
        }
        for layer in definition.layers {
            for state in layer.states {
                for transition in state.transitions {
                    for case .viewModel(let left, let right, _) in transition.conditions {
                        for case .component(let component, let key) in [left, right] where TransformHierarchy.Key.computed.contains(key) {
                            nodes.insert(component)
                        }
                    }
                }
            }
        }
        guard !nodes.isEmpty else { return }
        let hierarchy = TransformHierarchy(components: definition.components)
        self.hierarchy = hierarchy
        for node in nodes.sorted() { inputs.formUnion(hierarchy.inputs(of: node)) }
    }
}
