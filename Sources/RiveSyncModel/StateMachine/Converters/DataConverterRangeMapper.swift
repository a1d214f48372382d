/// Rive's `DataConverterRangeMapper` (type 519): maps a number from the input range
/// (`minInput`/`maxInput`, keys 716/717) onto the output range (`minOutput`/`maxOutput`,
/// 718/719), all defaulting to 1, optionally clamped, wrapped, reversed and eased.
public struct DataConverterRangeMapper: Sendable, Hashable {
    /// `flags` (key 715).
    public struct Flags: OptionSet, Sendable, Hashable {
        public var rawValue: UInt64
        public init(rawValue: UInt64) { self.rawValue = rawValue }
        /// Inputs below `minInput` count as `minInput`.
        public static let clampLower = Flags(rawValue: 1 << 0)
        /// Inputs above `maxInput` count as `maxInput`.
        public static let clampUpper = Flags(rawValue: 1 << 1)
        /// Inputs outside the range wrap around into it.
        public static let modulo = Flags(rawValue: 1 << 2)
        /// The mapping runs from the top of the output range to its bottom.
        public static let reverse = Flags(rawValue: 1 << 3)
    }

    public var minInput: Float
    public var maxInput: Float
    public var minOutput: Float
    public var maxOutput: Float
    public var flags: Flags
    /// `interpolationType` (key 713, default 1): 0 holds (the output jumps to the end of the
    /// range as soon as the input leaves its start), anything else maps linearly or through
    /// `interpolator`.
    public var interpolationType: UInt64
    /// The file interpolator `interpolatorId` (key 714) names, if any.
    public var interpolator: KeyFrameInterpolator?

    public init(
        minInput: Float = 1, maxInput: Float = 1, minOutput: Float = 1, maxOutput: Float = 1, flags: Flags = [],
        interpolationType: UInt64 = 1, interpolator: KeyFrameInterpolator? = nil
    ) {
        self.minInput = minInput
        self.maxInput = maxInput
        self.minOutput = minOutput
        self.maxOutput = maxOutput
        self.flags = flags
        self.interpolationType = interpolationType
        self.interpolator = interpolator
    }

    /// A number maps from the input range to the output range; any other value gives 0.
    func convert(_ value: PropertyValue) -> PropertyValue {
        map(value, from: (minInput, maxInput), to: (minOutput, maxOutput))
    }

    /// The same mapping with the ranges swapped.
    func reverseConvert(_ value: PropertyValue) -> PropertyValue {
        map(value, from: (minOutput, maxOutput), to: (minInput, maxInput))
    }

    private func map(_ value: PropertyValue, from input: (Float, Float), to output: (Float, Float)) -> PropertyValue {
        guard case .number(var number) = value else { return .number(0) }
        let (minInput, maxInput) = input
        let (minOutput, maxOutput) = output
        if minOutput == maxOutput { return .number(minOutput) }
        if number < minInput, flags.contains(.clampLower) {
            number = minInput
        } else if number > maxInput, flags.contains(.clampUpper) {
            number = maxInput
        }
        if number < minInput || number > maxInput, flags.contains(.modulo) {
            number = abs(ArithmeticOperation.positiveModulo(number, maxInput - minInput) + minInput)
        }
        var factor = (number - minInput) / (maxInput - minInput)
        if flags.contains(.reverse) { factor = 1 - factor }
        if let interpolator, factor > 0, factor < 1 {
            factor = interpolator.transform(factor)
        } else if interpolationType == 0 {
            factor = factor <= 0 ? 0 : 1
        }
        return .number(factor * maxOutput + (1 - factor) * minOutput)
    }
}
