/// Finding the paths by which an instance is reachable from a set of root slots.
extension InstanceStore {
    /// At most this many paths are reported for one instance (an item shared by many lists).
    static let maxPathsPerInstance = 16
}

/// Where an instance sits as a root: a slot of a target (its path prefix).
struct RootSlot: Sendable, Hashable {
    var target: String
    var prefix: String
}

extension InstanceStore {
    /// The `/`-separated paths to `id` from every root `rootSlots` knows, by target ("" is the
    /// main slot), at most `maxPathsPerInstance` per target, in a stable order: each target's
    /// roots in slot order, then parents in link order. One walk up the parent links serves
    /// every target. Empty when no root reaches `id`.
    func paths(to id: InstanceID, rootSlots: [InstanceID: [RootSlot]]) -> [String: [String]] {
        var results: [String: [String]] = [:]
        guard parents[id] != nil else {
            // Held by no instance (a slot's own, the usual case): its slots' prefixes, no walk.
            for root in rootSlots[id] ?? [] where results[root.target, default: []].count < Self.maxPathsPerInstance {
                results[root.target, default: []].append(root.prefix)
            }
            return results
        }
        var visiting: [InstanceID] = []
        var budget = Self.maxPathsPerInstance * 64
        collectPaths(to: id, suffix: [], rootSlots: rootSlots, visiting: &visiting, budget: &budget, into: &results)
        return results
    }

    /// `budget` bounds the nodes visited (an instance shared by very many lists).
    private func collectPaths(
        to id: InstanceID, suffix: [String], rootSlots: [InstanceID: [RootSlot]], visiting: inout [InstanceID], budget: inout Int,
        into results: inout [String: [String]]
    ) {
        guard budget > 0, !visiting.contains(id) else { return }
        budget -= 1
        visiting.append(id)
        defer { visiting.removeLast() }
        for root in rootSlots[id] ?? [] where results[root.target, default: []].count < Self.maxPathsPerInstance {
            // `suffix` holds escaped segments; the prefix is a slot's (already a path).
            let segments = (root.prefix.isEmpty ? [] : [root.prefix]) + suffix.reversed()
            results[root.target, default: []].append(segments.joined(separator: "/"))
        }
        let links = parents[id] ?? []
        for (position, link) in links.enumerated() where !links[..<position].contains(link) {
            guard let parent = instances[link.parent], let value = parent.values[link.property] else { continue }
            switch value {
            case .list(let items):
                for (index, item) in items.enumerated() where item == id {
                    collectPaths(
                        to: link.parent, suffix: suffix + [String(index), PropertyPath.escape(link.property)], rootSlots: rootSlots,
                        visiting: &visiting,
                        budget: &budget, into: &results)
                }
            default:
                collectPaths(
                    to: link.parent, suffix: suffix + [PropertyPath.escape(link.property)], rootSlots: rootSlots, visiting: &visiting,
                    budget: &budget,
                    into: &results)
            }
        }
    }
}
