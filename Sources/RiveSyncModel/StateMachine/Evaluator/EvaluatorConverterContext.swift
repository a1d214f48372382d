/// What a converter reads while the evaluator runs it for one bind: the bound view models
/// (through the state machine's `ViewModelAccess`), the bind's flags, the enum of the bind's
/// source, and the state machine's seeded random numbers.
struct EvaluatorConverterContext<Access: ViewModelAccess>: DataConverterContext {
    let access: Access
    let bindFlags: UInt64
    let enumValues: [String]
    var random: SeededRandom

    func number(atSourcePath path: [UInt32]) -> Float? {
        guard let location = access.locate(path.map { Int($0) }) else { return nil }
        switch access.value(at: location) {
        case .number(let number)?: return number
        case .symbolListIndex(let index)?: return Float(index)
        default: return nil
        }
    }

    /// The evaluator makes no instances: a number-to-list converter's list feeds artboard
    /// components, which the headless evaluator does not draw.
    mutating func makeDefaultInstance(ofViewModel index: Int) -> InstanceID? { nil }

    mutating func randomFloat() -> Float { random.nextFloat() }
}
