import Foundation

/// systemd socket activation (sd_listen_fds(3)) for one inherited listening socket.
public enum SocketActivation {
    /// The first passed descriptor (`SD_LISTEN_FDS_START`).
    static let firstDescriptor: Int32 = 3

    /// Takes the listening socket systemd passed, if any: `LISTEN_PID` must be our pid and
    /// `LISTEN_FDS` exactly 1 (the unit has one `ListenStream=`). Unsets `LISTEN_PID`,
    /// `LISTEN_FDS` and `LISTEN_FDNAMES` so no child inherits them, marks the socket
    /// close-on-exec and non-blocking.
    /// - Returns: the descriptor (3), or nil when the daemon was not socket-activated.
    /// - Throws: `ConfigurationError` when the passed descriptors are not one listening stream socket.
    public static func takeListeningSocket(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> Int32? {
        guard let pid = environment["LISTEN_PID"].flatMap({ Int32($0) }), pid == getpid() else { return nil }
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        guard let count = environment["LISTEN_FDS"].flatMap({ Int($0) }), count > 0 else { return nil }
        guard count == 1 else { throw .invalid("socket activation: expected 1 socket, systemd passed \(count)") }
        let fd = firstDescriptor
        var accepting: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0, accepting == 1 else {
            throw .invalid("socket activation: fd \(fd) is not a listening socket (use ListenStream= with Accept=no)")
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }
}

/// Accepts connections on an inherited listening socket and hands each one to the transport
/// (`WebSocketServer.Command.adopt`): lws 4.1.6 can adopt accepted sockets but not a listener.
///
/// One thread polls the listener and a wake-up pipe; `stop()` writes to the pipe and joins.
/// The listener itself is left open and untouched (systemd keeps its own copy).
final class SocketAcceptor: Sendable {
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts accepting on `listener`; each accepted socket goes to `adopt`, which owns it
    /// afterwards and returns false when it could not take it (the socket is then closed).
    init(listener: Int32, log: Log, adopt: @escaping @Sendable (Int32) -> Bool) throws(ConfigurationError) {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw .invalid("socket activation: pipe failed") }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        self.listener = listener
        wake = (pipeEnds[0], pipeEnds[1])
        let (wakeRead, finished) = (pipeEnds[0], finished)
        let thread = Thread {
            Self.acceptLoop(listener: listener, wake: wakeRead, log: log, adopt: adopt)
            finished.signal()
        }
        thread.name = "rivesyncd.accept"
        thread.start()
    }

    /// Stops accepting and waits for the thread; connections already adopted stay open.
    func stop() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        finished.wait()
        close(wake.read)
        close(wake.write)
    }

    private static func acceptLoop(listener: Int32, wake: Int32, log: Log, adopt: @Sendable (Int32) -> Bool) {
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return log(.error, "accept loop: poll failed", [("errno", "\(errno)")]) }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let connection = accept(listener, nil, nil)
            if connection >= 0 {
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                if !adopt(connection) { close(connection) }
                continue
            }
            switch errno {
            case EAGAIN, EINTR, ECONNABORTED, EPROTO:
                continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                // Out of descriptors or memory: back off instead of spinning on a readable listener.
                log(.warning, "accept failed; retrying in 100 ms", [("errno", "\(errno)")])
                var wakeOnly = [fds[1]]
                if poll(&wakeOnly, 1, 100) > 0 { return }
            default:
                return log(.error, "accept failed; no longer accepting", [("errno", "\(errno)")])
            }
        }
    }
}
