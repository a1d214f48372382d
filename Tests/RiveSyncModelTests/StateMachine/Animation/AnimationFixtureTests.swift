import RiveSyncModel
import Testing

/// Animations read from Rive's own test files (`../shared/fixtures/riv/`).
@Suite struct AnimationFixtureTests {
    static func summary(_ animations: [LinearAnimation]) -> [String] {
        animations.map { "\($0.name) \($0.fps)fps \($0.duration)f \($0.speed)x \($0.loop)" }
    }

    @Test func triggersFileHasColorTimelinesAndAKeyedEvent() throws {
        let artboards = try AnimationFixtures.artboards("data_binding_test_triggers")
        #expect(artboards.map(\.artboard.name) == ["root", "child"])
        let (root, rootAnimations) = artboards[0]
        #expect(Self.summary(rootAnimations) == ["green 60fps 60f 1.0x oneShot", "red 60fps 60f 1.0x oneShot"])
        let green = try #require(rootAnimations.first)
        #expect(green.keyedObjects.map(\.objectId) == [5])
        #expect(root.component(5)?.typeKey == 18)  // SolidColor
        var store = ComponentPropertyTable()
        LinearAnimationInstance(green).apply(to: &store)
        #expect(store.values == [AnimatedProperty(component: 5, property: 37): .color(0xFF00_FF00)])

        let (child, childAnimations) = artboards[1]
        #expect(Self.summary(childAnimations) == ["Timeline 1 60fps 60f 1.0x oneShot"])
        let timeline = try #require(childAnimations.first)
        let keyed = try #require(timeline.keyedObjects.first)
        #expect(child.component(keyed.objectId)?.typeKey == 128)  // Event
        #expect(keyed.keyedProperties.map(\.propertyKey) == [KeyedCallback.eventTriggerPropertyKey])
        #expect(keyed.keyedProperties.first?.keyFrames.map(\.seconds) == [0.5])
    }

    @Test func theTimelineEventFiresOnceWhenPlaybackCrossesIt() throws {
        let artboards = try AnimationFixtures.artboards("data_binding_test_triggers")
        let timeline = try #require(artboards.last?.animations.first)
        var player = LinearAnimationInstance(timeline)
        #expect(player.advance(by: 0.4).callbacks.isEmpty)
        let crossing = player.advance(by: 0.3)
        #expect(crossing.callbacks.map(\.objectId) == [1])
        let delay = try #require(crossing.callbacks.first?.delay)
        #expect(abs(delay - 0.2) < 1e-5)
        #expect(crossing.keepGoing)
        let end = player.advance(by: 1)
        #expect(end.callbacks.isEmpty)
        #expect(!end.keepGoing)
        #expect(player.advance(by: 1).callbacks.isEmpty)
    }

    @Test func blendModeFileHasDirectBlendsWithInputBoundAndFixedMixes() throws {
        let artboards = try AnimationFixtures.artboards("advance_blend_mode")
        #expect(artboards.map(\.artboard.name) == ["main-inputs", "main-vms", "child-vm", "child"])
        #expect(
            artboards.map { Self.summary($0.animations) } == [
                ["Timeline 1 60fps 60f 1.0x oneShot"], ["Timeline 1 60fps 60f 1.0x oneShot"],
                ["green 60fps 60f 1.0x oneShot", "red 60fps 60f 1.0x oneShot"],
                ["green 60fps 60f 1.0x oneShot", "red 60fps 60f 1.0x oneShot"],
            ])
        for (artboard, animations) in artboards[2...] {
            let states = artboard.objects.indices.filter { artboard.objects[$0].typeKey == 73 }
            #expect(states.count == 2)
            let blends = states.compactMap { BlendStateDirect(artboard, at: $0, animationCount: animations.count) }
            #expect(blends.map(\.animations.count) == [0, 2])
            let blend = try #require(blends.last)
            #expect(blend.animations.map(\.animationId) == [1, 0])
            #expect(blend.animations.last?.source == .mixValue(50))
            let first = try #require(blend.animations.first)
            switch first.source {
            case .input(let index):
                #expect(artboard.name == "child")
                #expect(index == 0)
                #expect(blend.mixes { _ in 25 } == [0.25, 0.5])
            case .bindableProperty(let index):
                #expect(artboard.name == "child-vm")
                let objectIndex = try #require(index)
                #expect(RiveDefinitions.type(artboard.objects[objectIndex].typeKey, isA: 9))
            case .mixValue:
                Issue.record("expected an input or bound source in \(artboard.name)")
            }
        }
    }

    @Test func interpolateToEndHasAOneFrameTimeline() throws {
        let artboards = try AnimationFixtures.artboards("interpolate_to_end")
        #expect(artboards.map(\.artboard.name) == ["main", "child"])
        #expect(
            artboards.map { Self.summary($0.animations) } == [
                ["Timeline 1 60fps 60f 1.0x oneShot"], ["Timeline 1 60fps 1f 1.0x oneShot"],
            ])
        let oneFrame = try #require(artboards.last?.animations.first)
        var player = LinearAnimationInstance(oneFrame)
        #expect(!player.advance(by: 0.25).keepGoing)
        #expect(player.time == Float(1) / 60)
    }

    @Test func componentIdsCountTheArtboardFirst() throws {
        let graph = try AnimationFixtures.graph("data_binding_test_triggers")
        let child = try #require(ArtboardObjects.artboards(in: graph).last)
        #expect(child.component(0)?.typeKey == 1)
        #expect(child.components.compactMap { $0.map { child.objects[$0].typeKey } } == [1, 128, 18, 420, 20])
        #expect(child.component(5) == nil)
    }
}
