/// What a layer keeps of the state it left while a transition with a duration mixes (Rive's
/// layer `m_stateFrom`, `m_mixFrom`, `m_holdAnimationFrom`, `m_animationReset` and
/// `m_holdAnimation`).
struct LayerMix: Sendable, Hashable {
    /// The state left.
    var from: Int
    /// Its animation, played on while the mix runs (unless `holdsFrom`).
    var timeline: LinearAnimationInstance?
    /// The layer's mix when the transition began: the animation left is applied at it.
    var mixFrom: Float
    /// Whether the animation left stays where it is (a pause on exit) instead of playing on.
    var holdsFrom: Bool
    /// The values both states' animations return to before each apply, until the mix ends.
    var reset: AnimationReset?
    /// The animation left at its exit time, applied once at `mixFrom` on the next apply.
    var hold: LinearAnimationInstance?
}

extension StateMachineInstance {
    /// Rive's layer `apply`: the reset values of a mixing transition, the animation held at
    /// its exit time (once), the animation left at the mix it was left at (while the mix
    /// runs), then the current state's animation at the layer's mix; both mixes eased by the
    /// transition's interpolator. Keyframe values blend with what the store holds by the mix.
    mutating func applyAnimation(_ index: Int) {
        guard !observedComponents.isEmpty else { return }
        let layer = layers[index]
        guard layer.timeline != nil || layer.mixing != nil else { return }
        let interpolator = layer.transition?.interpolator
        var store = ObservedComponents(values: componentValues, observed: observedComponents, definition: definition)
        componentValues = [:]
        if let mixing = layer.mixing {
            mixing.reset?.apply(to: &store)
            if let hold = mixing.hold {
                hold.apply(to: &store, mix: mixing.mixFrom)
                layers[index].mixing?.hold = nil
            }
            if layer.mix < 1 { mixing.timeline?.apply(to: &store, mix: interpolator?.transform(mixing.mixFrom) ?? mixing.mixFrom) }
        }
        layer.timeline?.apply(to: &store, mix: interpolator?.transform(layer.mix) ?? layer.mix)
        componentValues = store.values
        animatedComponents.formUnion(store.changed)
    }

    /// What the layer keeps of the state it leaves by `transition` (call once the new state
    /// is current, before its animation moves on): the animation left, the reset values of
    /// both states' animations (read from the components now) while the mix is to run, and
    /// with an exit time, the animation left held at it (moved to the exit time on a pause).
    func mix(leaving from: Int, timeline: LinearAnimationInstance?, by transition: TransitionDefinition, layer index: Int) -> LayerMix {
        let layer = layers[index]
        var mixing = LayerMix(
            from: from, timeline: timeline, mixFrom: layer.mix, holdsFrom: layer.mixing?.holdsFrom ?? false, reset: nil, hold: nil)
        if !layer.transitionCompleted {
            let store = ObservedComponents(values: componentValues, observed: observedComponents, definition: definition)
            let animations = [timeline?.animation, layer.timeline?.animation].compactMap { $0 }
            mixing.reset = AnimationReset(animations: animations, store: store, useFirstAsBaseline: false)
        }
        let states = definition.layers[index].states
        if transition.enableExitTime, states[from].kind == .animation, var held = timeline {
            if transition.pauseOnExit, let animation = states[from].animation, definition.animations.indices.contains(animation) {
                held.setTime(exitTimeSeconds(transition, of: definition.animations[animation]))
                mixing.timeline = held
            }
            mixing.hold = held
        }
        if layer.mix != 0 { mixing.holdsFrom = transition.pauseOnExit }
        return mixing
    }

    /// Where a transition's exit time puts the animation it leaves (Rive's `exitTimeSeconds`,
    /// absolute: from the animation's start).
    private func exitTimeSeconds(_ transition: TransitionDefinition, of animation: AnimationDefinition) -> Float {
        guard transition.exitTimeIsPercentage else { return Float(transition.exitTime) / 1000 }
        return animation.startSeconds + Float(transition.exitTime) / 100 * animation.durationSeconds
    }
}
