import RiveSyncModel
import Testing

@Suite struct KeyedCallbackTests {
    /// One second at 10 fps with an event keyed at each frame in `frames`, the event's
    /// component id being its frame number.
    static func animation(_ loop: LinearAnimation.Loop, frames: [UInt32], speed: Float = 1) -> LinearAnimation {
        LinearAnimation(
            name: "events", fps: 10, duration: 10, speed: speed, loop: loop,
            keyedObjects: frames.map { frame in
                KeyedObject(
                    objectId: frame,
                    keyedProperties: [
                        KeyedProperty(
                            propertyKey: KeyedCallback.eventTriggerPropertyKey,
                            keyFrames: [KeyFrame(frame: frame, seconds: Float(frame) / 10, value: .callback)])
                    ])
            })
    }

    /// The events fired advancing `steps` times by `step`.
    static func fired(_ animation: LinearAnimation, step: Float, steps: Int) -> [UInt32] {
        var player = LinearAnimationInstance(animation)
        var fired: [UInt32] = []
        for _ in 0..<steps {
            fired += player.advance(by: step).callbacks.map(\.objectId)
        }
        return fired
    }

    @Test func oneShotFiresEachEventOnce() {
        let animation = Self.animation(.oneShot, frames: [0, 3, 7, 10])
        #expect(Self.fired(animation, step: 0.07, steps: 40) == [0, 3, 7, 10])
        #expect(Self.fired(animation, step: 0.1, steps: 20) == [0, 3, 7, 10])
        #expect(Self.fired(animation, step: 5, steps: 3) == [0, 3, 7, 10])
    }

    @Test func loopFiresAgainEachLap() {
        let animation = Self.animation(.loop, frames: [0, 3, 7])
        #expect(Self.fired(animation, step: 0.07, steps: 36) == [0, 3, 7, 0, 3, 7, 0, 3])
    }

    @Test func pingPongFiresOnTheWayBackToo() {
        let animation = Self.animation(.pingPong, frames: [3, 7])
        #expect(Self.fired(animation, step: 0.07, steps: 36) == [3, 7, 7, 3, 3])
    }

    @Test func backwardsFiresInReverse() {
        let animation = Self.animation(.oneShot, frames: [3, 7], speed: -1)
        #expect(Self.fired(animation, step: 0.07, steps: 20) == [7, 3])
    }

    @Test func theDelayIsHowLongAgoInTheStep() throws {
        var player = LinearAnimationInstance(Self.animation(.oneShot, frames: [7]))
        _ = player.advance(by: 0.5)
        let callbacks = player.advance(by: 0.25).callbacks
        let callback = try #require(callbacks.first)
        #expect(callbacks.count == 1)
        #expect(callback.propertyKey == 395)
        #expect(abs(callback.delay - 0.05) < 1e-5)
    }
}
