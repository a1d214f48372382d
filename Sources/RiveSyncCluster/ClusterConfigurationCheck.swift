import RiveSyncJSON

/// The part of a node's configuration that every node of a cluster must share (files,
/// instances, state machines, default rate: protocol/CLUSTER.md §1.5), as a JSON fingerprint
/// the first node records and every later one compares with its own.
public enum ClusterConfigurationCheck {
    /// Where `mine` first differs from `cluster`, as a key path with both values; nil when equal.
    public static func difference(_ mine: JSONValue, _ cluster: JSONValue, at path: String = "") -> String? {
        switch (mine, cluster) {
        case (.object(let a), .object(let b)):
            for key in Set(a.map(\.0)).union(b.map(\.0)).sorted() {
                let here = path.isEmpty ? key : "\(path).\(key)"
                guard let left = mine[key] else { return "\(here): missing here, \(cluster[key]!.jsonText) in the cluster" }
                guard let right = cluster[key] else { return "\(here): \(left.jsonText) here, missing in the cluster" }
                if let found = difference(left, right, at: here) { return found }
            }
            return nil
        case (.array(let a), .array(let b)):
            for (index, (left, right)) in zip(a, b).enumerated() {
                if let found = difference(left, right, at: "\(path)[\(index)]") { return found }
            }
            return a.count == b.count ? nil : "\(path): \(a.count) entries here, \(b.count) in the cluster"
        default:
            return mine == cluster ? nil : "\(path): \(mine.jsonText) here, \(cluster.jsonText) in the cluster"
        }
    }
}
