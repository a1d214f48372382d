import RiveSyncModel
import Testing

@Suite struct BlendStateTests {
    static let state = BlendState1D(
        source: .input(0),
        animations: [
            .init(animationId: 0, value: 0), .init(animationId: 1, value: 50), .init(animationId: 2, value: 100),
        ])

    @Test func oneDimensionSharesBetweenNeighbours() {
        #expect(Self.state.mixes(for: 25) == [0.5, 0.5, 0])
        #expect(Self.state.mixes(for: 80) == [0, 0.39999998, 0.6])
        #expect(Self.state.mixes(for: 50) == [0, 1, 0])
        #expect(Self.state.mixes(for: 0) == [1, 0, 0])
    }

    @Test func oneDimensionBeyondTheEndsTakesTheNearest() {
        #expect(Self.state.mixes(for: -10) == [1, 0, 0])
        #expect(Self.state.mixes(for: 150) == [0, 0, 1])
        #expect(BlendState1D(source: .input(nil), animations: []).mixes(for: 3) == [])
    }

    @Test func oneDimensionWithEqualValuesGivesBothFullMix() {
        let state = BlendState1D(
            source: .bindableProperty(nil), animations: [.init(animationId: 0, value: 10), .init(animationId: 1, value: 10)])
        #expect(state.mixes(for: 10) == [1, 1])
    }

    @Test func directMixesAreClampedPercentages() {
        let state = BlendStateDirect(animations: [
            .init(animationId: 0, source: .mixValue(40)),
            .init(animationId: 1, source: .input(2)),
            .init(animationId: 2, source: .bindableProperty(7)),
            .init(animationId: 3, source: .input(3)),
        ])
        let mixes = state.mixes(previous: [0, 0, 0.3, 0]) { source in
            switch source {
            case .input(2): 150
            case .input(3): -5
            default: nil
            }
        }
        #expect(mixes == [0.4, 1, 0.3, 0])
        #expect(BlendStateDirect.mix(for: 25) == 0.25)
    }

    @Test func readFromObjects() throws {
        let objects: [RiveObject] = [
            RiveObject(typeKey: 1),
            RiveObject(typeKey: 473),  // BindablePropertyNumber
            RiveObject(typeKey: 528),  // BlendState1DViewModel
            RiveObject(typeKey: 75, properties: [165: .uint(1), 166: .float(20)]),
            RiveObject(typeKey: 75, properties: [165: .uint(9), 166: .float(40)]),
            RiveObject(typeKey: 73),  // BlendStateDirect
            RiveObject(typeKey: 77, properties: [165: .uint(0), 298: .uint(1), 297: .float(30)]),
            RiveObject(typeKey: 77, properties: [165: .uint(1), 168: .uint(2)]),
            RiveObject(typeKey: 76, properties: [167: .uint(4)]),  // BlendState1DInput
        ]
        let artboard = ArtboardObjects(objects[...])
        let viewModel = try #require(BlendState1D(artboard, at: 2, animationCount: 2))
        #expect(viewModel.source == .bindableProperty(1))
        #expect(viewModel.animations == [.init(animationId: 1, value: 20), .init(animationId: nil, value: 40)])
        let direct = try #require(BlendStateDirect(artboard, at: 5, animationCount: 2))
        #expect(direct.animations == [.init(animationId: 0, source: .mixValue(30)), .init(animationId: 1, source: .input(2))])
        let input = try #require(BlendState1D(artboard, at: 8, animationCount: 2))
        #expect(input.source == .input(4))
        #expect(input.animations.isEmpty)
        #expect(BlendState1D(artboard, at: 5, animationCount: 2) == nil)
    }
}
