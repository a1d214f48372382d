extension StateMachineInstance {
    /// Runs a state's or transition's actions scheduled at its start or end.
    mutating func perform(_ actions: [FireActionDefinition], atEnd: Bool, access: inout some ViewModelAccess) {
        for action in actions where action.atEnd == atEnd {
            switch action.action {
            case .event(let event): report(event)
            case .trigger(let path):
                if let location = access.locate(path) { fire(location, access: &access) }
            case .listenerAction(let listenerAction): perform(listenerAction, access: &access)
            }
        }
    }

    /// Runs a listener's actions in order.
    mutating func perform(listener index: Int, access: inout some ViewModelAccess) {
        guard definition.listeners.indices.contains(index) else { return }
        for action in definition.listeners[index].actions { perform(action, access: &access) }
    }

    private mutating func perform(_ action: ListenerActionDefinition, access: inout some ViewModelAccess) {
        switch action {
        case .viewModelChange(let bindable):
            // Rive's ListenerViewModelChange: the bindable's value (what its to-target bind
            // reads, or its own) goes to the view model through its to-source bind.
            guard let index = bindIndex(of: bindable, toSource: true), let location = access.locate(definition.dataBinds[index].sourcePath)
            else { return }
            if definition.bindables.indices.contains(bindable), definition.bindables[bindable].typeKey == 503 {
                fire(location, access: &access)
                return
            }
            guard let value = value(of: bindable, access: access), let current = access.value(at: location) else { return }
            let converted = convert(value, slot: .stateMachine(index), towardSource: true, source: location, access: access)
            guard let written = Self.fitted(converted, to: current), access.write(written, at: location) else { return }
            markChanged(location)
        case .fireEvent(let event): report(event)
        case .setInput(let input, let value):
            guard inputs.indices.contains(input) else { return }
            if let value { inputs[input].number = value } else { inputs[input].fired = true }
        case .unsupported: break
        }
    }

    /// Fires a view-model trigger and reports its listeners.
    mutating func fire(_ location: ValueLocation, access: inout some ViewModelAccess) {
        access.fire(at: location)
        markChanged(location)
    }

    /// Reports one of the artboard's events: to the host (this advance's events) and to the
    /// event listeners (at the next round of `applyEvents`).
    mutating func report(_ event: Int, delay: Float = 0) {
        guard let name = definition.events[event] else { return }
        reported.append(ReportedEvent(name: name, delay: delay))
        pendingEvents.append(PendingEvent(target: 0, event: event))
    }
}
