/// A file the server answers plain `GET` requests for at a fixed path (the daemon's web pages
/// and scripts). The transport sends the bytes and headers as given and knows nothing of what
/// they are.
public struct StaticFile: Sendable {
    /// The `Content-Type` header value.
    public var contentType: String
    /// The body.
    public var bytes: [UInt8]
    /// Further response headers, as (name, value) pairs (e.g. `Content-Security-Policy`).
    public var headers: [(name: String, value: String)]

    /// A file with its media type, body and extra headers.
    public init(contentType: String, bytes: [UInt8], headers: [(name: String, value: String)] = []) {
        self.contentType = contentType
        self.bytes = bytes
        self.headers = headers
    }
}
