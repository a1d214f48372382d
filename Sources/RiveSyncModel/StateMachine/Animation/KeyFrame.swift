/// One keyframe of a keyed property: the value it holds at its frame, and how the property
/// moves from it to the next keyframe.
public struct KeyFrame: Sendable, Hashable {
    /// The keyframe's value, by Rive's keyframe type.
    public enum Value: Sendable, Hashable {
        /// `KeyFrameDouble` (30).
        case double(Float)
        /// `KeyFrameColor` (37), 0xAARRGGBB.
        case color(UInt32)
        /// `KeyFrameBool` (84).
        case bool(Bool)
        /// `KeyFrameId` (50).
        case id(UInt32)
        /// `KeyFrameUint` (450).
        case uint(UInt32)
        /// `KeyFrameInt` (1067).
        case int(Int32)
        /// `KeyFrameString` (142).
        case string(String)
        /// `KeyFrameCallback` (171): fires the keyed callback (an event's trigger, a
        /// trigger) when playback crosses it; holds no value.
        case callback
    }

    /// How the property moves from this keyframe to the next (Rive's `interpolationType`).
    public enum Interpolation: Sendable, Hashable {
        /// Keeps this keyframe's value until the next one (0).
        case hold
        /// Straight line (1).
        case linear
        /// Through ``KeyFrame/interpolator`` (2; linear when it names none).
        case cubic

        /// Rive's stored number; unknown numbers interpolate as Rive's runtime does.
        public init(rawValue: UInt64) {
            switch rawValue {
            case 0: self = .hold
            case 2: self = .cubic
            default: self = .linear
            }
        }
    }

    /// The frame number (Rive's `frame`, key 67).
    public var frame: UInt32
    /// `frame / fps` of its animation, in Float as Rive computes it.
    public var seconds: Float
    public var value: Value
    public var interpolation: Interpolation
    /// The interpolator `interpolatorId` (key 69) names, if any.
    public var interpolator: KeyFrameInterpolator?

    public init(
        frame: UInt32, seconds: Float, value: Value, interpolation: Interpolation = .linear,
        interpolator: KeyFrameInterpolator? = nil
    ) {
        self.frame = frame
        self.seconds = seconds
        self.value = value
        self.interpolation = interpolation
        self.interpolator = interpolator
    }

    /// Rive's keyframe type keys.
    public enum TypeKey {
        public static let double = 30
        public static let color = 37
        public static let id = 50
        public static let bool = 84
        public static let string = 142
        public static let callback = 171
        public static let uint = 450
        public static let int = 1067
    }

    /// The value an object of the `.riv` stream holds, or nil if it is not a keyframe.
    public static func value(of object: RiveObject) -> Value? {
        switch object.typeKey {
        case TypeKey.double: .double(object.float(70) ?? 0)
        case TypeKey.color: .color(object.color(88) ?? 0)
        case TypeKey.bool: .bool((object.uint(181) ?? 0) != 0)
        case TypeKey.id: .id(UInt32(truncatingIfNeeded: object.uint(122) ?? UInt64(UInt32.max)))
        case TypeKey.uint: .uint(UInt32(truncatingIfNeeded: object.uint(631) ?? 0))
        case TypeKey.int: .int(zigzag(object.uint(1068) ?? 0))
        case TypeKey.string: .string(object.string(280) ?? "")
        case TypeKey.callback: .callback
        default: nil
        }
    }

    private static func zigzag(_ raw: UInt64) -> Int32 {
        let bits = UInt32(truncatingIfNeeded: raw)
        return Int32(bitPattern: bits >> 1) ^ -Int32(bitPattern: bits & 1)
    }
}
