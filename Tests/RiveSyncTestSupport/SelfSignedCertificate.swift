import Foundation

/// An openssl run that did not make the certificate.
public struct CertificateNotMade: Error, CustomStringConvertible {
    public let output: String
    public var description: String { "openssl could not make a certificate: \(output)" }
}

/// Writes a one-day self-signed P-256 certificate for `localhost` and 127.0.0.1 to
/// `certificate` and its key to `key` (PEM), with `/usr/bin/openssl`.
public func makeSelfSignedCertificate(certificate: String, key: String) throws {
    let openssl = try ChildProcess.run(
        "/usr/bin/openssl",
        [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", certificate,
            "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ], output: .merged, seconds: 60)
    guard openssl.status == 0 else { throw CertificateNotMade(output: openssl.output) }
}
