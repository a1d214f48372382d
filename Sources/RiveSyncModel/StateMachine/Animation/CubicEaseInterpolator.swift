/// Rive's `CubicEaseInterpolator` (type 28): a cubic Bézier easing curve from (0, 0) through
/// (x1, y1) and (x2, y2) to (1, 1) that maps a time factor to a progress factor.
public struct CubicEaseInterpolator: Sendable, Hashable {
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

    /// The eased progress for a time factor in 0...1.
    public func transform(_ factor: Float) -> Float {
        CubicInterpolatorSolver.bezier(solver.t(forX: factor), y1, y2)
    }

    /// The value between `from` and `to` at `factor`, eased.
    public func transformValue(from: Float, to: Float, factor: Float) -> Float {
        from + (to - from) * transform(factor)
    }
}
