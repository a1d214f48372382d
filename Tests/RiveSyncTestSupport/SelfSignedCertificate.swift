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

/// A self-signed certificate and its key (`makeSelfSignedCertificate`) in a fresh temporary
/// directory of their own; `remove()` deletes the directory and whatever else the test put
/// there.
public struct TemporaryCertificate {
    /// The directory holding `certificate` and `key`.
    public let directory: URL
    /// The certificate's path (PEM).
    public let certificate: String
    /// The key's path (PEM).
    public let key: String

    /// Makes the directory (named `prefix`-UUID) and the certificate in it.
    public init(prefix: String = "rivesync-tls") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        certificate = directory.appendingPathComponent("cert.pem").path
        key = directory.appendingPathComponent("key.pem").path
        try makeSelfSignedCertificate(certificate: certificate, key: key)
    }

    /// Deletes the directory (a leftover in the temporary directory harms no later test).
    public func remove() { try? FileManager.default.removeItem(at: directory) }
}
