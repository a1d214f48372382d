import CWebSockets

/// Every lws context this process creates, counted, because creating one can fail a client's
/// TLS handshake elsewhere in the process.
///
/// lws 4.1.6 keeps the OpenSSL slot where it stores each connection's `wsi` in one
/// process-wide variable and allocates a new slot in every context created with
/// `DO_SSL_GLOBAL_INIT` (which each TLS-capable context needs). A client connection stores its
/// `wsi` in the slot of the moment its SSL object is made; when the server's certificate
/// arrives, lws' verify callback reads the slot of *that* moment. If any context (server or
/// client, any thread) was created in between, it finds nothing and fails the handshake
/// ("connect SSL err 1"), whatever the certificate. Servers are not concerned (their verify
/// callback runs only for client certificates, which we do not ask for).
///
/// `ClientLoop` dials such a connection again (`ClientLoop.redialLimit`) when a context was
/// created, or was being created, while it was handshaking.
enum ContextCreations {
    /// Where the count stood.
    struct Mark: Equatable {
        var began = 0
        var ended = 0
    }

    private static let count = Locked(Mark())

    /// The count now (take it before dialling).
    static func mark() -> Mark { count.withLock { $0 } }

    /// Whether a context was created, or being created, at any moment since `mark` was taken.
    static func changed(since mark: Mark) -> Bool {
        mark.began != mark.ended || count.withLock { $0.began } != mark.began
    }

    /// `lws_create_context`, counted.
    static func create(_ info: UnsafePointer<lws_context_creation_info>) -> OpaquePointer? {
        count.withLock { $0.began += 1 }
        defer { count.withLock { $0.ended += 1 } }
        return lws_create_context(info)
    }
}
