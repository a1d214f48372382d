import Foundation

/// Rive's `ElasticInterpolator` (type 174): a decaying sine ease in, out or in-and-out, with an
/// amplitude (as a factor of the change in value) and a period (0 means Rive's 0.5).
public struct ElasticInterpolator: Sendable, Hashable {
    /// Which end of the transition oscillates (Rive's `easingValue`, key 405).
    public enum Easing: UInt32, Sendable, Hashable {
        case easeIn = 0
        case easeOut = 1
        case easeInOut = 2
    }

    public let easing: Easing
    public let amplitude: Float
    public let period: Float
    /// The phase shift aligning the decaying sine with the keyframe.
    private let shift: Float

    /// The defaults are Rive's (ease out, amplitude 1, period 1).
    public init(easing: Easing = .easeOut, amplitude: Float = 1, period: Float = 1) {
        self.easing = easing
        self.amplitude = amplitude
        let effectivePeriod = period == 0 ? 0.5 : period
        self.period = effectivePeriod
        shift =
            amplitude < 1
            ? effectivePeriod / 4
            : effectivePeriod / (2 * Float.pi) * asinf(1 / amplitude)
    }

    private func actualAmplitude(_ time: Float) -> Float {
        if amplitude < 1 {
            let t = abs(shift)
            let absTime = abs(time)
            if absTime < t {
                let l = absTime / t
                return amplitude * l + (1 - l)
            }
        }
        return amplitude
    }

    private func decay(_ time: Float) -> Float {
        actualAmplitude(time) * powf(2, 10 * time)
    }

    /// The eased progress for a time factor in 0...1.
    public func transform(_ factor: Float) -> Float {
        let omega = 2 * Float.pi / period
        switch easing {
        case .easeIn:
            let time = factor - 1
            return -(decay(time) * sinf((-time - shift) * omega))
        case .easeOut:
            let time = factor
            return actualAmplitude(time) * powf(2, 10 * -time) * sinf((time - shift) * omega) + 1
        case .easeInOut:
            let time = factor * 2 - 1
            if time < 0 {
                return -0.5 * decay(time) * sinf((-time - shift) * omega)
            }
            return 0.5 * (actualAmplitude(time) * powf(2, 10 * -time) * sinf((time - shift) * omega)) + 1
        }
    }

    /// The value between `from` and `to` at `factor`, eased.
    public func transformValue(from: Float, to: Float, factor: Float) -> Float {
        from + (to - from) * transform(factor)
    }
}
