import RiveSyncModel
import Testing

@Suite struct BlendStateInstanceTests {
    /// A loop keying component 1's x (key 13) to `value` and its fill color (key 37) to `color`,
    /// with an event (component 2) at frame 5.
    static func animation(_ value: Float, color: UInt32, keyColor: Bool = true) -> LinearAnimation {
        var properties = [
            KeyedProperty(propertyKey: 13, keyFrames: [KeyFrame(frame: 0, seconds: 0, value: .double(value))])
        ]
        if keyColor {
            properties.append(KeyedProperty(propertyKey: 37, keyFrames: [KeyFrame(frame: 0, seconds: 0, value: .color(color))]))
        }
        return LinearAnimation(
            name: "\(value)", fps: 10, duration: 10, loop: .loop,
            keyedObjects: [
                KeyedObject(objectId: 1, keyedProperties: properties),
                KeyedObject(
                    objectId: 2,
                    keyedProperties: [
                        KeyedProperty(
                            propertyKey: KeyedCallback.eventTriggerPropertyKey,
                            keyFrames: [KeyFrame(frame: 5, seconds: 0.5, value: .callback)])
                    ]),
            ])
    }

    static let x = AnimatedProperty(component: 1, property: 13)
    static let fill = AnimatedProperty(component: 1, property: 37)

    @Test func mixesApplyInOrderOverTheCurrentValues() {
        var blend = BlendStateInstance(animations: [Self.animation(0, color: 0xFF00_0000), Self.animation(100, color: 0xFFFF_FFFF)])
        blend.mixes = [0.5, 0.5]
        var store = ComponentPropertyTable([Self.x: .double(40)])
        blend.apply(to: &store)
        // 40 → 40·0.5 + 0·0.5 = 20 → 20·0.5 + 100·0.5 = 60.
        #expect(store.values[Self.x] == .double(60))
        var half = ComponentPropertyTable([Self.x: .double(40)])
        blend.apply(to: &half, mix: 0.5)
        // 40·0.75 + 0 = 30 → 30·0.75 + 100·0.25 = 47.5.
        #expect(half.values[Self.x] == .double(47.5))
    }

    @Test func aZeroMixLeavesTheValueAlone() {
        var blend = BlendStateInstance(animations: [Self.animation(0, color: 0), Self.animation(100, color: 0)])
        blend.mixes = [0, 1]
        var store = ComponentPropertyTable()
        blend.apply(to: &store)
        #expect(store.values[Self.x] == .double(100))
        blend.mixes = [0, 0]
        var untouched = ComponentPropertyTable([Self.x: .double(7)])
        blend.apply(to: &untouched)
        #expect(untouched.values == [Self.x: .double(7)])
    }

    @Test func resetStartsFromTheFirstAnimationsKeyFrames() {
        let animations = [Self.animation(10, color: 0xFF12_3456), Self.animation(30, color: 0xFF00_0000)]
        let before = ComponentPropertyTable([Self.x: .double(99), Self.fill: .color(0xFFFF_FFFF)])
        let reset = BlendStateInstance.reset(for: animations, store: before)
        // The color went through a Float, as in Rive's reset buffer.
        #expect(reset.values.map(\.value) == [.double(10), .color(0xFF12_3400)])
        var blend = BlendStateInstance(animations: animations, reset: reset)
        blend.mixes = [0, 0.5]
        var store = before
        blend.apply(to: &store)
        #expect(store.values[Self.x] == .double(20))
    }

    @Test func resetValuesPropertiesTheFirstAnimationDoesNotKeyFromTheStore() {
        let animations = [Self.animation(10, color: 0, keyColor: false), Self.animation(30, color: 0xFF00_0000)]
        let store = ComponentPropertyTable([Self.x: .double(99), Self.fill: .color(0xFF00_00FF)])
        let reset = AnimationReset(animations: animations, store: store, useFirstAsBaseline: true)
        #expect(reset.values.map(\.property) == [Self.x, Self.fill])
        #expect(reset.values.map(\.value) == [.double(10), .color(0xFF00_0100)])
        let fromStore = AnimationReset(animations: animations, store: store, useFirstAsBaseline: false)
        #expect(fromStore.values.map(\.value) == [.double(99), .color(0xFF00_0100)])
    }

    @Test func everyPlayerAdvancesAndReportsItsEvents() {
        var blend = BlendStateInstance(animations: [Self.animation(0, color: 0), nil, Self.animation(1, color: 0)])
        #expect(blend.players.count == 3)
        #expect(blend.advance(by: 0.4).isEmpty)
        let callbacks = blend.advance(by: 0.2)
        #expect(callbacks.map(\.objectId) == [2, 2])
        #expect(blend.players.map(\.time) == [blend.players[0].time, 0.6, blend.players[0].time])
    }
}
