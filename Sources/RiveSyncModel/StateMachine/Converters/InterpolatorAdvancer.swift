/// A number or a color an interpolator converter moves between (Rive's `DataValueNumber` and
/// `DataValueColor` as the advancer keeps them).
enum InterpolatedValue: Sendable, Hashable {
    case number(Float)
    case color(UInt32)

    /// The input as an interpolated value, if it is a number or a color.
    init?(_ value: PropertyValue) {
        switch value {
        case .number(let number): self = .number(number)
        case .color(let color): self = .color(color)
        default: return nil
        }
    }

    /// A value of the same kind with its default (0).
    var zero: InterpolatedValue {
        switch self {
        case .number: .number(0)
        case .color: .color(0)
        }
    }

    var propertyValue: PropertyValue {
        switch self {
        case .number(let number): .number(number)
        case .color(let color): .color(color)
        }
    }

    /// `other` if it is of the same kind, else self (Rive's `copyValue` does nothing across
    /// kinds).
    func taking(_ other: InterpolatedValue) -> InterpolatedValue {
        switch (self, other) {
        case (.number, .number), (.color, .color): other
        default: self
        }
    }

    /// Between self and `to` at `factor`: numbers linearly in Float, colors channel by channel
    /// as Rive's `colorLerp` does. Across kinds, `into` is left as it is.
    func mix(to: InterpolatedValue, factor: Float, into current: InterpolatedValue) -> InterpolatedValue {
        switch (self, to, current) {
        case (.number(let from), .number(let to), .number):
            return .number(to * factor + from * (1 - factor))
        case (.color(let from), .color(let to), .color):
            return .color(Self.lerp(from, to, factor))
        default:
            return current
        }
    }

    static func lerp(_ from: UInt32, _ to: UInt32, _ mix: Float) -> UInt32 {
        var result: UInt32 = 0
        for shift: UInt32 in [24, 16, 8, 0] {
            let a = Float(from >> shift & 0xFF)
            let b = Float(to >> shift & 0xFF)
            let channel = max(0, min(255, a * (1 - mix) + b * mix)).rounded(.toNearestOrAwayFromZero)
            result |= (UInt32(channel) & 0xFF) << shift
        }
        return result
    }
}

/// One leg of an interpolation (Rive's `InterpolatorAnimationData`): from, to and the time
/// spent on it.
struct InterpolatorAnimationData: Sendable, Hashable {
    var elapsedSeconds: Float = 0
    var from: InterpolatedValue
    var to: InterpolatedValue
}

/// The state of one interpolator converter (Rive's `InterpolatorAdvancer`): the leg it runs,
/// a second leg while it smooths a change of target made mid-way, and the current value.
struct InterpolatorAdvancer: Sendable, Hashable {
    var legA: InterpolatorAnimationData
    var legB: InterpolatorAnimationData
    /// Whether leg B runs (a target changed while leg A was under way).
    var isSmoothing = false
    var current: InterpolatedValue

    /// An advancer for values of `kind`'s kind, everything at 0.
    init(kind: InterpolatedValue) {
        let zero = kind.zero
        legA = InterpolatorAnimationData(from: zero, to: zero)
        legB = legA
        current = zero
    }

    subscript(leg useB: Bool) -> InterpolatorAnimationData {
        get { useB ? legB : legA }
        set { if useB { legB = newValue } else { legA = newValue } }
    }

    /// Jumps to `input`: from, to and current all take it.
    mutating func resetValues(_ input: InterpolatedValue) {
        let useB = isSmoothing
        self[leg: useB].from = self[leg: useB].from.taking(input)
        self[leg: useB].to = self[leg: useB].to.taking(input)
        current = current.taking(input)
    }

    /// Jumps to `input` (when it is a number or a color) and forgets any time spent.
    mutating func resetToStart(_ input: InterpolatedValue?) {
        if let input { resetValues(input) }
        isSmoothing = false
        legA.elapsedSeconds = 0
        legB.elapsedSeconds = 0
    }

    /// Starts moving from the current value to `input` if that is a new target; a target
    /// changed mid-way starts a smoothing leg.
    mutating func updateValues(_ input: InterpolatedValue) {
        let leg = self[leg: isSmoothing]
        guard input != leg.to else { return }
        if leg.elapsedSeconds != 0 {
            if isSmoothing { legA = legB }
            isSmoothing = true
        } else {
            isSmoothing = false
        }
        let useB = isSmoothing
        self[leg: useB].from = self[leg: useB].from.taking(current)
        self[leg: useB].to = self[leg: useB].to.taking(input)
        self[leg: useB].elapsedSeconds = 0
    }

    /// Moves time on by `elapsed` seconds. Returns whether the interpolation still runs, and
    /// whether the value moved (Rive then marks the converter's bind dirty).
    mutating func advance(
        _ elapsed: Float, duration: Float, interpolator: KeyFrameInterpolator?
    ) -> (running: Bool, moved: Bool) {
        let useB = isSmoothing
        if self[leg: useB].to == current || elapsed == 0 { return (false, false) }
        let previous = self[leg: useB].elapsedSeconds
        advanceLegs(elapsed, duration: duration, interpolator: interpolator)
        return (self[leg: useB].elapsedSeconds < duration, previous < duration)
    }

    private func factor(_ elapsed: Float, _ duration: Float, _ interpolator: KeyFrameInterpolator?) -> Float {
        let linear = Float.minimum(1, duration > 0 ? elapsed / duration : 1)
        return interpolator?.transform(linear) ?? linear
    }

    private mutating func advanceLegs(_ elapsed: Float, duration: Float, interpolator: KeyFrameInterpolator?) {
        let useB = isSmoothing
        if isSmoothing {
            let f = factor(legA.elapsedSeconds, duration, interpolator)
            legB.from = legA.from.mix(to: legA.to, factor: f, into: legB.from)
            if f == 1 {
                legA = legB
                isSmoothing = false
            } else {
                legA.elapsedSeconds += elapsed
            }
        }
        if self[leg: useB].elapsedSeconds >= duration {
            current = current.taking(self[leg: useB].to)
            if isSmoothing {
                isSmoothing = false
                legA = legB
                legA.elapsedSeconds = 0
                legB.elapsedSeconds = 0
            } else {
                legA.elapsedSeconds = 0
            }
            return
        }
        self[leg: useB].elapsedSeconds += elapsed
        let leg = self[leg: useB]
        current = leg.from.mix(to: leg.to, factor: factor(leg.elapsedSeconds, duration, interpolator), into: current)
    }
}
