/// The name a mistyped one most likely meant, for "did you mean" hints of flags, commands,
/// configuration keys and environment variables.
public enum NearestName {
    /// The one of `candidates` closest to `name` by edit distance (insertions, deletions,
    /// substitutions and swaps of neighbours, ignoring case), when it is close enough to be a
    /// typo: at most 1 edit for names up to 4 characters, 2 up to 8, else 3. Nil when none is,
    /// or when two are equally close.
    public static func suggestion(for name: String, among candidates: [String]) -> String? {
        let wanted = Array(name.lowercased())
        let limit = wanted.count <= 4 ? 1 : wanted.count <= 8 ? 2 : 3
        var best: (name: String, distance: Int)?
        var tied = false
        for candidate in Set(candidates) where candidate != name {
            let distance = Self.distance(wanted, Array(candidate.lowercased()))
            guard distance <= limit else { continue }
            if let current = best, distance == current.distance {
                tied = true
            } else if best == nil || distance < best!.distance {
                (best, tied) = ((candidate, distance), false)
            }
        }
        return tied ? nil : best?.name
    }

    /// ` (did you mean 'ls'?)`, or "" without a suggestion.
    public static func hint(for name: String, among candidates: [String]) -> String {
        suggestion(for: name, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The optimal string alignment distance between `a` and `b`.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
