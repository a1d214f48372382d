import CWebSockets

/// SIGHUP's certificate reload (`Command.reloadCertificates`), on the service thread.
extension ServerLoop {
    /// Checks the configured certificate chain and key (`CertificatePair`), then has lws load
    /// them into the vhost that was created from the same paths; a bad pair keeps the old one.
    func reloadCertificates() -> Result<Void, TransportError> {
        guard let context, !stopping else { return .failure(TransportError(.notRunning, "the server is not running")) }
        guard let certificate = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath else {
            return .failure(TransportError(.tlsSetupFailed, "the server was started without TLS"))
        }
        if let problem = CertificatePair.problem(certificate: certificate, key: key) { return .failure(problem) }
        guard lws_tls_cert_updated(context, certificate, key, nil, 0, nil, 0) == 0 else {
            return .failure(TransportError(.tlsSetupFailed, "libwebsockets refused the new pair"))
        }
        return .success(())
    }
}
