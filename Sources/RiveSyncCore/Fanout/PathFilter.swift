import RiveSyncModel

/// What a path subscription sees of a batch: the effects with a path equal to, under or above
/// one of its paths (`players` matches `players/2/x` and the other way round), each with only
/// those of its paths.
///
/// An effect that reaches the subscription only from above (a list insert, nested replacement
/// or bind of something that contains its paths) keeps, of its `introduced` states, only what
/// lies on the subscribed paths: the states' other values are outside them, and a reader
/// limited to those paths may not see them.
public enum PathFilter {
    /// The effects of a batch as a subscription to `paths` receives them.
    public static func effects(_ effects: [Effect], visibleTo paths: [String]) -> [Effect] {
        effects.compactMap { effect in
            var effect = effect
            effect.paths = effect.paths.filter { p in paths.contains { q in related(p, q) } }
            guard !effect.paths.isEmpty else { return nil }
            if effect.paths.contains(where: { p in paths.contains { q in isWithin(p, q) } }) { return effect }
            return projected(effect, onto: paths)
        }
    }

    public static func related(_ a: String, _ b: String) -> Bool {
        isWithin(a, b) || isWithin(b, a)
    }

    /// Whether `path` is `scope` or under it ("" is the whole target).
    public static func isWithin(_ path: String, _ scope: String) -> Bool {
        path == scope || scope.isEmpty || path.hasPrefix(scope + "/")
    }

    /// `effect` with its `introduced` states cut down to the subscribed paths below it.
    public static func projected(_ effect: Effect, onto paths: [String]) -> Effect {
        let states = effect.change.introducedStates
        guard !states.isEmpty, let root = root(of: effect.change) else { return effect }
        var below: [[Substring]] = []
        for p in effect.paths {
            let depth = p.isEmpty ? 0 : p.split(separator: "/", omittingEmptySubsequences: false).count
            for q in paths where q != p && isWithin(q, p) {
                var rest = q.split(separator: "/", omittingEmptySubsequences: false).dropFirst(depth)
                if case .listInsert(_, _, let index, _, _) = effect.change {
                    guard rest.first == Substring(String(index)) else { continue }
                    rest = rest.dropFirst()
                }
                below.append(Array(rest))
            }
        }
        var kept = StateProjection(states: states)
        kept.visit(root, below)
        let introduced = states.compactMap { kept.result[$0.id] }
        switch effect.change {
        case .set(let instance, let property, let value, _):
            return Effect(paths: effect.paths, change: .set(instance: instance, property: property, value: value, introduced: introduced))
        case .listInsert(let instance, let property, let index, let item, _):
            return Effect(
                paths: effect.paths,
                change: .listInsert(instance: instance, property: property, index: index, item: item, introduced: introduced))
        case .bind(let slot, let instance, _):
            return Effect(paths: effect.paths, change: .bind(slot: slot, instance: instance, introduced: introduced))
        case .fire, .listRemove, .listSwap:
            return effect
        }
    }

    /// The instance at the effect's path after the change: the new nested value, the inserted
    /// item, the newly bound instance.
    private static func root(of change: Change) -> InstanceID? {
        switch change {
        case .set(_, _, .viewModel(let id?), _): return id
        case .listInsert(_, _, _, let item, _): return item
        case .bind(_, let instance, _): return instance
        default: return nil
        }
    }
}

/// Walks introduced states along relative paths and keeps, of each state it passes, only the
/// values those paths name; where a path ends, the state and everything below it are kept.
private struct StateProjection {
    let byID: [InstanceID: InstanceState]
    var result: [InstanceID: InstanceState] = [:]

    init(states: [InstanceState]) {
        byID = Dictionary(states.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func visit(_ id: InstanceID, _ paths: [[Substring]]) {
        guard let state = byID[id], !paths.isEmpty else { return }
        if result[id] == nil { result[id] = InstanceState(id: id, viewModel: state.viewModel, name: state.name, values: [:]) }
        for path in paths {
            guard let first = path.first else {
                keepWhole(id)
                continue
            }
            guard let value = state.values[String(first)] else { continue }
            result[id]!.values[String(first)] = value
            let rest = path.dropFirst()
            switch value {
            case .viewModel(let child?) where !rest.isEmpty:
                visit(child, [Array(rest)])
            case .list(let items) where !rest.isEmpty:
                guard let index = Int(rest.first!), items.indices.contains(index) else { continue }
                visit(items[index], [Array(rest.dropFirst())])
            default:
                break
            }
        }
    }

    private mutating func keepWhole(_ id: InstanceID) {
        guard let state = byID[id], result[id] != state else { return }
        result[id] = state
        for child in state.children { keepWhole(child) }
    }
}
