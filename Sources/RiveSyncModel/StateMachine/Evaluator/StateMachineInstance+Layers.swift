extension StateMachineInstance {
    /// Rive's `StateMachineLayerInstance::advance`: the current state's animation time, the
    /// transition's mix, then transitions until none applies (at most 100). Returns whether
    /// the layer needs another advance.
    mutating func advanceLayer(_ index: Int, _ seconds: Float, access: inout some ViewModelAccess) -> Bool {
        advanceTimeline(index, seconds)
        updateMix(index, seconds, access: &access)
        if layers[index].mix < 1, layers[index].mixing?.holdsFrom == false {
            // The state left plays on while it is mixed out.
            if let advanced = layers[index].mixing?.timeline?.advance(by: seconds) { run(advanced.callbacks) }
        }
        applyAnimation(index)
        var changedState = false
        var iterations = 0
        while updateState(index, access: &access) {
            applyAnimation(index)
            changedState = true
            iterations += 1
            if iterations >= 100 { return false }
        }
        let layer = layers[index]
        let animating = layer.clock?.keepGoing ?? false
        return changedState || layer.mix != 1 || layer.waitingForExit || animating
    }

    /// Moves the current state's animation on, reporting the events keyed on its timeline
    /// that it crosses and firing the custom trigger properties it crosses.
    private mutating func advanceTimeline(_ index: Int, _ seconds: Float) {
        layers[index].clock?.advance(seconds)
        guard let advanced = layers[index].timeline?.advance(by: seconds) else { return }
        run(advanced.callbacks)
    }

    /// Reports the events and fires the custom trigger properties a timeline crossed.
    private mutating func run(_ callbacks: [KeyedCallback]) {
        for callback in callbacks {
            switch callback.propertyKey {
            case KeyedCallback.eventTriggerPropertyKey: report(Int(callback.objectId), delay: callback.delay)
            case KeyedCallback.customPropertyTriggerFirePropertyKey: fireCustomPropertyTrigger(Int(callback.objectId))
            default: break
            }
        }
    }

    /// Advances a transition's mix; at its end, the transition's end actions run.
    private mutating func updateMix(_ index: Int, _ seconds: Float, access: inout some ViewModelAccess) {
        guard let transition = layers[index].transition, transition.duration != 0 else {
            layers[index].mix = 1
            return
        }
        let mixTime = self.mixTime(transition, layer: index)
        layers[index].mix = mixTime == 0 ? 1 : min(1, max(0, layers[index].mix + seconds / mixTime))
        if layers[index].mix == 1, !layers[index].transitionCompleted {
            layers[index].transitionCompleted = true
            layers[index].mixing?.reset = nil
            perform(transition.actions, atEnd: true, access: &access)
        }
    }

    /// The mix's length: milliseconds, or a percentage of the animation of the state left.
    private func mixTime(_ transition: TransitionDefinition, layer index: Int) -> Float {
        guard transition.durationIsPercentage else { return Float(transition.duration) / 1000 }
        guard let from = layers[index].mixing?.from, let animation = definition.layers[index].states[from].animation,
            definition.animations.indices.contains(animation)
        else { return 0 }
        return Float(transition.duration) / 100 * definition.animations[animation].durationSeconds
    }

    /// Rive's `updateState`: the any state's transitions first, then the current state's.
    mutating func updateState(_ index: Int, access: inout some ViewModelAccess) -> Bool {
        let layer = layers[index]
        if let transition = layer.transition, transition.duration != 0, layer.mix < 1, transition.flags & 32 == 0 { return false }
        layers[index].waitingForExit = false
        if let any = definition.layers[index].any, tryChangeState(index, from: any, access: &access) { return true }
        return tryChangeState(index, from: layers[index].state, access: &access)
    }

    /// Takes the first allowed transition out of `from`, if any.
    private mutating func tryChangeState(_ index: Int, from: Int, access: inout some ViewModelAccess) -> Bool {
        let states = definition.layers[index].states
        guard states.indices.contains(from) else { return false }
        let fromIsCurrent = from == layers[index].state
        for (position, transition) in states[from].transitions.enumerated() where transition.stateTo != layers[index].state {
            guard states.indices.contains(transition.stateTo) else { continue }
            switch allowed(transition, layer: index, fromIsCurrent: fromIsCurrent, access: access) {
            case .no: continue
            case .waitingForExit:
                layers[index].waitingForExit = true
                continue
            case .yes:
                useInLayer(transition, layer: index, access: access)
                take(transition, layer: index, access: &access)
                layers[index].transitionOrigin = TransitionOrigin(state: from, index: position)
                return true
            }
        }
        return false
    }

    /// Changes state along a transition, running the actions Rive runs, in its order.
    private mutating func take(_ transition: TransitionDefinition, layer index: Int, access: inout some ViewModelAccess) {
        let states = definition.layers[index].states
        let old = layers[index].state
        // The time the state it leaves played past its end or loop point in the last advance:
        // Rive plays the new state's animation on by it.
        let spilled = layers[index].timeline?.spilledTime ?? 0
        let leftTimeline = layers[index].timeline
        perform(states[old].actions, atEnd: true, access: &access)
        layers[index].state = transition.stateTo
        let next = states[transition.stateTo]
        layers[index].timeline = next.animation.flatMap {
            definition.timelines.indices.contains($0) ? LinearAnimationInstance(definition.timelines[$0]) : nil
        }
        layers[index].clock = next.animation.flatMap {
            definition.animations.indices.contains($0) ? AnimationClock(definition.animations[$0]) : nil
        }
        perform(next.actions, atEnd: false, access: &access)
        layers[index].changedOnAdvance = true
        layers[index].transition = transition
        perform(transition.actions, atEnd: false, access: &access)
        if transition.duration == 0 {
            layers[index].transitionCompleted = true
            perform(transition.actions, atEnd: true, access: &access)
        } else {
            layers[index].transitionCompleted = false
        }
        layers[index].mixing = mix(leaving: old, timeline: leftTimeline, by: transition, layer: index)
        advanceTimeline(index, spilled)
        layers[index].mix = 0
        updateMix(index, 0, access: &access)
        layers[index].waitingForExit = false
    }

    enum Allowance { case yes, no, waitingForExit }

    /// Rive's `StateTransition::allowed`: every condition, then the exit time.
    private func allowed(_ transition: TransitionDefinition, layer index: Int, fromIsCurrent: Bool, access: some ViewModelAccess)
        -> Allowance
    {
        if transition.isDisabled { return .no }
        for condition in transition.conditions where !evaluate(condition, layer: index, access: access) { return .no }
        if transition.enableExitTime, fromIsCurrent, let clock = layers[index].clock {
            let animation = clock.animation
            let duration = animation.durationSeconds
            var exitTime =
                transition.exitTimeIsPercentage ? Float(transition.exitTime) / 100 * duration : Float(transition.exitTime) / 1000
            if exitTime <= duration, animation.loop != 0, duration > 0 {
                exitTime += (clock.lastTotalTime / duration).rounded(.down) * duration
            }
            if clock.totalTime < exitTime { return .waitingForExit }
        }
        return .yes
    }
}
