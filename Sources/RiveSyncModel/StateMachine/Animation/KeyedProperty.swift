/// One property of one component keyed by an animation (Rive's `KeyedProperty`, type 26): the
/// property key and its keyframes in time order.
public struct KeyedProperty: Sendable, Hashable {
    /// Rive's property key (key 53).
    public var propertyKey: Int
    /// Never empty when built from a file (a keyed property without keyframes is dropped).
    public var keyFrames: [KeyFrame]

    public init(propertyKey: Int, keyFrames: [KeyFrame]) {
        self.propertyKey = propertyKey
        self.keyFrames = keyFrames
    }

    /// The property keys Rive marks as callbacks (a timeline crossing them fires them rather
    /// than setting a value): `Event.trigger`, `NestedTrigger.fire`,
    /// `CustomPropertyTrigger.fire`, `ViewModelInstanceTrigger.fire`.
    public static let callbackPropertyKeys: Set<Int> = [395, 401, 869, 1016]

    /// Whether the property is a callback.
    public var isCallback: Bool { Self.callbackPropertyKeys.contains(propertyKey) }

    /// The index of the first keyframe at or after `seconds` (plus `exactOffset` when one sits
    /// exactly at `seconds`); the keyframe count when all are earlier.
    func closestFrameIndex(_ seconds: Float, exactOffset: Int = 0) -> Int {
        guard let last = keyFrames.last else { return 0 }
        if seconds > last.seconds { return keyFrames.count }
        var start = 0
        var end = keyFrames.count - 1
        while start <= end {
            let mid = (start + end) >> 1
            let midSeconds = keyFrames[mid].seconds
            if midSeconds < seconds {
                start = mid + 1
            } else if midSeconds > seconds {
                end = mid - 1
            } else {
                return mid + exactOffset
            }
        }
        return start
    }

    /// The keyframes crossed going from `from` to `to` seconds, each with how long before
    /// `to` it sits (`to - keyframe seconds`), in Rive's order. A keyframe exactly at `from`
    /// counts only when `from` is the start frame (so a keyframe is reported once).
    func crossedKeyFrames(from: Float, to: Float, isAtStartFrame: Bool) -> [Float] {
        if from == to || keyFrames.isEmpty { return [] }
        let isForward = from <= to
        let fromExactOffset = isForward ? (isAtStartFrame ? 0 : 1) : (isAtStartFrame ? 1 : 0)
        let toExactOffset = isForward ? 1 : 0
        var index = closestFrameIndex(from, exactOffset: fromExactOffset)
        var indexTo = closestFrameIndex(to, exactOffset: toExactOffset)
        if indexTo < index { swap(&index, &indexTo) }
        var delays: [Float] = []
        while indexTo > index {
            if index < keyFrames.count { delays.append(to - keyFrames[index].seconds) }
            index += 1
        }
        return delays
    }

    /// Writes the property's value at `seconds` into `store`, mixed by `mix`.
    func apply<Store: ComponentPropertyStore>(
        to store: inout Store, component: UInt32, seconds: Float, mix: Float
    ) {
        guard !keyFrames.isEmpty else { return }
        let target = AnimatedProperty(component: component, property: propertyKey)
        let index = closestFrameIndex(seconds)
        if index == 0 {
            KeyFrameApplier.apply(keyFrames[0], to: &store, target, mix: mix)
        } else if index < keyFrames.count {
            let from = keyFrames[index - 1]
            let to = keyFrames[index]
            if seconds == to.seconds {
                KeyFrameApplier.apply(to, to: &store, target, mix: mix)
            } else if from.interpolation == .hold {
                KeyFrameApplier.apply(from, to: &store, target, mix: mix)
            } else {
                KeyFrameApplier.interpolate(from, to, at: seconds, into: &store, target, mix: mix)
            }
        } else {
            KeyFrameApplier.apply(keyFrames[index - 1], to: &store, target, mix: mix)
        }
    }
}
