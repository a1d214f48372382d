/// One of Rive's keyframe interpolators (`KeyFrameInterpolator`, type 175): the objects a
/// keyframe's `interpolatorId` names, and that converters (`DataConverterInterpolator`) use.
public enum KeyFrameInterpolator: Sendable, Hashable {
    case cubicEase(CubicEaseInterpolator)
    case cubicValue(CubicValueInterpolator)
    case elastic(ElasticInterpolator)

    /// Rive's type keys.
    public enum TypeKey {
        public static let cubicEaseInterpolator = 28
        public static let cubicValueInterpolator = 138
        public static let elasticInterpolator = 174
    }

    /// The interpolator an object of the `.riv` stream describes, with Rive's defaults for
    /// properties it does not store; nil if the object is not an interpolator this runtime
    /// evaluates (a scripted one, or an elastic one with an unknown easing, which Rive leaves
    /// linear).
    public init?(_ object: RiveObject) {
        switch object.typeKey {
        case TypeKey.cubicEaseInterpolator:
            self = .cubicEase(
                CubicEaseInterpolator(
                    x1: object.float(63) ?? 0.42, y1: object.float(64) ?? 0,
                    x2: object.float(65) ?? 0.58, y2: object.float(66) ?? 1))
        case TypeKey.cubicValueInterpolator:
            self = .cubicValue(
                CubicValueInterpolator(
                    x1: object.float(63) ?? 0.42, y1: object.float(64) ?? 0,
                    x2: object.float(65) ?? 0.58, y2: object.float(66) ?? 1))
        case TypeKey.elasticInterpolator:
            guard let easing = ElasticInterpolator.Easing(rawValue: UInt32(truncatingIfNeeded: object.uint(405) ?? 1))
            else { return nil }
            self = .elastic(
                ElasticInterpolator(easing: easing, amplitude: object.float(406) ?? 1, period: object.float(407) ?? 1))
        default:
            return nil
        }
    }

    /// The eased progress for a time factor (Rive's `transform`): what colors and factor-based
    /// converters use.
    public func transform(_ factor: Float) -> Float {
        switch self {
        case .cubicEase(let interpolator): interpolator.transform(factor)
        case .cubicValue(let interpolator): interpolator.transform(factor)
        case .elastic(let interpolator): interpolator.transform(factor)
        }
    }

    /// The number between `from` and `to` at time factor `factor` (Rive's `transformValue`).
    public func transformValue(from: Float, to: Float, factor: Float) -> Float {
        switch self {
        case .cubicEase(let interpolator): interpolator.transformValue(from: from, to: to, factor: factor)
        case .cubicValue(let interpolator): interpolator.transformValue(from: from, to: to, factor: factor)
        case .elastic(let interpolator): interpolator.transformValue(from: from, to: to, factor: factor)
        }
    }
}
