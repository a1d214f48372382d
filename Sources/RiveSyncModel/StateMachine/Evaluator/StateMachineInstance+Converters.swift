/// Which data bind a converter copy belongs to.
enum BindSlot: Sendable, Hashable {
    /// One of the artboard's binds (an index into `artboardBinds`).
    case artboard(Int)
    /// One of the state machine's own binds (an index into `dataBinds`).
    case stateMachine(Int)
}

extension StateMachineInstance {
    /// A copy of the file's converter for every bind that names one, as Rive clones the
    /// converter a bind names (interpolators, formulas and others keep state per bind).
    static func bindConverters(of definition: StateMachineDefinition, in converters: DataConverters) -> [BindSlot: DataConverter] {
        var result: [BindSlot: DataConverter] = [:]
        for (index, bind) in definition.artboardBinds.enumerated() {
            if let converter = bind.converter.flatMap(converters.converter) { result[.artboard(index)] = converter }
        }
        for (index, bind) in definition.dataBinds.enumerated() {
            if let converter = bind.converter.flatMap(converters.converter) { result[.stateMachine(index)] = converter }
        }
        return result
    }

    func bindDefinition(_ slot: BindSlot) -> DataBindDefinition {
        switch slot {
        case .artboard(let index): definition.artboardBinds[index]
        case .stateMachine(let index): definition.dataBinds[index]
        }
    }

    /// `value` through a bind's converter toward its target or (`towardSource`) toward its
    /// source: Rive converts in the bind's main direction and converts back in the other. The
    /// converter keeps what the conversion leaves (an interpolator's new target).
    mutating func convert(
        _ value: PropertyValue, slot: BindSlot, towardSource: Bool, source: ValueLocation?, access: some ViewModelAccess
    ) -> PropertyValue {
        guard var converter = bindConverters[slot] else { return value }
        if let source, changed.contains(source) { converter.sourceChanged() }
        let result = Self.run(
            &converter, value, bind: bindDefinition(slot), towardSource: towardSource, source: source, access: access, random: &random)
        bindConverters[slot] = converter
        return result
    }

    /// `value` through a copy of a bind's converter (a read that leaves the converter as it is).
    func converted(_ value: PropertyValue, slot: BindSlot, towardSource: Bool, source: ValueLocation?, access: some ViewModelAccess)
        -> PropertyValue
    {
        guard var converter = bindConverters[slot] else { return value }
        var random = self.random
        return Self.run(
            &converter, value, bind: bindDefinition(slot), towardSource: towardSource, source: source, access: access, random: &random)
    }

    private static func run(
        _ converter: inout DataConverter, _ value: PropertyValue, bind: DataBindDefinition, towardSource: Bool, source: ValueLocation?,
        access: some ViewModelAccess, random: inout SeededRandom
    ) -> PropertyValue {
        for converterBind in converter.binds {
            guard let location = access.locate(converterBind.sourcePathIds.map { Int($0) }), let bound = access.value(at: location)
            else { continue }
            converter.setProperty(converterBind.propertyKey, to: bound, formulaToken: converterBind.formulaToken)
        }
        var context = EvaluatorConverterContext(
            access: access, bindFlags: bind.flags, enumValues: source.map { access.enumValues(at: $0) } ?? [], random: random)
        let result =
            towardSource == bind.toSource ? converter.convert(value, in: &context) : converter.reverseConvert(value, in: &context)
        random = context.random
        return result
    }

    /// Whether a value a bind's converter reads (an operand, a bound converter property)
    /// changed this frame, so the bind must convert again.
    func converterInputsChanged(_ slot: BindSlot, access: some ViewModelAccess) -> Bool {
        guard let converter = bindConverters[slot] else { return false }
        let paths = converter.operandSourcePaths + converter.binds.map(\.sourcePathIds)
        return paths.contains { path in access.locate(path.map { Int($0) }).map { changed.contains($0) } ?? false }
    }

    /// Moves the time of every bound time-based converter on (Rive's `advanceDataBinds`, for
    /// binds whose source resolves): whether one still runs, and the binds whose output moved
    /// (they convert again).
    mutating func advanceConverters(_ seconds: Float, access: some ViewModelAccess) -> (running: Bool, moved: Set<BindSlot>) {
        var running = false
        var moved: Set<BindSlot> = []
        for slot in bindConverters.keys where bindConverters[slot]?.isTimeBased == true {
            guard access.locate(bindDefinition(slot).sourcePath) != nil, let advance = bindConverters[slot]?.advance(seconds) else {
                continue
            }
            if advance.isRunning { running = true }
            if advance.needsUpdate { moved.insert(slot) }
        }
        return (running, moved)
    }

    /// Starts every bound converter over (Rive resets them on a new binding).
    mutating func resetConverters() {
        for slot in bindConverters.keys { bindConverters[slot]?.reset() }
    }
}
