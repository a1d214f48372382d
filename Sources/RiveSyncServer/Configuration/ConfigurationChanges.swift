extension DaemonConfiguration {
    /// Key paths whose value differs in `new`, in file order: `workers`, `files[1]`,
    /// `limits.maxSubscriptions`, … (`Supervisor.reload` applies some and logs the others).
    func changedKeys(to new: DaemonConfiguration) -> [String] {
        var changed: [String] = []
        func compare<T: Equatable>(_ key: String, _ value: (DaemonConfiguration) -> T) {
            if value(self) != value(new) { changed.append(key) }
        }
        func compareItems<T: Equatable>(_ key: String, _ items: (DaemonConfiguration) -> [T]) {
            let (old, wanted) = (items(self), items(new))
            for i in 0..<max(old.count, wanted.count) where i >= old.count || i >= wanted.count || old[i] != wanted[i] {
                changed.append("\(key)[\(i)]")
            }
        }
        compare("listen.host", \.host)
        compare("listen.port", \.port)
        compare("workers", \.workers)
        compare("transportThreads", \.transportThreads)
        compare("tls.certificate", \.tlsCertificate)
        compare("tls.key", \.tlsKey)
        compare("stateDirectory", \.stateDirectory)
        compareItems("files", \.files)
        compareItems("instances", \.instances)
        compareItems("stateMachines", \.stateMachines)
        for setting in Limits.settings { compare("limits.\(setting.name)") { $0.limits[keyPath: setting.keyPath] } }
        compare("allowFileUploads", \.allowFileUploads)
        compare("defaultRate", \.defaultRate)
        compare("durability", \.durability)
        compare("snapshotEvery", \.snapshotEvery)
        compare("authors", \.authors)
        compare("auth.tokensFile", \.auth.tokensFile)
        compare("auth.allowAnonymous", \.auth.anonymous)
        compare("auth.anonymousScopes", \.auth.anonymousGrants)
        compare("auth.allowedOrigins", \.auth.allowedOrigins)
        compare("logLevel", \.logLevel)
        compare("logFormat", \.logFormat)
        compare("metrics.maxTargetLabels", \.maxTargetLabels)
        compare("inspector.enabled", \.inspector.enabled)
        compare("inspector.readOnly", \.inspector.readOnly)
        return changed
    }
}
