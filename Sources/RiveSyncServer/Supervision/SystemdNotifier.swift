import Foundation

/// The sd_notify(3) protocol written by hand (no libsystemd): one `AF_UNIX` datagram per state
/// string (`READY=1`, `STATUS=…`, `WATCHDOG=1`, `RELOADING=1`, `STOPPING=1`) to the socket named
/// by `$NOTIFY_SOCKET`, a path or, with a leading `@`, an abstract name.
///
/// Sending never blocks: `MSG_DONTWAIT | MSG_NOSIGNAL`, and a full receiver queue (`EAGAIN`)
/// drops the message. A receiver that stops reading must not stall the daemon (LWS.md §3.13).
public final class SystemdNotifier: Sendable {
    private let descriptor: Int32
    /// The `sockaddr_un` bytes and the length to pass to `sendto`.
    private let address: [UInt8]

    /// Connects to `$NOTIFY_SOCKET`; nil when it is unset, empty, too long or the socket cannot
    /// be created (the daemon then runs unsupervised).
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let name = environment["NOTIFY_SOCKET"], !name.isEmpty else { return nil }
        var path = Array(name.utf8)
        let isAbstract = path.first == UInt8(ascii: "@")
        if isAbstract { path[0] = 0 } else { path.append(0) }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        let pathCapacity = MemoryLayout<sockaddr_un>.size - pathOffset
        guard path.count <= pathCapacity, path.count > 1 else { return nil }
        var address = [UInt8](repeating: 0, count: pathOffset + path.count)
        withUnsafeBytes(of: sa_family_t(AF_UNIX)) { address.replaceSubrange(0..<$0.count, with: $0) }
        address.replaceSubrange(pathOffset..., with: path)
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        self.address = address
    }

    deinit { close(descriptor) }

    /// Sends `state` (newline-separated `KEY=value` assignments) as one datagram.
    /// - Returns: false when the message was dropped (receiver queue full, socket gone).
    @discardableResult
    public func notify(_ state: String) -> Bool {
        let bytes = Array(state.utf8)
        let sent = address.withUnsafeBytes { raw in
            bytes.withUnsafeBytes { payload in
                sendto(
                    descriptor, payload.baseAddress, payload.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL),
                    raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            }
        }
        return sent == bytes.count
    }
}
