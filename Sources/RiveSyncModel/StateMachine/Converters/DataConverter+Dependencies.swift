extension DataConverter {
    /// Whether the converter has time (an interpolator, alone or in a group): only such
    /// converters need ``advance(_:)``, and only they can keep a bind from settling.
    public var isTimeBased: Bool {
        switch kind {
        case .interpolator: return true
        case .group(let group): return group.items.contains { $0.isTimeBased }
        default: return false
        }
    }

    /// Whether a time-based converter's output is still on its way to its latest input (the
    /// bind needs further advances).
    public var isMoving: Bool {
        switch kind {
        case .interpolator(let interpolator):
            guard let advancer = interpolator.advancer else { return false }
            return advancer[leg: advancer.isSmoothing].to != advancer.current
        case .group(let group): return group.items.contains { $0.isMoving }
        default: return false
        }
    }

    /// The view-model source paths the converter reads when it converts (the operands of
    /// view-model operations, through groups): a bind through it must convert again when one
    /// of them changes, as Rive makes the bind a dependent of those properties. Paths of
    /// ``binds`` are not included.
    public var operandSourcePaths: [[UInt32]] {
        switch kind {
        case .operation(let operation):
            if case .viewModel(let path) = operation.operand { return [path] }
            return []
        case .group(let group): return group.items.flatMap(\.operandSourcePaths)
        default: return []
        }
    }
}
