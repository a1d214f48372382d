/// Solves a cubic Bézier timing curve with end points (0, 0) and (1, 1) for its parameter `t`
/// given an `x` (time factor), the way Rive's runtime does: an 11-sample table gives a first
/// guess, refined by Newton–Raphson where the slope allows and by bisection elsewhere. Float
/// math throughout, so results match Rive's to the last bits that matter.
public struct CubicInterpolatorSolver: Sendable, Hashable {
    /// The curve's first control point x.
    public let x1: Float
    /// The curve's second control point x.
    public let x2: Float
    private let samples: [Float]

    private static let sampleCount = 11
    private static let sampleStep: Float = 1.0 / Float(sampleCount - 1)
    private static let newtonIterations = 4
    private static let newtonMinSlope: Float = 0.001
    private static let subdivisionPrecision: Float = 0.0000001
    private static let subdivisionMaxIterations = 10

    public init(x1: Float, x2: Float) {
        self.x1 = x1
        self.x2 = x2
        samples = (0..<Self.sampleCount).map { Self.bezier(Float($0) * Self.sampleStep, x1, x2) }
    }

    /// The curve's coordinate at `t` for control coordinates `a1` and `a2` (x for x1/x2, y for
    /// y1/y2).
    public static func bezier(_ t: Float, _ a1: Float, _ a2: Float) -> Float {
        (((1 - 3 * a2 + 3 * a1) * t + (3 * a2 - 6 * a1)) * t + (3 * a1)) * t
    }

    private static func slope(_ t: Float, _ a1: Float, _ a2: Float) -> Float {
        3 * (1 - 3 * a2 + 3 * a1) * t * t + 2 * (3 * a2 - 6 * a1) * t + (3 * a1)
    }

    /// The curve parameter whose x is `x`.
    public func t(forX x: Float) -> Float {
        var intervalStart: Float = 0
        var sample = 1
        let last = Self.sampleCount - 1
        while sample != last && samples[sample] <= x {
            intervalStart += Self.sampleStep
            sample += 1
        }
        sample -= 1
        let distance = (x - samples[sample]) / (samples[sample + 1] - samples[sample])
        var guess = intervalStart + distance * Self.sampleStep
        let initialSlope = Self.slope(guess, x1, x2)
        if initialSlope >= Self.newtonMinSlope {
            for _ in 0..<Self.newtonIterations {
                let currentSlope = Self.slope(guess, x1, x2)
                if currentSlope == 0 { return guess }
                let currentX = Self.bezier(guess, x1, x2) - x
                guess -= currentX / currentSlope
            }
            return guess
        }
        if initialSlope == 0 { return guess }
        var upper = intervalStart + Self.sampleStep
        var lower = intervalStart
        var currentT: Float = 0
        var currentX: Float = 0
        var iteration = 0
        repeat {
            currentT = lower + (upper - lower) / 2
            currentX = Self.bezier(currentT, x1, x2) - x
            if currentX > 0 { upper = currentT } else { lower = currentT }
            iteration += 1
        } while abs(currentX) > Self.subdivisionPrecision && iteration < Self.subdivisionMaxIterations
        return currentT
    }
}
