import CWebSockets

/// A PEM certificate chain and private key as files, checked with OpenSSL the way a TLS server
/// would load them: before a reload (`Command.reloadCertificates`) and by `--check-config`.
public enum CertificatePair {
    /// Loads both files into a scratch OpenSSL context and checks that the key matches.
    /// - Returns: nil when the pair is usable, else why not (`.tlsSetupFailed`).
    public static func problem(certificate: String, key: String) -> TransportError? {
        guard let scratch = SSL_CTX_new(TLS_server_method()) else { return TransportError(.tlsSetupFailed, "SSL_CTX_new failed") }
        defer {
            SSL_CTX_free(scratch)
            ERR_clear_error()
        }
        guard SSL_CTX_use_certificate_chain_file(scratch, certificate) == 1 else {
            return TransportError(.tlsSetupFailed, "cannot load the certificate chain '\(certificate)'")
        }
        guard SSL_CTX_use_PrivateKey_file(scratch, key, SSL_FILETYPE_PEM) == 1 else {
            return TransportError(.tlsSetupFailed, "cannot load the private key '\(key)'")
        }
        guard SSL_CTX_check_private_key(scratch) == 1 else {
            return TransportError(.tlsSetupFailed, "the key '\(key)' does not match the certificate '\(certificate)'")
        }
        return nil
    }
}
