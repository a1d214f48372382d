/// Access control seen from outside the daemon.
extension Daemon {
    /// Re-reads the tokens file named by `auth.tokensFile` (SIGHUP). Open connections keep
    /// their identity: a revoked token's connections are closed with 1008 now, and every
    /// connection's later requests are checked against the new scopes. Throws, keeping the
    /// old tokens, when the file cannot be read or is invalid; does nothing without a file.
    public func reloadTokens() throws(ConfigurationError) {
        try dispatcher.reloadTokens()
    }
}
