/// The other nodes of a cluster as presence knows them (protocol/CLUSTER.md §2.9): when each
/// was last heard, and which were given up after a lease of silence.
public struct PresencePeers: Sendable {
    private var lastHeard: [String: UInt64] = [:]
    private var givenUp: Set<String> = []

    public init() {}

    /// `node` sent something at `now`. True when it was not known (or had been given up): it
    /// should be asked to announce its members.
    public mutating func heard(_ node: String, now: UInt64) -> Bool {
        let new = lastHeard.updateValue(now, forKey: node) == nil || givenUp.remove(node) != nil
        return new
    }

    /// The nodes silent for `timeout` by `now` that were not given up yet; they are now.
    public mutating func silent(now: UInt64, timeout: UInt64) -> [String] {
        let silent = lastHeard.filter { !givenUp.contains($0.key) && now &- $0.value >= timeout }.map(\.key).sorted()
        givenUp.formUnion(silent)
        return silent
    }
}
