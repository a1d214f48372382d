extension BlendState1D {
    /// The 1D blend state whose object is at graph index `index` of `artboard`, with the
    /// `BlendAnimation1D`s that follow it (up to the next layer state, layer or state
    /// machine); nil if that object is not a `BlendState1DInput` or `BlendState1DViewModel`.
    /// `animationCount` is the artboard's number of linear animations: an `animationId` past
    /// it names none, as in Rive.
    public init?(_ artboard: ArtboardObjects, at index: Int, animationCount: Int) {
        let state = artboard.objects[index]
        let source: Source
        switch state.typeKey {
        case 76: source = .input(state.uint(167).flatMap { $0 == UInt64(UInt32.max) ? nil : UInt32(truncatingIfNeeded: $0) })
        case 528: source = .bindableProperty(BlendGraph.latestBindableProperty(in: artboard, before: index))
        default: return nil
        }
        let animations = BlendGraph.blendAnimations(in: artboard, after: index, typeKey: 75).map { _, object in
            BlendAnimation(
                animationId: BlendGraph.animationId(object, animationCount: animationCount),
                value: object.float(166) ?? 0)
        }
        self.init(source: source, animations: animations)
    }
}

extension BlendStateDirect {
    /// The direct blend state whose object is at graph index `index` of `artboard`, with the
    /// `BlendAnimationDirect`s that follow it; nil if that object is not a `BlendStateDirect`.
    public init?(_ artboard: ArtboardObjects, at index: Int, animationCount: Int) {
        guard artboard.objects[index].typeKey == 73 else { return nil }
        let animations = BlendGraph.blendAnimations(in: artboard, after: index, typeKey: 77).map {
            (objectIndex, object) -> BlendAnimation in
            let source: BlendAnimation.Source
            switch object.uint(298) ?? 0 {
            case 1: source = .mixValue(object.float(297) ?? 100)
            case 2: source = .bindableProperty(BlendGraph.latestBindableProperty(in: artboard, before: objectIndex))
            default: source = .input(UInt32(truncatingIfNeeded: object.uint(168) ?? 0))
            }
            return BlendAnimation(
                animationId: BlendGraph.animationId(object, animationCount: animationCount), source: source)
        }
        self.init(animations: animations)
    }
}

/// How blend states and their animations sit in the object stream.
enum BlendGraph {
    static let bindablePropertyTypeKey = 9
    static let layerStateTypeKey = 60
    /// StateMachineLayer, StateMachine, Artboard: a blend state's animations never follow one.
    static let stopTypeKeys: Set<Int> = [57, 53, 1]

    /// The `BlendAnimation`s of type `typeKey` after the state at `index`, with their graph
    /// indices, until the next layer state, layer or state machine.
    static func blendAnimations(in artboard: ArtboardObjects, after index: Int, typeKey: Int) -> [(Int, RiveObject)] {
        var found: [(Int, RiveObject)] = []
        var cursor = index + 1
        while cursor < artboard.objects.endIndex {
            let object = artboard.objects[cursor]
            if stopTypeKeys.contains(object.typeKey) || RiveDefinitions.type(object.typeKey, isA: layerStateTypeKey) {
                break
            }
            if object.typeKey == typeKey { found.append((cursor, object)) }
            cursor += 1
        }
        return found
    }

    static func animationId(_ object: RiveObject, animationCount: Int) -> UInt32? {
        guard let id = object.uint(165), id < UInt64(animationCount) else { return nil }
        return UInt32(id)
    }

    /// The graph index of the latest `BindableProperty` before `index` (Rive's importer binds
    /// a view-model blend to it).
    static func latestBindableProperty(in artboard: ArtboardObjects, before index: Int) -> Int? {
        var cursor = index - 1
        while cursor >= artboard.objects.startIndex {
            if RiveDefinitions.type(artboard.objects[cursor].typeKey, isA: bindablePropertyTypeKey) { return cursor }
            cursor -= 1
        }
        return nil
    }
}
