extension StateMachineInstance {
    /// The component properties an animation can make visible: those the artboard's data
    /// binds target and those the transitions' conditions compare.
    static func observedComponents(of definition: StateMachineDefinition) -> Set<BoundComponentProperty> {
        var observed: Set<BoundComponentProperty> = []
        for bind in definition.artboardBinds {
            if case .component(let component) = bind.target {
                observed.insert(BoundComponentProperty(component: component, key: bind.propertyKey))
            }
        }
        for layer in definition.layers {
            for state in layer.states {
                for transition in state.transitions {
                    for case .viewModel(let left, let right, _) in transition.conditions {
                        for case .component(let component, let key) in [left, right] {
                            observed.insert(BoundComponentProperty(component: component, key: key))
                        }
                    }
                }
            }
        }
        return observed
    }

    /// Rive's update pass for binds from target to source: every to-source or two-way bind
    /// whose component an animation changed writes its value to the view model.
    mutating func pushAnimatedToSource(access: inout some ViewModelAccess) {
        guard !animatedComponents.isEmpty else { return }
        let animated = animatedComponents
        animatedComponents = []
        for (index, bind) in definition.artboardBinds.enumerated() where bind.toSource || bind.twoWay {
            guard case .component(let component) = bind.target,
                animated.contains(BoundComponentProperty(component: component, key: bind.propertyKey))
            else { continue }
            pushToSource(bind: index, access: &access)
        }
    }
}
