/// One run of Rive's transform pass over the nodes a computed property needs: each node's
/// local transform (translation, rotation, scale, as bound, animated or stored) composed onto
/// its parent's world transform, then its transform constraints applied in file order. A root
/// artboard's world transform is the identity. Nil for what the pass cannot place headless
/// (`TransformHierarchy.Kind.unsupported`, a constraint on a text's bounds, a cycle).
struct TransformPass {
    typealias Key = TransformHierarchy.Key

    let hierarchy: TransformHierarchy
    let components: [RiveObject]
    /// Component property values as binds and animations left them (else the file's).
    let values: [BoundComponentProperty: PropertyValue]
    private var worlds: [Int: Mat2D] = [:]
    private var visiting: Set<Int> = []

    init(hierarchy: TransformHierarchy, components: [RiveObject], values: [BoundComponentProperty: PropertyValue]) {
        self.hierarchy = hierarchy
        self.components = components
        self.values = values
    }

    /// A node's computed property (`Key.computed`), nil when the pass cannot give it.
    mutating func computed(_ key: Int, of id: Int) -> Float? {
        switch key {
        case Key.computedWorldX, Key.computedRootX: return world(id)?[4]
        case Key.computedWorldY, Key.computedRootY: return world(id)?[5]
        case Key.computedLocalX: return local(id)?[4]
        case Key.computedLocalY: return local(id)?[5]
        case Key.computedWidth, Key.computedHeight: return hierarchy.hasNodeSize(id, components: components) ? 0 : nil
        default: return nil
        }
    }

    /// The node's transform in its parent's space, recovered from its world transform as Rive's
    /// `Node::localTransform` does (the identity when the parent's does not invert).
    private mutating func local(_ id: Int) -> Mat2D? {
        guard let world = world(id), let parent = parentWorld(of: id) else { return nil }
        return parent.inverted.map { $0 * world } ?? .identity
    }

    /// The world transform of the component's parent, the identity when the parent is not a
    /// transform component; nil when the pass cannot place the parent.
    private mutating func parentWorld(of id: Int) -> Mat2D? {
        guard let parent = hierarchy.parents[id] else { return .identity }
        switch hierarchy.kind(parent) {
        case .other: return .identity
        case .artboard, .node, .unsupported: return world(parent)
        }
    }

    /// A component's world transform.
    mutating func world(_ id: Int) -> Mat2D? {
        switch hierarchy.kind(id) {
        case .artboard: return .identity
        case .other, .unsupported: return nil
        case .node: break
        }
        if let known = worlds[id] { return known }
        guard visiting.insert(id).inserted else { return nil }
        defer { visiting.remove(id) }
        guard let parent = parentWorld(of: id) else { return nil }
        let local = Mat2D.local(
            x: number(id, [Key.x, Key.xArtboard], 0), y: number(id, [Key.y, Key.yArtboard], 0),
            rotation: number(id, [Key.rotation], 0), scaleX: number(id, [Key.scaleX], 1), scaleY: number(id, [Key.scaleY], 1))
        var world = parent * local
        for constraint in hierarchy.constraints[id] ?? [] {
            guard let target = hierarchy.targets[constraint] else { continue }
            guard let constrained = transformConstraint(constraint, on: id, world: world, target: target) else { return nil }
            world = constrained
        }
        worlds[id] = world
        return world
    }

    /// A transform constraint's result: the world transform moved toward the target's (in the
    /// spaces the constraint names) by its strength, blended part by part as Rive does.
    private mutating func transformConstraint(_ constraint: Int, on id: Int, world: Mat2D, target: Int) -> Mat2D? {
        // A text's constraint bounds need its shaped lines; a node's are empty.
        guard !RiveDefinitions.type(components[target].typeKey, isA: TransformHierarchy.TypeKey.text), var goal = self.world(target)
        else { return nil }
        if number(constraint, [Key.sourceSpace], 0) == 1 {
            guard let inverse = parentWorld(of: target)?.inverted else { return world }
            goal = inverse * goal
        }
        if number(constraint, [Key.destSpace], 0) == 1 {
            guard let parent = parentWorld(of: id) else { return nil }
            goal = parent * goal
        }
        return Self.blend(world, toward: goal, strength: number(constraint, [Key.strength], 1))
    }

    /// Rive's `constrainWorld`: rotation along the shorter way round, the other parts linearly.
    static func blend(_ from: Mat2D, toward to: Mat2D, strength t: Float) -> Mat2D {
        let a = from.components
        var b = to.components
        let turn = 2 * Float.pi
        let angleA = a.rotation.truncatingRemainder(dividingBy: turn)
        var difference = b.rotation.truncatingRemainder(dividingBy: turn) - angleA
        if difference > .pi {
            difference -= turn
        } else if difference < -.pi {
            difference += turn
        }
        let rest = 1 - t
        b.rotation = angleA + difference * t
        b.x = a.x * rest + b.x * t
        b.y = a.y * rest + b.y * t
        b.scaleX = a.scaleX * rest + b.scaleX * t
        b.scaleY = a.scaleY * rest + b.scaleY * t
        b.skew = a.skew * rest + b.skew * t
        return Mat2D(b)
    }

    /// A number property of a component: the first of `keys` a bind or an animation wrote,
    /// else the first the file stores, else `initial`.
    private func number(_ id: Int, _ keys: [Int], _ initial: Float) -> Float {
        for key in keys {
            switch values[BoundComponentProperty(component: id, key: key)] {
            case .number(let value)?: return value
            default: continue
            }
        }
        for key in keys {
            if let value = components[id].float(key) { return value }
            if let value = components[id].uint(key) { return Float(value) }
        }
        return initial
    }
}
