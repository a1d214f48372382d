/// What Rive's transform pass needs of an artboard's components, read once from the file: each
/// component's parent, its kind in the pass, and the transform constraints on it. Headless, so
/// no layout runs: a node a layout places (or a bone, whose position its parent bone's length
/// gives, or one under another kind of constraint) has no computed transform here.
struct TransformHierarchy: Sendable, Hashable {
    /// A component's part in the transform pass.
    enum Kind: Sendable, Hashable {
        /// Not a transform component (a paint, a run, a constraint…).
        case other
        /// The artboard: the root of the space, its world transform the identity.
        case artboard
        /// A node (shape, group, text, image, nested artboard…): translation, rotation, scale.
        case node
        /// A transform component this pass cannot place (layouts, bones, constraints it does
        /// not run).
        case unsupported
    }

    /// Rive's property keys the pass reads (facts from rive-runtime's `dev/defs`).
    enum Key {
        static let parentId = 5
        static let xArtboard = 9
        static let yArtboard = 10
        static let x = 13
        static let y = 14
        static let rotation = 15
        static let scaleX = 16
        static let scaleY = 17
        static let strength = 172
        static let targetId = 173
        static let sourceSpace = 179
        static let destSpace = 180
        static let originX = 372
        static let originY = 373
        static let computedLocalX = 806
        static let computedLocalY = 807
        static let computedWorldX = 808
        static let computedWorldY = 809
        static let computedWidth = 810
        static let computedHeight = 811
        static let computedRootX = 864
        static let computedRootY = 865
        /// A node's computed properties: written by the transform pass, never by a setter.
        static let computed: Set<Int> = [806, 807, 808, 809, 810, 811, 864, 865]
        /// The properties of a node that make its local transform.
        static let local = [x, y, rotation, scaleX, scaleY, xArtboard, yArtboard]
        /// The properties of a transform constraint that move what it constrains.
        static let constraint = [strength, originX, originY]
    }

    /// Rive's type keys the pass tells apart.
    enum TypeKey {
        static let artboard = 1
        static let transformComponent = 38
        static let bone = 40
        static let constraint = 79
        static let transformConstraint = 83
        static let text = 134
        static let image = 100
        static let layoutComponent = 409
    }

    let kinds: [Kind]
    /// Each component's parent id, when it is in range.
    let parents: [Int?]
    /// The transform constraints on each component, in file order (Rive applies them so).
    let constraints: [Int: [Int]]
    /// Each transform constraint's target, when it names a transform component.
    let targets: [Int: Int]

    init(components: [RiveObject]) {
        var parents: [Int?] = []
        var constraints: [Int: [Int]] = [:]
        var targets: [Int: Int] = [:]
        var unsupported: Set<Int> = []
        for (id, object) in components.enumerated() {
            let parent = object.uint(Key.parentId).map { Int(clamping: $0) }.flatMap { components.indices.contains($0) ? $0 : nil }
            parents.append(parent)
            guard let parent, RiveDefinitions.type(object.typeKey, isA: TypeKey.constraint) else { continue }
            if object.typeKey == TypeKey.transformConstraint {
                constraints[parent, default: []].append(id)
                let target = object.uint(Key.targetId).map { Int(clamping: $0) }
                if let target, components.indices.contains(target),
                    RiveDefinitions.type(components[target].typeKey, isA: TypeKey.transformComponent)
                {
                    targets[id] = target
                }
            } else {
                unsupported.insert(parent)
            }
        }
        kinds = components.enumerated().map { id, object in
            let type = object.typeKey
            if RiveDefinitions.type(type, isA: TypeKey.artboard) { return .artboard }
            guard RiveDefinitions.type(type, isA: TypeKey.transformComponent) else { return .other }
            if unsupported.contains(id) || RiveDefinitions.type(type, isA: TypeKey.layoutComponent)
                || RiveDefinitions.type(type, isA: TypeKey.bone)
            {
                return .unsupported
            }
            return .node
        }
        self.parents = parents
        self.constraints = constraints
        self.targets = targets
    }

    /// The kind of a component id (`.other` out of range).
    func kind(_ id: Int) -> Kind {
        kinds.indices.contains(id) ? kinds[id] : .other
    }

    /// Whether a component's computed width and height are Rive's `Node` ones (0): text,
    /// images and layouts measure themselves, which needs shaping or layout.
    func hasNodeSize(_ id: Int, components: [RiveObject]) -> Bool {
        guard kind(id) == .node else { return false }
        let type = components[id].typeKey
        return !RiveDefinitions.type(type, isA: TypeKey.text) && !RiveDefinitions.type(type, isA: TypeKey.image)
    }

    /// The component properties a node's computed transform reads: its own and its ancestors'
    /// local transforms, and those of its constraints and their targets (with theirs).
    func inputs(of id: Int) -> Set<BoundComponentProperty> {
        var result: Set<BoundComponentProperty> = []
        var visited: Set<Int> = []
        var pending = [id]
        while let node = pending.popLast() {
            guard visited.insert(node).inserted, kind(node) == .node else { continue }
            for key in Key.local { result.insert(BoundComponentProperty(component: node, key: key)) }
            if let parent = parents[node] { pending.append(parent) }
            for constraint in constraints[node] ?? [] {
                for key in Key.constraint { result.insert(BoundComponentProperty(component: constraint, key: key)) }
                if let target = targets[constraint] { pending.append(target) }
            }
        }
        return result
    }
}
