/// A 1D blend state (Rive's `BlendState1D`, 527): animations placed at values on one axis,
/// mixed by where the blend value falls between its two neighbours.
public struct BlendState1D: Sendable, Hashable {
    /// What drives the blend value.
    public enum Source: Sendable, Hashable {
        /// `BlendState1DInput` (76): the state machine's number input at this index (key
        /// 167); nil when none is set (the value is then 0).
        case input(UInt32?)
        /// `BlendState1DViewModel` (528): the `BindableProperty` object at this graph index,
        /// which a data bind feeds (the value is 0 while it holds no number).
        case bindableProperty(Int?)
    }

    /// One animation of the blend (`BlendAnimation1D`, 75).
    public struct BlendAnimation: Sendable, Hashable {
        /// Index among the artboard's animations (key 165); nil if missing or out of range.
        public var animationId: UInt32?
        /// Where it sits on the axis (key 166).
        public var value: Float

        public init(animationId: UInt32?, value: Float) {
            self.animationId = animationId
            self.value = value
        }
    }

    public var source: Source
    /// In file order; Rive expects (and the editor writes) them sorted by value.
    public var animations: [BlendAnimation]

    public init(source: Source, animations: [BlendAnimation]) {
        self.source = source
        self.animations = animations
    }

    /// Each animation's mix for blend value `value`, in ``animations`` order: the two
    /// animations around the value share it linearly; every other animation gets 0. At or
    /// beyond either end, or when both neighbours sit at the same value, the nearest gets 1.
    public func mixes(for value: Float) -> [Float] {
        let index = animationIndex(value)
        let count = animations.count
        let to = index >= 0 && index < count ? animations[index].value : nil
        let from = index - 1 >= 0 && index - 1 < count ? animations[index - 1].value : nil
        var mix: Float = 1
        var mixFrom: Float = 1
        if let to, let from, to != from {
            mix = (value - from) / (to - from)
            mixFrom = 1 - mix
        }
        return animations.map { animation in
            if let to, animation.value == to { return mix }
            if let from, animation.value == from { return mixFrom }
            return 0
        }
    }

    /// Binary search for the first animation at or after `value` (Rive's `animationIndex`).
    private func animationIndex(_ value: Float) -> Int {
        var index = 0
        var start = 0
        var end = animations.count - 1
        while start <= end {
            let mid = (start + end) >> 1
            let midValue = animations[mid].value
            if midValue < value {
                start = mid + 1
            } else if midValue > value {
                end = mid - 1
            } else {
                return mid
            }
            index = start
        }
        return index
    }
}
