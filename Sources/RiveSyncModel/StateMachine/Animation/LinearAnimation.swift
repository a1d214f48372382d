/// A timeline of an artboard (Rive's `LinearAnimation`, type 31): what it keys and how it plays.
public struct LinearAnimation: Sendable, Hashable {
    /// What happens at the end of the timeline (Rive's `loopValue`, key 59).
    public enum Loop: UInt32, Sendable, Hashable {
        case oneShot = 0
        case loop = 1
        case pingPong = 2
    }

    /// Key 55.
    public var name: String
    /// Frames per second (key 56, default 60).
    public var fps: UInt32
    /// Length in frames (key 57, default 60).
    public var duration: UInt32
    /// Playback speed; negative plays backwards (key 58, default 1).
    public var speed: Float
    public var loop: Loop
    /// First frame of the work area (key 60).
    public var workStart: UInt32
    /// Last frame of the work area (key 61).
    public var workEnd: UInt32
    /// Whether playback is limited to the work area (key 62).
    public var enableWorkArea: Bool
    /// Whether time snaps down to whole frames when applied (key 376).
    public var quantize: Bool
    public var keyedObjects: [KeyedObject]

    public init(
        name: String = "", fps: UInt32 = 60, duration: UInt32 = 60, speed: Float = 1, loop: Loop = .oneShot,
        workStart: UInt32 = .max, workEnd: UInt32 = .max, enableWorkArea: Bool = false, quantize: Bool = false,
        keyedObjects: [KeyedObject] = []
    ) {
        self.name = name
        self.fps = fps
        self.duration = duration
        self.speed = speed
        self.loop = loop
        self.workStart = workStart
        self.workEnd = workEnd
        self.enableWorkArea = enableWorkArea
        self.quantize = quantize
        self.keyedObjects = keyedObjects
    }

    /// Where playback starts going forwards, in seconds.
    public var startSeconds: Float { (enableWorkArea ? Float(workStart) : 0) / Float(fps) }

    /// Where playback ends going forwards, in seconds.
    public var endSeconds: Float { Float(enableWorkArea ? workEnd : duration) / Float(fps) }

    /// The length played, in seconds.
    public var durationSeconds: Float { abs(endSeconds - startSeconds) }

    /// Where playback starts for a speed multiplier's direction.
    public func startTime(multiplier: Float = 1) -> Float {
        speed * multiplier >= 0 ? startSeconds : endSeconds
    }

    /// Where playback ends for the animation's own direction.
    public var endTime: Float { speed >= 0 ? endSeconds : startSeconds }

    /// The local time for a time since the animation started, following its loop mode.
    public func globalToLocalSeconds(_ seconds: Float) -> Float {
        switch loop {
        case .oneShot:
            return seconds + startTime()
        case .loop:
            return Self.positiveMod(seconds, durationSeconds) + startTime()
        case .pingPong:
            let local = Self.positiveMod(seconds, durationSeconds)
            let direction = Int(seconds / durationSeconds) % 2
            return direction == 0 ? local + startTime() : endTime - local
        }
    }

    static func positiveMod(_ value: Float, _ range: Float) -> Float {
        let range = abs(range)
        var result = value.truncatingRemainder(dividingBy: range)
        if result < 0 { result += range }
        return result
    }

    /// Writes every keyed value at `time` into `store`, mixed by `mix` (1 replaces).
    /// Callback properties set nothing.
    public func apply<Store: ComponentPropertyStore>(to store: inout Store, time: Float, mix: Float) {
        var time = time
        if quantize {
            let framesPerSecond = Float(fps)
            time = (time * framesPerSecond).rounded(.down) / framesPerSecond
        }
        for object in keyedObjects {
            for property in object.keyedProperties where !property.isCallback {
                property.apply(to: &store, component: object.objectId, seconds: time, mix: mix)
            }
        }
    }

    /// The callback keyframes crossed going from `from` to `to` seconds, in Rive's order.
    func keyedCallbacks(from: Float, to: Float, speedDirection: Float, fromPong: Bool) -> [KeyedCallback] {
        let isAtStartFrame = startTime(multiplier: speedDirection) == from
        if isAtStartFrame && fromPong { return [] }
        var callbacks: [KeyedCallback] = []
        for object in keyedObjects {
            for property in object.keyedProperties where property.isCallback {
                for delay in property.crossedKeyFrames(from: from, to: to, isAtStartFrame: isAtStartFrame) {
                    callbacks.append(KeyedCallback(objectId: object.objectId, propertyKey: property.propertyKey, delay: delay))
                }
            }
        }
        return callbacks
    }
}

/// A callback keyframe crossed during an advance: the keyed component (an `Event`, a trigger)
/// and property (``KeyedProperty/callbackPropertyKeys``), and how long before the end of the
/// step, in the animation's time, it was crossed (Rive's callback delay).
public struct KeyedCallback: Sendable, Hashable {
    public var objectId: UInt32
    public var propertyKey: Int
    public var delay: Float

    public init(objectId: UInt32, propertyKey: Int, delay: Float) {
        self.objectId = objectId
        self.propertyKey = propertyKey
        self.delay = delay
    }

    /// `Event.trigger`: the keyed component is an event to report.
    public static let eventTriggerPropertyKey = 395
    /// `CustomPropertyTrigger.fire`: the keyed component is a custom trigger property, whose
    /// count goes up by one.
    public static let customPropertyTriggerFirePropertyKey = 869
}
