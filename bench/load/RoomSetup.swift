import Glibc
import RiveSyncTransport
import Synchronization

/// `--create-rooms`: creates the rooms of a run over the protocol on one connection, as a
/// client of a multiplayer preview would (one `createStateMachine` per room, auto mode at
/// `--room-rate`, files taken round-robin from `--files`), keeping a window of requests in
/// flight. Prints `CREATED <count> <seconds>`.
struct RoomSetup {
    let options: Options

    /// Requests in flight at a time.
    static let window = 64
    static let timeout: UInt64 = 300_000_000_000

    /// Replies seen so far, written on the lws service thread.
    private struct Replies {
        var created = 0
        var error: String?
    }

    /// Creates the rooms; returns the exit status.
    func run() throws -> Int32 {
        let client = try WebSocketClient()
        let replies = Mutex(Replies())
        let connection = try client.connect(to: options.url, subprotocol: Peer.rivesync.subprotocol) { event in
            replies.withLock { replies in
                switch event {
                case .opened:
                    break
                case .message(let bytes, _):
                    if Self.starts(bytes, with: #"{"type":"target""#) {
                        replies.created += 1
                    } else if Self.starts(bytes, with: #"{"type":"error""#) {
                        replies.error = replies.error ?? String(decoding: bytes.prefix(300), as: UTF8.self)
                    }
                case .closed(let code, let reason):
                    replies.error = replies.error ?? "closed \(code.map(String.init) ?? "-") \(reason)"
                case .failed(let reason):
                    replies.error = replies.error ?? "failed: \(reason)"
                }
            }
        }
        connection.send(Payload(text: #"{"type":"hello","id":1,"protocol":[1],"client":"bench-load rooms"}"#))
        let start = Clock.now()
        var requested = 0
        while true {
            let (created, error) = replies.withLock { ($0.created, $0.error) }
            if let error {
                printError("bench-load: creating rooms: \(error)")
                return 1
            }
            if created == options.rooms { break }
            guard Clock.now() - start < Self.timeout else {
                printError("bench-load: \(created) of \(options.rooms) rooms created in \(Self.timeout / 1_000_000_000) s")
                return 1
            }
            while requested < options.rooms, requested - created < Self.window {
                connection.send(Payload(text: request(requested)))
                requested += 1
            }
            Clock.sleep(until: Clock.now() + 1_000_000)
        }
        print("CREATED \(options.rooms) \(Double(Clock.now() - start) / 1e9)")
        fflush(nil)
        _ = connection.close()
        return 0
    }

    /// The `createStateMachine` of the `offset`-th room of this process.
    private func request(_ offset: Int) -> String {
        let room = options.firstRoom + offset
        let file = options.files[room % options.files.count]
        return #"{"type":"createStateMachine","id":\#(100 + offset),"file":"\#(file)","name":"\#(RoomLayout.name(room))","#
            + #""artboard":"Room","stateMachine":"room","mode":"auto","rate":\#(options.roomRate)}"#
    }

    private static func starts(_ bytes: [UInt8], with prefix: String) -> Bool {
        bytes.starts(with: prefix.utf8)
    }
}
