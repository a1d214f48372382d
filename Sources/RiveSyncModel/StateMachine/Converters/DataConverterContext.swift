/// What a converter needs from the data bind it runs for and from the data context around it.
///
/// Rive's converters receive their `DataBind` and read view-model values through its data
/// context; here the evaluator passes a context value instead, so conversion stays pure.
public protocol DataConverterContext {
    /// The flags of the bind the conversion runs for (`DataBind.flags`, key 587). The system
    /// converters (degrees to radians, normalizer) look at its direction bit.
    var bindFlags: UInt64 { get }

    /// The values of the enum an `.enumValue` input belongs to, in file order. Rive's enum
    /// values are indices into this list (what the to-number and trigger converters use).
    var enumValues: [String] { get }

    /// The number at a view-model source path (`DataConverterOperationViewModel.sourcePathIds`,
    /// resolved against the bind's data context as Rive does); nil when the path does not lead
    /// to a number property.
    func number(atSourcePath path: [UInt32]) -> Float?

    /// A new instance of the file's view model `index` with its default values, or nil if there
    /// is no such view model (`DataConverterNumberToList` makes its list items this way).
    mutating func makeDefaultInstance(ofViewModel index: Int) -> InstanceID?

    /// A random number in 0...1 for a formula's `random` function. The evaluator passes a
    /// seeded generator so that every machine computes the same values.
    mutating func randomFloat() -> Float
}

extension DataConverterContext {
    /// Whether the bind's main direction is to source (bit 0 of its flags).
    var bindIsToSource: Bool { bindFlags & 1 == 1 }
}

/// A context with fixed answers: a bind's flags, an enum's values, view-model numbers by source
/// path and a fixed sequence of random numbers. Instances it makes are numbered from
/// `nextInstance`. For tests and for conversions that need nothing from a data context.
public struct PlainDataConverterContext: DataConverterContext, Sendable {
    public var bindFlags: UInt64
    public var enumValues: [String]
    /// View-model numbers by source path.
    public var numbers: [[UInt32]: Float]
    /// The random numbers `randomFloat()` hands out in turn (0 once they run out).
    public var randoms: [Float]
    /// The id the next made instance gets.
    public var nextInstance: UInt64
    /// How many view models the file has (instances of others cannot be made).
    public var viewModelCount: Int
    /// Every instance made so far, with the index of its view model.
    public private(set) var madeInstances: [(id: InstanceID, viewModel: Int)] = []

    public init(
        bindFlags: UInt64 = 0, enumValues: [String] = [], numbers: [[UInt32]: Float] = [:], randoms: [Float] = [],
        nextInstance: UInt64 = 1000, viewModelCount: Int = 0
    ) {
        self.bindFlags = bindFlags
        self.enumValues = enumValues
        self.numbers = numbers
        self.randoms = randoms
        self.nextInstance = nextInstance
        self.viewModelCount = viewModelCount
    }

    public func number(atSourcePath path: [UInt32]) -> Float? { numbers[path] }

    public mutating func makeDefaultInstance(ofViewModel index: Int) -> InstanceID? {
        guard index >= 0, index < viewModelCount else { return nil }
        let id = InstanceID(nextInstance)
        nextInstance += 1
        madeInstances.append((id, index))
        return id
    }

    public mutating func randomFloat() -> Float {
        guard !randoms.isEmpty else { return 0 }
        return randoms.removeFirst()
    }
}
