import RiveSyncModel
import Testing

@Suite struct KeyFrameTests {
    /// An animation keying property `property` of component 1 with `frames`, at 10 fps.
    static func animation(_ frames: [KeyFrame], property: Int = 13, duration: UInt32 = 10) -> LinearAnimation {
        LinearAnimation(
            name: "a", fps: 10, duration: duration,
            keyedObjects: [
                KeyedObject(objectId: 1, keyedProperties: [KeyedProperty(propertyKey: property, keyFrames: frames)])
            ])
    }

    static func frame(
        _ frame: UInt32, _ value: KeyFrame.Value, _ interpolation: KeyFrame.Interpolation = .linear,
        _ interpolator: KeyFrameInterpolator? = nil
    ) -> KeyFrame {
        KeyFrame(frame: frame, seconds: Float(frame) / 10, value: value, interpolation: interpolation, interpolator: interpolator)
    }

    static func value(
        _ animation: LinearAnimation, at time: Float, mix: Float = 1, property: Int = 13,
        start: ComponentPropertyTable = ComponentPropertyTable()
    ) -> AnimatedValue? {
        var store = start
        animation.apply(to: &store, time: time, mix: mix)
        return store[1, property]
    }

    /// The number at `time`, or NaN when the store holds no number.
    static func number(_ animation: LinearAnimation, at time: Float) -> Float {
        guard case .double(let number) = value(animation, at: time) else { return .nan }
        return number
    }

    @Test func linearNumbersBeforeBetweenOnAndAfterKeyFrames() {
        let animation = Self.animation([Self.frame(2, .double(10)), Self.frame(6, .double(30))])
        #expect(Self.value(animation, at: 0) == .double(10))
        #expect(Self.value(animation, at: 0.2) == .double(10))
        #expect(abs(Self.number(animation, at: 0.3) - 15) < 1e-4)
        #expect(Self.value(animation, at: 0.6) == .double(30))
        #expect(Self.value(animation, at: 1) == .double(30))
    }

    @Test func holdKeepsTheValueUntilTheNextKeyFrame() {
        let animation = Self.animation([Self.frame(0, .double(1), .hold), Self.frame(5, .double(9))])
        #expect(Self.value(animation, at: 0.49) == .double(1))
        #expect(Self.value(animation, at: 0.5) == .double(9))
    }

    @Test func cubicUsesTheInterpolator() {
        let ease = CubicEaseInterpolator(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)
        let animation = Self.animation([
            Self.frame(0, .double(0), .cubic, .cubicEase(ease)), Self.frame(10, .double(100)),
        ])
        #expect(abs(Self.number(animation, at: 0.5) - 80.2403) < 1e-2)
    }

    @Test func mixingLerpsFromTheCurrentValue() {
        let animation = Self.animation([Self.frame(0, .double(100))])
        let start = ComponentPropertyTable([AnimatedProperty(component: 1, property: 13): .double(20)])
        #expect(Self.value(animation, at: 0, mix: 0.25, start: start) == .double(40))
        // Nothing stored: mixing starts from zero.
        #expect(Self.value(animation, at: 0, mix: 0.5) == .double(50))
    }

    @Test func colorsInterpolateAndMixPerChannel() {
        let animation = Self.animation([Self.frame(0, .color(0xFF00_0000)), Self.frame(10, .color(0x80FF_8040))], property: 37)
        // Half way: each channel lerped and rounded half away from zero.
        #expect(Self.value(animation, at: 0.5, property: 37) == .color(0xC080_4020))
        let start = ComponentPropertyTable([AnimatedProperty(component: 1, property: 37): .color(0x0000_00FF)])
        #expect(Self.value(animation, at: 1, mix: 0.5, property: 37, start: start) == .color(0x4080_40A0))
    }

    @Test func discreteKindsIgnoreMixAndInterpolation() {
        let bools = Self.animation([Self.frame(0, .bool(true)), Self.frame(10, .bool(false))], property: 41)
        #expect(Self.value(bools, at: 0.9, mix: 0.1, property: 41) == .bool(true))
        #expect(Self.value(bools, at: 1, mix: 0.1, property: 41) == .bool(false))
        let strings = Self.animation([Self.frame(0, .string("a")), Self.frame(4, .string("b"))], property: 268)
        #expect(Self.value(strings, at: 0.3, property: 268) == .string("a"))
        #expect(Self.value(strings, at: 0.4, property: 268) == .string("b"))
        let ids = Self.animation([Self.frame(0, .id(3)), Self.frame(4, .id(5))], property: 92)
        #expect(Self.value(ids, at: 0.2, mix: 0.5, property: 92) == .uint(3))
        let ints = Self.animation([Self.frame(0, .int(-3)), Self.frame(4, .int(5))], property: 92)
        #expect(Self.value(ints, at: 0.2, property: 92) == .int(-3))
        let uints = Self.animation([Self.frame(0, .uint(0)), Self.frame(4, .uint(8))], property: 92)
        #expect(Self.value(uints, at: 0.2, property: 92) == .uint(0))
    }

    @Test func colorChannelUintsInterpolateAndRound() {
        let red = Self.animation([Self.frame(0, .uint(0)), Self.frame(4, .uint(5))], property: 118)
        #expect(Self.value(red, at: 0.2, property: 118) == .uint(3))
        let start = ComponentPropertyTable([AnimatedProperty(component: 1, property: 118): .uint(10)])
        #expect(Self.value(red, at: 0.4, mix: 0.5, property: 118, start: start) == .uint(8))
    }

    @Test func quantizeSnapsDownToWholeFrames() {
        var animation = Self.animation([Self.frame(0, .double(0)), Self.frame(10, .double(10))])
        animation.quantize = true
        #expect(abs(Self.number(animation, at: 0.37) - 3) < 1e-4)
    }

    @Test func callbackPropertiesSetNothing() {
        let animation = Self.animation([Self.frame(3, .callback)], property: KeyedCallback.eventTriggerPropertyKey)
        #expect(Self.value(animation, at: 0.5, property: KeyedCallback.eventTriggerPropertyKey) == nil)
    }

    @Test func keyFrameValuesReadFromObjects() {
        #expect(KeyFrame.value(of: RiveObject(typeKey: 30, properties: [70: .float(2.5)])) == .double(2.5))
        #expect(KeyFrame.value(of: RiveObject(typeKey: 37, properties: [88: .color(0xFF11_2233)])) == .color(0xFF11_2233))
        #expect(KeyFrame.value(of: RiveObject(typeKey: 84, properties: [181: .uint(1)])) == .bool(true))
        #expect(KeyFrame.value(of: RiveObject(typeKey: 1067, properties: [1068: .uint(5)])) == .int(-3))
        #expect(KeyFrame.value(of: RiveObject(typeKey: 142, properties: [280: .bytes(Array("hé".utf8))])) == .string("hé"))
        #expect(KeyFrame.value(of: RiveObject(typeKey: 171)) == .callback)
        #expect(KeyFrame.value(of: RiveObject(typeKey: 31)) == nil)
    }
}
