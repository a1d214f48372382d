import Foundation
import RiveSyncModel
import Testing

/// Animation values against what Rive's own runtime computed (`../shared/fixtures/sm-traces/`).
@Suite struct AnimationTraceTests {
    static let traces: URL = AnimationFixtures.directory.deletingLastPathComponent().appendingPathComponent("sm-traces")

    struct BadTrace: Error, CustomStringConvertible {
        var description: String
    }

    /// The trace's lines as JSON objects.
    static func lines(_ name: String) throws -> [[String: Any]] {
        let url = traces.appendingPathComponent(name + ".jsonl")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw AnimationFixtures.Missing(description: "trace \(url.path) is missing (the ../shared checkout is absent)")
        }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw BadTrace(description: "\(name): a line is not an object")
            }
            return object
        }
    }

    /// `saturation.riv`'s timeline keys two custom colors, one through an elastic interpolator;
    /// the trace records both (as the targets of two-way binds) after every advance. The
    /// timeline plays from the state machine's first advance on, one step per advance.
    @Test func saturationColorsMatchRivesRuntime() throws {
        let lines = try Self.lines("saturation")
        guard lines.count > 3, let script = lines.first, let steps = script["steps"] as? [[String: Any]] else {
            throw BadTrace(description: "saturation: no script")
        }
        var elapsed: [Float] = ((script["advanceBeforeBind"] as? [Double]) ?? []).map(Float.init)
        elapsed.append(Float((script["initialAdvance"] as? Double) ?? 0))
        elapsed += steps.compactMap { ($0["advance"] as? Double).map(Float.init) }
        let states = lines.filter { ($0["kind"] as? String) == "state" }
        let expected: [[String]] = try states.map { state in
            guard let binds = state["binds"] as? [[String: Any]] else { throw BadTrace(description: "a state has no binds") }
            return binds.filter { ($0["prop"] as? String) == "CustomPropertyColor.propertyValue" }
                .compactMap { $0["value"] as? String }.sorted()
        }
        // One state per advance after binding (the advance before binding records none).
        let advancesBeforeBind = elapsed.count - states.count
        #expect(advancesBeforeBind == 1)

        let artboards = try AnimationFixtures.artboards("saturation")
        let timeline = try #require(artboards.first?.animations.first)
        #expect(timeline.name == "Timeline 1")
        #expect(timeline.keyedObjects.map(\.objectId).sorted() == [21, 22])
        var player = LinearAnimationInstance(timeline)
        var computed: [[String]] = []
        for (index, step) in elapsed.enumerated() {
            _ = player.advance(by: step)
            guard index >= advancesBeforeBind else { continue }
            var store = ComponentPropertyTable()
            player.apply(to: &store)
            computed.append(
                store.values.values.compactMap { value -> String? in
                    guard case .color(let color) = value else { return nil }
                    return "#" + String(color, radix: 16, uppercase: true)
                }.sorted())
        }
        #expect(computed.count == 12)
        #expect(computed == expected)
    }

    /// Every fixture's animations keep every keyed object the file has, and every keyframe
    /// interpolator reference resolves, as Rive's importer resolves them.
    @Test func everyFixtureReadsWhole() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: AnimationFixtures.directory.path)
            .filter { $0.hasSuffix(".riv") }.sorted()
        #expect(names.count >= 30)
        var keyedObjects = 0
        var interpolated = 0
        for file in names {
            for (artboard, animations) in try AnimationFixtures.artboards(String(file.dropLast(4))) {
                let stored = artboard.objects.filter { $0.typeKey == 25 }.count
                let kept = animations.map(\.keyedObjects.count).reduce(0, +)
                #expect(kept == stored, "\(file) \(artboard.name)")
                let referencing = artboard.objects.filter { KeyFrame.value(of: $0) != nil && $0.uint(69) != nil }.count
                let resolved = animations.flatMap(\.keyedObjects).flatMap(\.keyedProperties).flatMap(\.keyFrames)
                    .filter { $0.interpolator != nil }.count
                #expect(resolved == referencing, "\(file) \(artboard.name)")
                keyedObjects += kept
                interpolated += resolved
            }
        }
        #expect(keyedObjects == 256)
        #expect(interpolated == 28)
    }
}
