/// An error from starting or using the transport.
///
/// A struct around a private enum so cases can be added without breaking callers; compare
/// with the static members (`error.kind == .addressInUse`).
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for switching.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidConfiguration, addressInUse, tlsSetupFailed, contextCreationFailed
            case threadCreationFailed, notRunning, invalidURL, connectFailed
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A configuration value is out of range or malformed.
        public static let invalidConfiguration = Kind(.invalidConfiguration)
        /// The listen address/port is already taken (or cannot be bound).
        public static let addressInUse = Kind(.addressInUse)
        /// The TLS certificate or key could not be read or loaded.
        public static let tlsSetupFailed = Kind(.tlsSetupFailed)
        /// libwebsockets refused to create the context for another reason.
        public static let contextCreationFailed = Kind(.contextCreationFailed)
        /// The service thread could not be started.
        public static let threadCreationFailed = Kind(.threadCreationFailed)
        /// The server or client is not running (never started, or stopped).
        public static let notRunning = Kind(.notRunning)
        /// A `ws://` / `wss://` URL could not be parsed.
        public static let invalidURL = Kind(.invalidURL)
        /// An outgoing client connection could not be set up.
        public static let connectFailed = Kind(.connectFailed)

        public var description: String { base.rawValue }
    }

    /// The category of the error.
    public let kind: Kind
    /// Human-readable detail (not stable; for logs).
    public let detail: String

    init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "\(kind): \(detail)" }
}
