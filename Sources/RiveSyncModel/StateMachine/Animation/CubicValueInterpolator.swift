/// Rive's `CubicValueInterpolator` (type 138): a cubic curve in value space. The curve runs
/// from the `from` value through y1 and y2 (given as values, not factors) to the `to` value;
/// x1/x2 shape time as in an ease curve.
///
/// It only interpolates numbers: as an easing of a progress factor (colors, converters that ask
/// for a factor) Rive leaves the factor unchanged, and so does ``transform(_:)``.
public struct CubicValueInterpolator: Sendable, Hashable {
    public let x1: Float
    public let y1: Float
    public let x2: Float
    public let y2: Float
    private let solver: CubicInterpolatorSolver

    /// The defaults are Rive's (0.42, 0, 0.58, 1).
    public init(x1: Float = 0.42, y1: Float = 0, x2: Float = 0.58, y2: Float = 1) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        solver = CubicInterpolatorSolver(x1: x1, x2: x2)
    }

    /// The factor itself (Rive gives this interpolator no factor easing).
    public func transform(_ factor: Float) -> Float { factor }

    /// The value on the curve from `from` through y1, y2 to `to` at time factor `factor`.
    public func transformValue(from: Float, to: Float, factor: Float) -> Float {
        let a = to + 3 * (y1 - y2) - from
        let b = 3 * (y2 - y1 * 2 + from)
        let c = 3 * (y1 - from)
        let t = solver.t(forX: factor)
        return ((a * t + b) * t + c) * t + from
    }
}
