/// The effects of one advance, by the target that sees them. The advanced target's own are
/// kept apart from the others': the usual advance (a change only its own target sees) keys
/// nothing by its name.
struct AdvanceEffects {
    /// The advanced target.
    let target: String
    /// The advanced target's effects, in order.
    private(set) var own: [Effect] = []
    /// Other targets' effects, in order, by target.
    private(set) var others: [String: [Effect]] = [:]

    init(target: String) { self.target = target }

    /// Whether no target has seen an effect.
    var isEmpty: Bool { own.isEmpty && others.isEmpty }

    /// Whether a target other than the advanced one has seen an effect.
    var reachOthers: Bool { !others.isEmpty }

    /// Records an effect that `name` sees.
    mutating func append(_ effect: consuming Effect, for name: String) {
        if name == target { own.append(effect) } else { others[name, default: []].append(effect) }
    }

    /// Records effects that `name` sees.
    mutating func append(contentsOf effects: [Effect], for name: String) {
        if name == target { own += effects } else { others[name, default: []] += effects }
    }

    /// The effects `name` sees, in order.
    func effects(for name: String) -> [Effect] { name == target ? own : others[name] ?? [] }

    /// How many effects each target has so far (`rollBack(to:)` drops what comes after).
    struct Mark {
        fileprivate var own: Int
        fileprivate var others: [String: Int]
    }

    /// The effects recorded so far.
    var mark: Mark { Mark(own: own.count, others: others.mapValues(\.count)) }

    /// Drops every effect recorded after `mark`.
    mutating func rollBack(to mark: Mark) {
        own.removeSubrange(mark.own...)
        for name in others.keys { others[name]!.removeSubrange((mark.others[name] ?? 0)...) }
    }
}
