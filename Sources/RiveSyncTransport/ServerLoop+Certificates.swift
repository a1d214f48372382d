import CWebSockets

/// SIGHUP's certificate reload (`Command.reloadCertificates`), on the service thread.
extension ServerLoop {
    /// Checks the configured certificate chain and key in a scratch OpenSSL context, then has
    /// lws load them into the vhost that was created from the same paths.
    func reloadCertificates() -> Result<Void, TransportError> {
        guard let context, !stopping else { return .failure(TransportError(.notRunning, "the server is not running")) }
        guard let certificate = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath else {
            return .failure(TransportError(.tlsSetupFailed, "the server was started without TLS"))
        }
        guard let scratch = SSL_CTX_new(TLS_server_method()) else {
            return .failure(TransportError(.tlsSetupFailed, "SSL_CTX_new failed"))
        }
        defer {
            SSL_CTX_free(scratch)
            ERR_clear_error()
        }
        guard SSL_CTX_use_certificate_chain_file(scratch, certificate) == 1 else {
            return .failure(TransportError(.tlsSetupFailed, "cannot load the certificate chain '\(certificate)'; keeping the old pair"))
        }
        guard SSL_CTX_use_PrivateKey_file(scratch, key, SSL_FILETYPE_PEM) == 1, SSL_CTX_check_private_key(scratch) == 1 else {
            return .failure(
                TransportError(.tlsSetupFailed, "the key '\(key)' cannot be loaded or does not match the certificate; keeping the old pair")
            )
        }
        guard lws_tls_cert_updated(context, certificate, key, nil, 0, nil, 0) == 0 else {
            return .failure(TransportError(.tlsSetupFailed, "libwebsockets refused the new pair"))
        }
        return .success(())
    }
}
