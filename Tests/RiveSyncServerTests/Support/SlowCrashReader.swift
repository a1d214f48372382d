import Foundation
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTestSupport
import RiveSyncTransport

/// A whole-target subscriber of `lobby` for the crash workload that really stops reading: a
/// `RawSocket` (4 KiB receive buffer) on a dedicated thread that sleeps 100–300 ms, then
/// reads about 8 KiB (at least one message), so the daemon's send queue for it fills and it
/// gets catch-up snapshots (PROTOCOL.md §11). `finalDigest` switches it to eager reading. It reconnects across daemon restarts and resumes
/// from its cursor. It records `start` (snapshot, catch-up or resume) and `batch` events in
/// the shared history like `CrashWorkloadClient`, and keeps a replica.
///
/// A resume whose missing batches do not fit in the daemon's send queue is closed with 1008
/// (PROTOCOL.md §12 promises a catch-up there instead); the reader then subscribes once
/// without its cursor (a fresh snapshot), and counts it.
final class SlowCrashReader: @unchecked Sendable {
    let name: String
    let port: Int
    let history: Locked<HistoryChecker>
    static let target = "lobby"
    /// Bytes read per wake-up while slow (at least one message).
    static let bytesPerWake = 8_192

    /// What the test reads (under the lock).
    struct Shared: Sendable {
        var stopping = false
        var finished = false
        /// Set by `finalDigest`: read eagerly from now on.
        var eager = false
        /// Set by `holdingReads`: subscribe again, then read nothing.
        var hold = false
        /// Whether the reader holds: subscribed on a connection it opened after `hold` was
        /// set (so to the daemon running then), and reading nothing.
        var holding = false
        var seq: UInt64?
        var digest: String?
        var catchUps = 0
        var batches = 0
        /// Batches and snapshots of the target handled.
        var messages = 0
        var sessions = 0
        var resumes = 0
        var overflowCloses = 0
        var largestMessage = 0
        /// Batches or snapshots that could not be decoded or applied (must stay empty).
        var failures: [String] = []
    }

    let shared = Locked(Shared())

    // Owned by the reader thread.
    private var epoch: String?
    private var replica: Replica?
    private var schema: FileSchema?
    private var useCursor = true
    private var nextID = 0

    init(name: String, port: Int, history: Locked<HistoryChecker>) {
        self.name = name
        self.port = port
        self.history = history
    }

    func start() {
        let thread = Thread { [self] in
            while !shared.withLock({ $0.stopping }) {
                session()
                Thread.sleep(forTimeInterval: 0.02)
            }
            shared.withLock { $0.finished = true }
        }
        thread.name = "slow reader"
        thread.start()
    }

    /// Asks the thread to end (it does within one sleep or read timeout); does not wait.
    func stop() {
        shared.withLock { $0.stopping = true }
    }

    /// Runs `body` while the reader reads nothing at all, so that what the running daemon sends
    /// it meanwhile piles up however slowly `body` sends it: the reader leaves its session
    /// (which may still be on a daemon killed since), subscribes again with its cursor, and
    /// holds that connection open unread until `body` ends.
    func holdingReads<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async throws -> T {
        shared.withLock { $0.hold = true }
        defer { shared.withLock { $0.hold = false } }
        try await waitUntil("the slow reader to subscribe again and hold") { shared.withLock { $0.holding } }
        return try await body()
    }

    /// Batches and snapshots the reader has taken in: its progress.
    var messagesRead: Int { shared.withLock { $0.messages } }

    /// Switches to eager reading, waits until the replica has reached `seq` (a catch-up or
    /// resume may be needed), and returns its digest. The timeout is only a hang guard.
    func finalDigest(waitingFor seq: Int, seconds: Double = 20) async throws -> String? {
        shared.withLock { $0.eager = true }
        return try await waitFor("the slow reader to reach seq \(seq) (at \(shared.withLock { $0.seq ?? 0 }))", seconds: seconds) {
            shared.withLock { ($0.seq ?? 0) >= UInt64(seq) ? .some($0.digest) : nil }
        }
    }

    // MARK: - Reader thread

    private func session() {
        let holds = shared.withLock { $0.hold }
        let socket: RawSocket
        // Refused: the daemon is down between a kill and its restart; the loop tries again.
        do { socket = try RawSocket.webSocket(port: port, receiveBufferBytes: 4096, timeoutSeconds: 5) } catch { return }
        defer {
            socket.close()
            shared.withLock { $0.holding = false }
        }
        var resumed = false
        do {
            let welcome = try request(socket, ["type": "hello", "protocol": [1]])
            guard welcome["type"] == "welcome" else { return fail("hello answered with \(welcome.jsonText)") }
            if schema == nil {
                schema = try FileSchema(json: try request(socket, ["type": "describe", "file": "demo"])["schema"] ?? .null)
            }
            var subscribe: [(String, JSONValue)] = [("type", "subscribe"), ("target", .string(Self.target))]
            if useCursor, let replica, let epoch {
                subscribe.append(("cursor", ["epoch": .string(epoch), "seq": .number(Double(replica.seq))]))
            }
            useCursor = true
            let reply = try request(socket, .object(subscribe))
            epoch = welcome["epoch"]?.stringValue
            switch reply["type"]?.stringValue {
            case "snapshot":
                try handle(reply)
            case "subscribed":
                resumed = true
                record(["kind": "start", "seq": reply["seq"] ?? .null, "resumed": reply["resumed"] ?? .bool(false)])
            default:
                return fail("subscribe answered with \(reply.jsonText)")
            }
            shared.withLock {
                $0.sessions += 1
                if resumed { $0.resumes += 1 }
            }
            while !shared.withLock({ $0.stopping }) {
                if shared.withLock({ $0.eager }) {
                    if socket.readable(timeoutMilliseconds: 50) { try handle(try read(socket).json) }
                } else if let hold = shared.withLock({ $0.hold ? $0.holding : nil }) {
                    guard hold || holds else { return }  // a session from before the hold: a new one
                    shared.withLock { $0.holding = true }
                    Thread.sleep(forTimeInterval: 0.05)
                } else {
                    shared.withLock { $0.holding = false }
                    Thread.sleep(forTimeInterval: Double.random(in: 0.1...0.3))
                    var budget = Self.bytesPerWake
                    while budget > 0, socket.readable() {
                        let message = try read(socket)
                        budget -= message.bytes
                        try handle(message.json)
                    }
                }
            }
        } catch RawSocket.Failure.closed(code: 1008) {
            // The daemon found the send queue full at once (a resume's missing batches did
            // not fit): next time start from a snapshot.
            shared.withLock { $0.overflowCloses += 1 }
            useCursor = false
        } catch {
            // The connection ended (a kill, or a read timeout while the daemon restarts): the
            // next session resumes. Undecodable messages were recorded by `handle` already.
            return
        }
    }

    /// Sends a request with a fresh id and handles other messages until its reply.
    private func request(_ socket: RawSocket, _ message: JSONValue) throws -> JSONValue {
        nextID += 1
        let id = nextID
        guard case .object(var members) = message else { throw RawSocket.Failure.protocolError("a request that is not an object") }
        members.append(("id", .number(Double(id))))
        try socket.send(text: JSONValue.object(members).jsonText)
        while true {
            let reply = try read(socket).json
            if reply["id"]?.intValue == id { return reply }
            try handle(reply)
        }
    }

    private func read(_ socket: RawSocket) throws -> (json: JSONValue, bytes: Int) {
        let bytes = try socket.readMessage()
        shared.withLock { $0.largestMessage = max($0.largestMessage, bytes.count) }
        return (try JSONParser(maxDepth: 512).parse(bytes), bytes.count)
    }

    /// A snapshot (the subscribe reply or a catch-up) resets the replica; a batch is recorded
    /// and applied.
    private func handle(_ message: JSONValue) throws {
        // Another target's messages are not the reader's; the schema is read before subscribing.
        guard let schema, message["target"]?.stringValue == Self.target else { return }
        shared.withLock { $0.messages += 1 }
        switch message["type"]?.stringValue {
        case "snapshot":
            let catchUp = message["reason"] == "catchUp"
            do {
                replica = Replica(snapshot: try StateCodec.decodeSnapshot(message, target: Self.target, schema: schema))
            } catch {
                fail("snapshot at seq \(message["seq"]?.intValue ?? -1): \(error)")
                throw error
            }
            record(["kind": "start", "seq": message["seq"] ?? .null, "resumed": false, "catchUp": .bool(catchUp)])
            publish { if catchUp { $0.catchUps += 1 } }
        case "batch":
            record([
                "kind": "batch", "seq": message["seq"] ?? .null, "commands": message["commands"] ?? .null,
                "effects": .string(ContentDigest.sha256Hex(message["effects"]?.serialized() ?? [])),
            ])
            guard var replica else {
                fail("batch \(message["seq"]?.intValue ?? -1) before any snapshot")
                return
            }
            do {
                try replica.apply(try StateCodec.decodeBatch(message, schema: schema, replica: replica))
            } catch {
                fail("batch \(message["seq"]?.intValue ?? -1) on replica at \(replica.seq): \(error)")
                throw error
            }
            self.replica = replica
            publish { $0.batches += 1 }
        default:
            break
        }
    }

    private func publish(_ update: (inout Shared) -> Void) {
        let seq = replica?.seq
        let digest = replica?.digest
        shared.withLock {
            update(&$0)
            $0.seq = seq
            $0.digest = digest
        }
    }

    private func fail(_ what: String) {
        shared.withLock { $0.failures.append(what) }
    }

    private func record(_ event: JSONValue) {
        guard case .object(let members) = event else { return }
        history.withLock { $0.record(.object([("client", .string(name))] + members)) }
    }
}
