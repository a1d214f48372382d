import RiveSyncModel
import Testing

/// The time-based interpolator converter, against what Rive's runtime recorded.
@Suite struct InterpolatorConverterTests {
    /// `interpolate_to_end.jsonl`: num = 1000 through the group interpolator → to-string.
    /// Each `advanceAndApply` (by the step's seconds) advances the bind's converter, then
    /// converts the source again
    /// (Rive's order for artboard binds). The text after every advance must be the trace's,
    /// and while it advances until settled, so must whether the advance kept going (earlier,
    /// the client's write alone keeps Rive going).
    @Test func interpolateToEndMatchesTheTrace() throws {
        let states = try ConverterFixtures.traceStates("interpolate_to_end")
        #expect(states.count == 7)
        var group = try ConverterFixtures.converters("interpolate_to_end").named("Converter Group 1")
        for state in states {
            let time = try #require(state["time"] as? Double)
            let after = try #require(state["after"] as? [String: Any])
            let seconds = try #require((after["advance"] ?? after["init"]) as? Double)
            let vm = try #require(state["vm"] as? [String: Any])
            let number = try #require(vm["num"] as? Double)
            let binds = try #require(state["binds"] as? [[String: Any]])
            let text = try #require(binds.first?["value"] as? String)
            let keepGoing = try #require(state["keepGoing"] as? Bool)
            let advance = group.advance(Float(seconds))
            #expect(group.convert(.number(Float(number))) == .string(text), "at \(time)")
            if after["until"] != nil {
                #expect((advance.isRunning || advance.needsUpdate) == keepGoing, "at \(time)")
            }
        }
    }

    /// Linear from 0 to 100 over 1 s in quarter seconds, then settled.
    @Test func movesOverTheDurationThenSettles() {
        var converter = DataConverter(typeKey: 534, kind: .interpolator(DataConverterInterpolator(duration: 1)))
        #expect(converter.advance(0.1) == DataConverterAdvance(isRunning: true, needsUpdate: false))
        #expect(converter.convert(.number(0)) == .number(0))
        _ = converter.advance(0.1)
        #expect(converter.convert(.number(100)) == .number(0))
        var values: [PropertyValue] = []
        var advances: [DataConverterAdvance] = []
        for _ in 0..<5 {
            advances.append(converter.advance(0.25))
            values.append(converter.convert(.number(100)))
        }
        #expect(values == [.number(25), .number(50), .number(75), .number(100), .number(100)])
        #expect(advances.map(\.isRunning) == [true, true, true, false, false])
        #expect(advances.map(\.needsUpdate) == [true, true, true, true, false])
    }

    /// Until two advances with time have passed, a new value is taken at once.
    @Test func theFirstRunTakesValuesAtOnce() {
        var converter = DataConverter(typeKey: 534, kind: .interpolator(DataConverterInterpolator(duration: 1)))
        #expect(converter.convert(.number(5)) == .number(5))
        _ = converter.advance(0)
        #expect(converter.convert(.number(7)) == .number(7))
        _ = converter.advance(0.5)
        #expect(converter.convert(.number(9)) == .number(9))
        _ = converter.advance(0.5)
        #expect(converter.convert(.number(19)) == .number(9))
        _ = converter.advance(0.5)
        #expect(converter.convert(.number(19)) == .number(14))
        converter.reset()
        #expect(converter.convert(.number(-1)) == .number(-1))
    }

    /// A new target mid-way smooths from where the value is.
    @Test func aNewTargetMidWaySmooths() {
        var converter = DataConverter(typeKey: 534, kind: .interpolator(DataConverterInterpolator(duration: 1)))
        _ = converter.convert(.number(0))
        _ = converter.advance(0.5)
        _ = converter.advance(0.5)
        #expect(converter.convert(.number(100)) == .number(0))
        _ = converter.advance(0.5)
        #expect(converter.convert(.number(100)) == .number(50))
        // Retarget to 0: leg A keeps running toward 100 while leg B leaves from its position.
        #expect(converter.convert(.number(0)) == .number(50))
        _ = converter.advance(0.25)
        let smoothed = converter.convert(.number(0))
        // Leg B starts from leg A at 0.5 s (50) and moves a quarter of the way to 0: 37.5.
        #expect(smoothed == .number(37.5))
        for _ in 0..<4 { _ = converter.advance(0.25) }
        #expect(converter.convert(.number(0)) == .number(0))
        #expect(converter.advance(0.25) == .idle)
    }

    /// Colors mix channel by channel; other values pass through.
    @Test func colorsMixPerChannelAndOtherValuesPassThrough() {
        var converter = DataConverter(typeKey: 534, kind: .interpolator(DataConverterInterpolator(duration: 1)))
        #expect(converter.convert(.string("a")) == .string("a"))
        #expect(converter.advance(0.5) == DataConverterAdvance(isRunning: true, needsUpdate: false))
        #expect(converter.convert(.color(0xFF00_0000)) == .color(0xFF00_0000))
        _ = converter.advance(0.5)
        _ = converter.convert(.color(0x00FF_80FF))
        _ = converter.advance(0.5)
        #expect(converter.convert(.color(0x00FF_80FF)) == .color(0x8080_4080))
        // A number into a color interpolation leaves the color where it is.
        #expect(converter.convert(.number(3)) == .color(0x8080_4080))
    }

    /// A zero duration jumps straight to the value once running.
    @Test func zeroDurationJumps() {
        var converter = DataConverter(typeKey: 534, kind: .interpolator(DataConverterInterpolator(duration: 0)))
        _ = converter.convert(.number(1))
        _ = converter.advance(0.5)
        _ = converter.advance(0.5)
        #expect(converter.convert(.number(40)) == .number(40))
        #expect(converter.advance(0.5) == .idle)
        // A bound duration dropping to 0 mid-way stops the interpolation where the input is.
        var running = DataConverter(typeKey: 534, kind: .interpolator(DataConverterInterpolator(duration: 1)))
        _ = running.convert(.number(0))
        _ = running.advance(0.5)
        _ = running.advance(0.5)
        _ = running.convert(.number(10))
        _ = running.advance(0.5)
        #expect(running.convert(.number(10)) == .number(5))
        running.setProperty(756, to: .number(0))
        #expect(running.convert(.string("x")) == .string("x"))
        #expect(running.convert(.number(10)) == .number(10))
        #expect(running.advance(0.5) == .idle)
    }

    /// An eased interpolator follows its curve (cubic ease at half time is 0.5 by symmetry,
    /// at a quarter it is Rive's 0.12916).
    @Test func easedInterpolation() throws {
        let ease = KeyFrameInterpolator.cubicEase(CubicEaseInterpolator())
        var converter = DataConverter(
            typeKey: 534, kind: .interpolator(DataConverterInterpolator(duration: 1, interpolationType: 2, interpolator: ease)))
        _ = converter.convert(.number(0))
        _ = converter.advance(0.1)
        _ = converter.advance(0.1)
        _ = converter.convert(.number(1))
        _ = converter.advance(0.25)
        guard case .number(let quarter) = converter.convert(.number(1)) else {
            Issue.record("not a number")
            return
        }
        #expect(abs(quarter - 0.12916) < 1e-4)
        _ = converter.advance(0.25)
        guard case .number(let half) = converter.convert(.number(1)) else {
            Issue.record("not a number")
            return
        }
        #expect(abs(half - 0.5) < 1e-4)
    }
}
