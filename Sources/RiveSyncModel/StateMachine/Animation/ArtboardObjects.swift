/// One artboard's run of the `.riv` object stream — the `Artboard` object and everything after
/// it up to the next artboard — with the artboard's component index space: Rive's importer
/// gives every component (and every keyframe interpolator, user input, and object of a type it
/// does not know, until the artboard's first keyed property, state machine or layer) the next
/// id, the artboard itself being 0. Keyed objects, keyframe interpolators and other in-artboard
/// references use those ids.
public struct ArtboardObjects: Sendable, Hashable {
    /// The artboard's objects, indexed as in the whole graph; the first is the `Artboard`.
    public let objects: ArraySlice<RiveObject>
    /// For each component id, the graph index of its object, or nil for a slot Rive fills
    /// with nothing (an object of a type it does not know).
    public let components: [Int?]

    private static let artboardTypeKey = 1
    private static let componentTypeKey = 10
    private static let keyFrameInterpolatorTypeKey = 175
    private static let userInputTypeKeys: Set<Int> = [664, 670, 974]
    /// KeyedProperty, StateMachine, StateMachineLayer: once one is read, Rive's importer
    /// stops giving unknown objects an artboard slot.
    private static let nullAbsorberTypeKeys: Set<Int> = [26, 53, 57]

    /// The run starting at `objects.startIndex`, which must be an `Artboard`; it ends before
    /// the next `Artboard` or at the end of `objects`.
    public init(_ objects: ArraySlice<RiveObject>) {
        var end = objects.endIndex
        if let first = objects.indices.first {
            end = objects[(first + 1)...].firstIndex { $0.typeKey == Self.artboardTypeKey } ?? objects.endIndex
        }
        let run = objects[objects.startIndex..<end]
        var components: [Int?] = []
        var nullsAbsorbed = false
        for index in run.indices {
            let typeKey = run[index].typeKey
            if Self.nullAbsorberTypeKeys.contains(typeKey) { nullsAbsorbed = true }
            if RiveDefinitions.type(typeKey) == nil {
                if !nullsAbsorbed { components.append(nil) }
            } else if RiveDefinitions.type(typeKey, isA: Self.componentTypeKey)
                || RiveDefinitions.type(typeKey, isA: Self.keyFrameInterpolatorTypeKey)
                || Self.userInputTypeKeys.contains(typeKey)
            {
                components.append(index)
            }
        }
        self.objects = run
        self.components = components
    }

    /// Every artboard of a graph, in file order (artboard index 0 is the default).
    public static func artboards(in graph: RiveGraph) -> [ArtboardObjects] {
        graph.objects.indices.filter { graph.objects[$0].typeKey == artboardTypeKey }.map {
            ArtboardObjects(graph.objects[$0...])
        }
    }

    /// The artboard's name (key 4).
    public var name: String { objects.first?.string(4) ?? "" }

    /// The object with component id `id`, if there is one.
    public func component(_ id: UInt32) -> RiveObject? {
        guard Int(id) < components.count, let index = components[Int(id)] else { return nil }
        return objects[index]
    }
}
