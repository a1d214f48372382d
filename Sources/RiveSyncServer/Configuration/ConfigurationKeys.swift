import RiveSyncCore

/// Every key a configuration file may have, by the object it belongs to: the parser refuses any
/// other, and `ConfigurationSchemaTests` holds `config/rivesyncd.schema.json` and the
/// rivesyncd.conf(5) man page against this table both ways.
public enum ConfigurationKeys {
    /// Members of each object, by the object's key path: `""` is the top level, `[]` stands
    /// for every item of an array (`files[]`).
    public static let sections: [String: [String]] = [
        "": [
            "listen", "workers", "transportThreads", "tls", "stateDirectory", "files", "instances", "stateMachines", "limits",
            "allowFileUploads", "defaultRate", "durability", "snapshotEvery", "authors", "auth", "logLevel", "logFormat", "metrics",
            "inspector", "cluster",
        ],
        "listen": ["host", "port", "sharePort"],
        "tls": ["certificate", "key"],
        "files[]": ["name", "path", "schema", "worker"],
        "instances[]": ["name", "file", "viewModel", "instance"],
        "stateMachines[]": ["name", "file", "artboard", "stateMachine", "globals", "mode", "rate"],
        "limits": Limits.settings.map(\.name),
        "auth": ["tokensFile", "allowAnonymous", "anonymousScopes", "allowedOrigins"],
        "auth.anonymousScopes[]": Scope.keys,
        "metrics": ["maxTargetLabels"],
        "inspector": ["enabled", "readOnly"],
        "cluster": [
            "redis", "node", "prefix", "leaseMilliseconds", "timeoutMilliseconds", "waitForReplicas", "waitTimeoutMilliseconds",
            "shards", "serves", "fileShards", "url",
        ],
        "cluster.shards[]": ["name", "redis", "prefix"],
    ]

    /// Every key path (`listen.host`, `files[].name`, `limits.maxMessageBytes`, …), sorted.
    public static var keyPaths: [String] {
        sections.flatMap { section, keys in keys.map { section.isEmpty ? $0 : "\(section).\($0)" } }.sorted()
    }
}
