/// Rive's `DataConverterInterpolator` (type 534): a time-based converter. When its input (a
/// number or a color) changes, its output moves from the current value to the new one over
/// `duration` seconds (key 756, default 1), linearly or through `interpolator` (the file
/// interpolator `interpolatorId`, key 758, names), and a change made mid-way is smoothed.
/// Any other value passes through.
///
/// It is stateful: the evaluator keeps one per bind, calls ``advance(_:)`` with each advance's
/// elapsed time and converts again while the value moves. Until two advances with time have
/// passed, a new input is taken at once (Rive's "first run": a freshly bound value does not
/// animate in). ``reset()`` starts over, as on a new binding.
public struct DataConverterInterpolator: Sendable, Hashable {
    public var duration: Float
    /// `interpolationType` (key 757, default 1); the interpolator alone decides the easing.
    public var interpolationType: UInt64
    public var interpolator: KeyFrameInterpolator?
    /// Advances with time seen, up to 2.
    var advanceCount: UInt8 = 0
    /// Nil until the first number or color arrives.
    var advancer: InterpolatorAdvancer?

    public init(duration: Float = 1, interpolationType: UInt64 = 1, interpolator: KeyFrameInterpolator? = nil) {
        self.duration = duration
        self.interpolationType = interpolationType
        self.interpolator = interpolator
    }

    /// The current value for a new input (the input itself while there is nothing to animate).
    mutating func convert(_ value: PropertyValue) -> PropertyValue {
        let input = InterpolatedValue(value)
        if duration == 0, var advancer {
            // Any value, even one of another kind, restarts the advancer (values of another
            // kind leave its values as they are).
            advancer.resetToStart(input)
            self.advancer = advancer
            return value
        }
        guard let input else { return value }
        var advancer = self.advancer ?? InterpolatorAdvancer(kind: input)
        if advanceCount < 2 {
            advancer.resetValues(input)
        } else {
            advancer.updateValues(input)
        }
        self.advancer = advancer
        return advancer.current.propertyValue
    }

    /// Moves time on. Before any number or color arrived, it reports "still running", as
    /// Rive's converter does.
    mutating func advance(_ elapsedSeconds: Float) -> DataConverterAdvance {
        if advanceCount < 2, elapsedSeconds > 0 { advanceCount += 1 }
        guard var advancer else { return DataConverterAdvance(isRunning: true, needsUpdate: false) }
        let (running, moved) = advancer.advance(elapsedSeconds, duration: duration, interpolator: interpolator)
        self.advancer = advancer
        return DataConverterAdvance(isRunning: running, needsUpdate: moved)
    }

    /// Forgets the value and the time seen (Rive resets interpolators on a new binding).
    mutating func reset() {
        advanceCount = 0
        advancer = nil
    }
}

/// What advancing a converter's time did.
public struct DataConverterAdvance: Sendable, Hashable {
    /// Whether the converter still animates (its bind is not settled).
    public var isRunning: Bool
    /// Whether the converter's output moved, so its bind must convert and apply again (Rive's
    /// `markConverterDirty`).
    public var needsUpdate: Bool

    public init(isRunning: Bool, needsUpdate: Bool) {
        self.isRunning = isRunning
        self.needsUpdate = needsUpdate
    }

    /// Nothing runs and nothing moved.
    public static let idle = DataConverterAdvance(isRunning: false, needsUpdate: false)

    /// Both results together (a group advances every item).
    func combined(with other: DataConverterAdvance) -> DataConverterAdvance {
        DataConverterAdvance(isRunning: isRunning || other.isRunning, needsUpdate: needsUpdate || other.needsUpdate)
    }
}
