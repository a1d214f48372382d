import RiveSyncCore
import Testing

/// The shell's own timers: which wake-ups it asks the clock for, and what each hands out.
@Suite struct TimerScheduleTests {
    @Test func onlyATimerBeforeEveryWakeUpAskedForAsksForOne() {
        var timers = TimerSchedule<String>()
        #expect(timers.add("a", at: 100) == 100)
        #expect(timers.add("b", at: 150) == nil)
        #expect(timers.add("c", at: 100) == nil)
        #expect(timers.add("d", at: 50) == 50)
        #expect(timers.count == 4)
    }

    @Test func aWakeUpHandsOutEveryDueTimerByDeadlineThenOrderSet() {
        var timers = TimerSchedule<String>()
        _ = timers.add("late", at: 300)
        _ = timers.add("first", at: 100)
        _ = timers.add("second", at: 200)
        _ = timers.add("first too", at: 100)
        let woken = timers.wakeUp(for: 100, now: 250)
        #expect(woken.due == ["first", "first too", "second"])
        #expect(woken.next == 300)
        #expect(timers.wakeUp(for: 300, now: 300).due == ["late"])
        #expect(timers.count == 0)
    }

    @Test func aTimerNotYetDueWaitsForTheNextWakeUp() {
        var timers = TimerSchedule<Int>()
        _ = timers.add(1, at: 100)
        _ = timers.add(2, at: 120)
        let woken = timers.wakeUp(for: 100, now: 100)
        #expect(woken.due == [1])
        #expect(woken.next == 120)
        // A timer set after the next wake-up was asked for rides on it.
        #expect(timers.add(3, at: 130) == nil)
        #expect(timers.wakeUp(for: 120, now: 140).due == [2, 3])
    }

    @Test func anOutdatedWakeUpAsksForNoOtherAndLosesNoTimer() {
        var timers = TimerSchedule<Int>()
        _ = timers.add(1, at: 200)  // wake-up asked for 200
        _ = timers.add(2, at: 100)  // and one for 100
        let early = timers.wakeUp(for: 100, now: 100)
        #expect(early.due == [2])
        #expect(early.next == 200)  // asked for again: the first one may come late
        _ = timers.add(3, at: 300)
        let first = timers.wakeUp(for: 200, now: 200)
        #expect(first.due == [1])
        #expect(first.next == 300)
        // The second wake-up for 200 finds nothing due and asks for nothing more.
        let second = timers.wakeUp(for: 200, now: 201)
        #expect(second.due.isEmpty)
        #expect(second.next == nil)
        #expect(timers.wakeUp(for: 300, now: 300).due == [3])
    }

    @Test func manyTimersComeOutSorted() {
        var timers = TimerSchedule<UInt64>()
        var deadlines: [UInt64] = []
        var seed: UInt64 = 12_345
        for _ in 0..<500 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let at = 1_000 + (seed >> 33) % 10_000
            deadlines.append(at)
            _ = timers.add(at, at: at)
        }
        let woken = timers.wakeUp(for: 0, now: 20_000)
        #expect(woken.due == deadlines.sorted())
        #expect(woken.next == nil)
    }
}
