extension Daemon {
    /// Says once that the daemon serves: `listening on ENDPOINT` with the epoch, written
    /// whatever the log level (scripts and tests read the port from it), then, when the
    /// inspector is on, one line with the inspector's and the preview's addresses.
    public func announceListening(on endpoint: String, log: Log) {
        log.announce("listening on \(endpoint)", [("epoch", context.epoch)])
        let configuration = context.configuration
        guard configuration.inspector.enabled, configuration.listenDescriptor == nil || configuration.sharesPort else { return }
        let scheme = configuration.tlsCertificate == nil ? "http" : "https"
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let port = endpoint.split(separator: ":").last.map(String.init) ?? "\(configuration.port)"
        let root = "\(scheme)://\(host):\(port)/"
        log(.info, "inspector at \(root), preview at \(root)preview.html")
    }
}
