import RiveSyncModel
import Testing

@Suite struct LinearAnimationInstanceTests {
    /// One second at 10 fps, keying nothing.
    static func animation(_ loop: LinearAnimation.Loop, speed: Float = 1) -> LinearAnimation {
        LinearAnimation(name: "a", fps: 10, duration: 10, speed: speed, loop: loop)
    }

    static func near(_ a: Float, _ b: Float) -> Bool { abs(a - b) < 1e-5 }

    @Test func oneShotStopsAtTheEndAndSpillsTheRest() {
        var player = LinearAnimationInstance(Self.animation(.oneShot))
        #expect(player.advance(by: 0.4).keepGoing)
        #expect(Self.near(player.time, 0.4))
        #expect(!player.didLoop)
        #expect(!player.advance(by: 0.8).keepGoing)
        #expect(player.time == 1)
        #expect(player.didLoop)
        #expect(Self.near(player.spilledTime, 0.2))
        #expect(!player.advance(by: 0.1).keepGoing)
        #expect(player.time == 1)
        #expect(player.spilledTime == 0)
        #expect(Self.near(player.totalTime, 1.3))
    }

    @Test func zeroElapsedDoesNotKeepGoing() {
        var player = LinearAnimationInstance(Self.animation(.loop))
        #expect(!player.advance(by: 0).keepGoing)
        #expect(player.time == 0)
    }

    @Test func loopWrapsToTheStart() {
        var player = LinearAnimationInstance(Self.animation(.loop))
        #expect(player.advance(by: 1.3).keepGoing)
        #expect(Self.near(player.time, 0.3))
        #expect(player.didLoop)
        #expect(Self.near(player.spilledTime, 0.3))
        _ = player.advance(by: 0.2)
        #expect(!player.didLoop)
    }

    @Test func pingPongBouncesAtBothEnds() {
        var player = LinearAnimationInstance(Self.animation(.pingPong))
        _ = player.advance(by: 1.3)
        #expect(Self.near(player.time, 0.7))
        #expect(player.direction == -1)
        #expect(player.didLoop)
        _ = player.advance(by: 0.5)
        #expect(Self.near(player.time, 0.2))
        #expect(!player.didLoop)
        _ = player.advance(by: 0.4)
        #expect(Self.near(player.time, 0.2))
        #expect(player.direction == 1)
        // Several bounces in one step.
        var long = LinearAnimationInstance(Self.animation(.pingPong))
        _ = long.advance(by: 3.25)
        #expect(Self.near(long.time, 0.75))
        #expect(long.direction == -1)
    }

    @Test func negativeSpeedPlaysFromTheEnd() {
        var player = LinearAnimationInstance(Self.animation(.oneShot, speed: -1))
        #expect(player.time == 1)
        #expect(player.advance(by: 0.3).keepGoing)
        #expect(Self.near(player.time, 0.7))
        #expect(!player.advance(by: 1).keepGoing)
        #expect(player.time == 0)
        #expect(Self.near(player.spilledTime, 0.3))
    }

    @Test func workAreaBoundsPlayback() {
        var animation = Self.animation(.loop)
        animation.enableWorkArea = true
        animation.workStart = 2
        animation.workEnd = 6
        #expect(Self.near(animation.durationSeconds, 0.4))
        var player = LinearAnimationInstance(animation)
        #expect(Self.near(player.time, 0.2))
        _ = player.advance(by: 0.5)
        #expect(Self.near(player.time, 0.3))
    }

    @Test func speedScalesTime() {
        var player = LinearAnimationInstance(Self.animation(.oneShot, speed: 2))
        _ = player.advance(by: 0.2)
        #expect(Self.near(player.time, 0.4))
    }

    @Test func globalToLocalFollowsTheLoopMode() {
        #expect(Self.near(Self.animation(.oneShot).globalToLocalSeconds(0.4), 0.4))
        #expect(Self.near(Self.animation(.loop).globalToLocalSeconds(2.4), 0.4))
        #expect(Self.near(Self.animation(.loop).globalToLocalSeconds(-0.25), 0.75))
        #expect(Self.near(Self.animation(.pingPong).globalToLocalSeconds(1.25), 0.75))
    }

    @Test func setTimeKeepsTotalsInStep() {
        var player = LinearAnimationInstance(Self.animation(.oneShot))
        _ = player.advance(by: 0.3)
        player.setTime(0.5)
        #expect(player.time == 0.5)
        #expect(Self.near(player.totalTime - player.lastTotalTime, 0.3))
        player.reset()
        #expect(player.time == 0)
    }

    @Test func applyWritesTheCurrentTime() {
        let animation = KeyFrameTests.animation([KeyFrameTests.frame(0, .double(0)), KeyFrameTests.frame(10, .double(10))])
        var player = LinearAnimationInstance(animation)
        _ = player.advance(by: 0.5)
        var store = ComponentPropertyTable()
        player.apply(to: &store)
        guard case .double(let value) = store[1, 13] else {
            Issue.record("no number written: \(store.values)")
            return
        }
        #expect(Self.near(value, 5))
    }
}
