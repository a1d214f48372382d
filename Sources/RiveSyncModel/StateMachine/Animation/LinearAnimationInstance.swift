/// A playing ``LinearAnimation`` (Rive's `LinearAnimationInstance`), as a value: its time,
/// direction and loop bookkeeping. ``advance(by:)`` moves time and reports the callback
/// keyframes crossed; ``apply(to:mix:)`` writes the keyed values at the current time.
public struct LinearAnimationInstance: Sendable, Hashable {
    public let animation: LinearAnimation
    /// The current local time in seconds.
    public private(set) var time: Float
    /// +1 or -1: the direction of the speed multiplier it was made with.
    public let speedDirection: Float
    /// Seconds played in total (absolute, speed applied).
    public private(set) var totalTime: Float = 0
    /// ``totalTime`` before the last advance.
    public private(set) var lastTotalTime: Float = 0
    /// The part of the last advance left over after a one-shot ended or a loop wrapped, in
    /// seconds of the caller's time.
    public private(set) var spilledTime: Float = 0
    /// +1, or -1 while a ping-pong plays back.
    public private(set) var direction: Float = 1
    /// Whether the last advance ended, wrapped or bounced.
    public private(set) var didLoop = false
    /// A loop mode replacing the animation's own, if set.
    public var loopOverride: LinearAnimation.Loop?

    /// A player at the animation's start (its end when `speedMultiplier` is negative).
    public init(_ animation: LinearAnimation, speedMultiplier: Float = 1) {
        self.animation = animation
        time = speedMultiplier >= 0 ? animation.startTime() : animation.endTime
        speedDirection = speedMultiplier >= 0 ? 1 : -1
    }

    /// The loop mode in force.
    public var loop: LinearAnimation.Loop { loopOverride ?? animation.loop }

    /// The speed with the playing direction applied.
    public var directedSpeed: Float { direction * animation.speed }

    /// Whether playing on would change anything: it loops, or a one-shot has not reached its
    /// end in the direction it plays (the sign of `multiplier` scales that direction).
    public func keepGoing(multiplier: Float = 1) -> Bool {
        if loop != .oneShot { return true }
        let speed = directedSpeed * multiplier
        return (speed > 0 && time < animation.endSeconds) || (speed < 0 && time > animation.startSeconds)
    }

    /// The result of one ``advance(by:)``.
    public struct Advance: Sendable, Hashable {
        /// Whether the animation keeps going after this step (Rive's return value).
        public var keepGoing: Bool
        /// Callback keyframes crossed, in the order Rive reports them.
        public var callbacks: [KeyedCallback]
    }

    /// Moves time on by `elapsed` seconds (times the animation's speed and direction),
    /// handling the end, loop wrap or ping-pong bounce, and reports every callback keyframe
    /// crossed, each once.
    public mutating func advance(by elapsed: Float) -> Advance {
        let delta = elapsed * animation.speed * direction
        spilledTime = 0
        if delta == 0 {
            didLoop = false
            return Advance(keepGoing: false, callbacks: [])
        }
        lastTotalTime = totalTime
        totalTime += abs(delta)
        let killSpilledTime = !keepGoing(multiplier: elapsed)
        var lastTime = time
        time += delta
        var callbacks = animation.keyedCallbacks(from: lastTime, to: time, speedDirection: speedDirection, fromPong: false)

        let fps = Float(animation.fps)
        var frames = time * fps
        let start: Float = animation.enableWorkArea ? Float(animation.workStart) : 0
        let end: Float = animation.enableWorkArea ? Float(animation.workEnd) : Float(animation.duration)
        let range = end - start
        var looped = false
        var playing: Float = delta < 0 ? -1 : 1
        switch loop {
        case .oneShot:
            if playing == 1 && frames > end {
                spilledTime = (frames - end) / (delta * fps) * elapsed
                frames = end
                time = frames / fps
                looped = true
            } else if playing == -1 && frames < start {
                spilledTime = (start - frames) / abs(delta * fps) * elapsed
                frames = start
                time = frames / fps
                looped = true
            }
        case .loop:
            if playing == 1 && frames >= end {
                let remainder = (frames - start).truncatingRemainder(dividingBy: range)
                spilledTime = remainder / (delta * fps) * elapsed
                frames = start + remainder
                time = frames / fps
                looped = true
                callbacks += animation.keyedCallbacks(from: 0, to: time, speedDirection: speedDirection, fromPong: false)
            } else if playing == -1 && frames <= start {
                let remainder = abs((start - frames).truncatingRemainder(dividingBy: range))
                spilledTime = abs(remainder / (delta * fps)) * elapsed
                frames = end - remainder
                time = frames / fps
                looped = true
                callbacks += animation.keyedCallbacks(
                    from: end / fps, to: time, speedDirection: speedDirection, fromPong: false)
            }
        case .pingPong:
            var fromPong = true
            while true {
                if playing == 1 && frames >= end {
                    spilledTime = (frames - end) / fps
                    frames = end + (end - frames)
                    lastTime = end / fps
                } else if playing == -1 && frames < start {
                    spilledTime = (start - frames) / fps
                    frames = start + (start - frames)
                    lastTime = start / fps
                } else {
                    break
                }
                time = frames / fps
                direction *= -1
                playing *= -1
                looped = true
                callbacks += animation.keyedCallbacks(
                    from: lastTime, to: time, speedDirection: speedDirection, fromPong: fromPong)
                fromPong.toggle()
            }
        }
        if killSpilledTime { spilledTime = 0 }
        didLoop = looped
        return Advance(keepGoing: keepGoing(multiplier: elapsed), callbacks: callbacks)
    }

    /// Sets the local time (Rive's `time(_:)`): keeps total and last-total time in step so
    /// exit-time checks still see progress, and plays forwards again.
    public mutating func setTime(_ value: Float) {
        if time == value { return }
        time = value
        let difference = totalTime - lastTotalTime
        let start = (animation.enableWorkArea ? Float(animation.workStart) : 0) * Float(animation.fps)
        totalTime = value - start
        lastTotalTime = totalTime - difference
        direction = 1
    }

    /// Back to the start (the end for a negative multiplier).
    public mutating func reset(speedMultiplier: Float = 1) {
        time = speedMultiplier >= 0 ? animation.startTime() : animation.endTime
    }

    /// Writes the keyed values at the current time into `store`, mixed by `mix`.
    public func apply<Store: ComponentPropertyStore>(to store: inout Store, mix: Float = 1) {
        animation.apply(to: &store, time: time, mix: mix)
    }
}
