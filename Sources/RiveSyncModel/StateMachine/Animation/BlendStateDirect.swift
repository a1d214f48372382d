/// A direct blend state (Rive's `BlendStateDirect`, 73): each animation has its own mix, from
/// a number input, a fixed value or a data-bound value, on a 0–100 scale.
public struct BlendStateDirect: Sendable, Hashable {
    /// One animation of the blend (`BlendAnimationDirect`, 77).
    public struct BlendAnimation: Sendable, Hashable {
        /// Where the animation's mix comes from (Rive's `blendSource`, key 298).
        public enum Source: Sendable, Hashable {
            /// 0: the state machine's number input at this index (key 168).
            case input(UInt32)
            /// 1: a fixed mix value (key 297, default 100).
            case mixValue(Float)
            /// 2: the `BindableProperty` object at this graph index, fed by a data bind.
            case bindableProperty(Int?)
        }

        /// Index among the artboard's animations (key 165); nil if missing or out of range.
        public var animationId: UInt32?
        public var source: Source

        public init(animationId: UInt32?, source: Source) {
            self.animationId = animationId
            self.source = source
        }
    }

    public var animations: [BlendAnimation]

    public init(animations: [BlendAnimation]) {
        self.animations = animations
    }

    /// The mix for a 0–100 blend value: value / 100, clamped to 0...1.
    public static func mix(for value: Float) -> Float {
        min(1, max(0, value / 100))
    }

    /// Each animation's mix, in ``animations`` order. `value` gives the number an input or
    /// bound source holds now; a nil answer keeps that animation's previous mix (Rive leaves
    /// a data-bound mix as it was while nothing is bound), given in `previous` (0 when absent).
    public func mixes(previous: [Float] = [], value: (BlendAnimation.Source) -> Float?) -> [Float] {
        animations.enumerated().map { index, animation in
            if case .mixValue(let fixed) = animation.source { return Self.mix(for: fixed) }
            if let current = value(animation.source) { return Self.mix(for: current) }
            return index < previous.count ? previous[index] : 0
        }
    }
}
