extension FileRuntime {
    /// Creates a state machine target for an artboard's state machine and binds it, as
    /// Rive's `createStateMachine(_:binding:globals:)` does: the bindings are validated
    /// first, then the main slot and one slot per global view model of the file are filled
    /// with the supplied instances or, where none is supplied, a new instance of the view
    /// model's authored default.
    ///
    /// - Parameters:
    ///   - name: the target's name (defaults to the state machine's name).
    ///   - artboard: the artboard's name; nil for the default artboard.
    ///   - stateMachine: the state machine's name; nil for the artboard's default (or first).
    ///   - bindDefaults: false leaves the slots without a supplied instance empty (Rive lets a
    ///     state machine advance before an instance is bound; `bind` fills them later).
    ///   - nested: what the nested view-model properties of a blank default instance hold.
    /// Everything is checked before anything changes (the instance limit for every default
    /// instance too), so a call that throws leaves the runtime as it was.
    ///
    /// - Throws: `FileError.invalidArtboard`, `ArtboardError.invalidStateMachine`,
    ///   `StateMachineError` (see `bind`), `StateMachineError.targetExists`,
    ///   `FileError.limitExceeded`.
    @discardableResult
    public mutating func createStateMachine(
        named name: String? = nil, artboard: String? = nil, stateMachine: String? = nil,
        main: InstanceID? = nil, globals: [(String, InstanceID)] = [], bindDefaults: Bool = true,
        nested: NestedBlanks = .blankInstances
    ) throws -> String {
        let artboardSchema = try schema.artboard(named: artboard)
        let machineName: String
        if let stateMachine {
            guard artboardSchema.stateMachines.contains(stateMachine) else {
                throw ArtboardError.invalidStateMachine(stateMachine)
            }
            machineName = stateMachine
        } else {
            guard let fallback = artboardSchema.defaultStateMachine ?? artboardSchema.stateMachines.first else {
                throw ArtboardError.invalidStateMachine("artboard '\(artboardSchema.name)' has no state machine")
            }
            machineName = fallback
        }
        let targetName = name ?? machineName
        guard targets[targetName] == nil else { throw StateMachineError.targetExists(targetName) }
        let supplied = try validatedBindings(main: main, globals: globals, artboard: artboardSchema)
        // Slots without a supplied instance get their view model's default: (slot, view model).
        var slots: [(BindingSlot, String?)] = []
        if let viewModelName = artboardSchema.viewModelName {
            slots.append((.main, viewModelName))
        } else if supplied.contains(where: { $0.slot == .main }) {
            slots.append((.main, nil))
        }
        slots += schema.viewModels.filter(\.isGlobal).map { (BindingSlot.global($0.name), $0.name) }
        let defaults = slots.filter { slot in bindDefaults && !supplied.contains { $0.slot == slot.0 } }.compactMap(\.1)
        try checkInstanceRoom(
            for: try defaults.reduce(0) { count, name in count + (try instanceCount(.viewModelDefault(from: .name(name)), nested: nested)) }
        )
        var bindings: [Binding] = []
        for (slot, viewModelName) in slots {
            if let instance = supplied.first(where: { $0.slot == slot })?.instance {
                bindings.append(Binding(slot: slot, instance: instance))
            } else if bindDefaults, let viewModelName {
                bindings.append(
                    Binding(slot: slot, instance: try createUnchecked(.viewModelDefault(from: .name(viewModelName)), nested: nested)))
            } else if viewModelName != nil {
                bindings.append(Binding(slot: slot, instance: nil))
            }
        }
        addTarget(
            Target(
                name: targetName, kind: .stateMachine(artboard: artboardSchema.name, stateMachine: machineName),
                bindings: bindings))
        attachStateMachine(to: targetName)
        return targetName
    }

    /// Queues new bindings for a state machine, with the semantics of Rive's
    /// `bindViewModelInstances(main:globals:)`: every supplied name is checked before anything
    /// is queued; a rejected call changes nothing; omitted globals and a nil `main` keep their
    /// current instances. The bindings apply on the next advance.
    ///
    /// - Throws: `duplicateGlobalViewModelInstance` when a name appears twice;
    ///   `invalidGlobalViewModelName` for a name that is not a global view model;
    ///   `unknownInstance` / `incompatibleInstance` when an instance does not exist or does not
    ///   fit its slot (checks Rive leaves out); `unknownTarget`.
    public mutating func bind(
        _ targetName: String, main: InstanceID?, globals: [(String, InstanceID)], commandID: UInt64
    ) throws(StateMachineError) {
        guard let command = try bindCommand(targetName, main: main, globals: globals) else { return }
        try enqueue(QueuedCommand(id: commandID, command: command), on: targetName)
    }

    /// The command `bind` would queue, checked the same way without queueing it; nil when
    /// nothing is supplied.
    public func bindCommand(_ targetName: String, main: InstanceID?, globals: [(String, InstanceID)]) throws(StateMachineError) -> Command?
    {
        let target = try target(targetName)
        let artboard: ArtboardSchema?
        if case .stateMachine(let artboardName, _) = target.kind {
            artboard = schema.artboards.first { $0.name == artboardName }
        } else {
            artboard = nil
        }
        let bindings = try validatedBindings(main: main, globals: globals, artboard: artboard)
        return bindings.isEmpty ? nil : .bind(bindings)
    }

    /// Checks supplied bindings in Rive's order: duplicates first, then names, then (beyond
    /// Rive) that each instance exists and fits its slot.
    private func validatedBindings(
        main: InstanceID?, globals: [(String, InstanceID)], artboard: ArtboardSchema?
    ) throws(StateMachineError) -> [Binding] {
        var seen = Set<String>()
        for (name, _) in globals where !seen.insert(name).inserted {
            throw .duplicateGlobalViewModelInstance(name)
        }
        let globalNames = Set(schema.globalViewModelNames)
        for (name, _) in globals where !globalNames.contains(name) {
            throw .invalidGlobalViewModelName(name)
        }
        var result: [Binding] = []
        if let main {
            guard let state = store[main] else { throw .unknownInstance(main) }
            if let expected = artboard?.viewModelName, expected != state.viewModel {
                throw .incompatibleInstance(slot: "main", expected: expected, actual: state.viewModel)
            }
            result.append(Binding(slot: .main, instance: main))
        }
        for (name, instance) in globals {
            guard let state = store[instance] else { throw .unknownInstance(instance) }
            guard state.viewModel == name else {
                throw .incompatibleInstance(slot: name, expected: name, actual: state.viewModel)
            }
            result.append(Binding(slot: .global(name), instance: instance))
        }
        return result
    }
}
