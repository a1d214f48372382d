import RiveSyncModel
import Testing

/// How animations are read from an artboard's objects, on a hand-made stream.
@Suite struct AnimationReaderTests {
    static func object(_ typeKey: Int, _ properties: [Int: RiveFieldValue] = [:]) -> RiveObject {
        RiveObject(typeKey: typeKey, properties: properties)
    }

    static let objects: [RiveObject] = [
        object(1, [4: .bytes(Array("main".utf8))]),  // Artboard: component 0
        object(2),  // Node: 1
        object(9999),  // a type Rive does not know: an empty slot, 2
        object(28, [63: .float(0), 65: .float(1)]),  // CubicEaseInterpolator: 3
        object(31, [55: .bytes(Array("a".utf8)), 56: .uint(10), 57: .uint(20), 59: .uint(2), 58: .float(-1)]),
        object(25, [51: .uint(1)]),
        object(26, [53: .uint(13)]),
        object(30, [67: .uint(5), 70: .float(3), 68: .uint(2), 69: .uint(3)]),
        object(26, [53: .uint(37)]),  // colorValue: a Node has none
        object(37, [67: .uint(0), 88: .color(0xFF00_0000)]),
        object(26, [53: .uint(14)]),  // no keyframes
        object(25, [51: .uint(2)]),  // the empty slot
        object(26, [53: .uint(13)]),
        object(30, [67: .uint(0)]),
        object(9999),  // after a keyed property: no slot
        object(31, [55: .bytes(Array("b".utf8))]),
        object(25, [51: .uint(1)]),
        object(26, [53: .uint(14)]),
        object(30, [67: .uint(0), 69: .uint(1)]),  // names the Node, which is no interpolator
        object(25, [51: .uint(3)]),
        object(26, [53: .uint(63)]),  // keying the interpolator's x1
        object(30, [67: .uint(0), 70: .float(0.5)]),
        object(1, [4: .bytes(Array("next".utf8))]),
        object(31, [55: .bytes(Array("other".utf8))]),
    ]

    @Test func componentIdsAndArtboardBounds() {
        let artboards = ArtboardObjects.artboards(in: RiveGraph(objects: Self.objects))
        #expect(artboards.map(\.name) == ["main", "next"])
        let main = artboards[0]
        #expect(main.components == [0, 1, nil, 3])
        #expect(main.component(3)?.typeKey == 28)
        #expect(main.component(2) == nil)
        #expect(main.objects.endIndex == 22)
    }

    @Test func animationsKeepWhatRiveKeeps() throws {
        let artboards = ArtboardObjects.artboards(in: RiveGraph(objects: Self.objects))
        let animations = LinearAnimation.animations(in: artboards[0])
        #expect(animations.map(\.name) == ["a", "b"])
        let a = try #require(animations.first)
        #expect(a.fps == 10 && a.duration == 20 && a.loop == .pingPong && a.speed == -1)
        #expect(a.keyedObjects.map(\.objectId) == [1])
        let x = try #require(a.keyedObjects.first?.keyedProperties.first)
        #expect(a.keyedObjects.first?.keyedProperties.count == 1)
        #expect(x.propertyKey == 13)
        #expect(
            x.keyFrames == [
                KeyFrame(
                    frame: 5, seconds: 0.5, value: .double(3), interpolation: .cubic,
                    interpolator: .cubicEase(CubicEaseInterpolator(x1: 0, y1: 0, x2: 1, y2: 1)))
            ])
        let b = try #require(animations.last)
        #expect(b.keyedObjects.map(\.objectId) == [3])
        #expect(LinearAnimation.animations(in: artboards[1]).map(\.name) == ["other"])
    }
}
