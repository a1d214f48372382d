/// The time of a `LinearAnimation` played by an animation state: Rive's
/// `LinearAnimationInstance` timing (one shot, loop, ping-pong; speed; work area), without
/// applying keyframes.
struct AnimationClock: Sendable, Hashable {
    let animation: AnimationDefinition
    private(set) var time: Float
    private(set) var totalTime: Float = 0
    private(set) var lastTotalTime: Float = 0
    private(set) var direction: Float = 1
    /// Whether the last advance left the animation with more to play.
    private(set) var keepGoing = true

    init(_ animation: AnimationDefinition) {
        self.animation = animation
        time = animation.speed >= 0 ? animation.startSeconds : animation.endSeconds
    }

    /// A clock restored as it was.
    init(_ animation: AnimationDefinition, time: Float, totalTime: Float, lastTotalTime: Float, direction: Float, keepGoing: Bool) {
        self.animation = animation
        self.time = time
        self.totalTime = totalTime
        self.lastTotalTime = lastTotalTime
        self.direction = direction
        self.keepGoing = keepGoing
    }

    mutating func advance(_ seconds: Float) {
        let delta = seconds * animation.speed * direction
        lastTotalTime = totalTime
        totalTime += abs(delta)
        time += delta
        let start = animation.startSeconds
        let end = animation.endSeconds
        let range = end - start
        keepGoing = true
        switch animation.loop {
        case 1:
            if range > 0 {
                if time >= end { time = start + (time - start).truncatingRemainder(dividingBy: range) }
                if time < start { time = end - (start - time).truncatingRemainder(dividingBy: range) }
            }
        case 2:
            var guardCount = 0
            while range > 0, time > end || time < start, guardCount < 1000 {
                if time > end { time = end - (time - end) } else { time = start + (start - time) }
                direction = -direction
                guardCount += 1
            }
        default:
            if time >= end {
                time = end
                keepGoing = false
            } else if time <= start, delta < 0 {
                time = start
                keepGoing = false
            }
        }
    }
}
