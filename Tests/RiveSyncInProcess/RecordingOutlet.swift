import Foundation
import RiveSyncJSON
import RiveSyncServer
import RiveSyncTransport

/// The transport side of an in-process daemon: records every message the daemon submits per
/// session (decoded), the close codes, and answers the queue sizes a test sets (to drive
/// back-pressure without a slow socket). A session opened with a receiver gets its messages
/// and its close handed to that receiver instead, as a socket would carry them.
/// `@unchecked Sendable`: every `var` is read and written only while `lock` is held.
package final class RecordingOutlet: TransportOutlet, @unchecked Sendable {
    /// What the daemon hands a session's receiver.
    package enum Delivery: Sendable {
        /// A text message's bytes.
        case message([UInt8])
        /// The daemon closed the session with this code.
        case closed(UInt16)
    }

    private let lock = NSLock()
    private var received: [SessionID: [JSONValue]] = [:]
    private var closes: [SessionID: UInt16] = [:]
    private var queued: [SessionID: Int] = [:]
    private var receivers: [SessionID: @Sendable (Delivery) -> Void] = [:]

    package func submit(_ commands: [WebSocketServer.Command]) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        for command in commands {
            switch command {
            case .send(let payload, let ids):
                let bytes = payload.withUnsafeBytes { Array($0) }
                for id in ids where closes[id] == nil {
                    if let receiver = receivers[id] {
                        receiver(.message(bytes))
                    } else {
                        let json =
                            (try? JSONParser().parse(bytes)) ?? .string("undecodable: \(String(decoding: bytes, as: UTF8.self))")
                        received[id, default: []].append(json)
                    }
                }
            case .close(let id, let code, _):
                guard closes[id] == nil else { continue }
                closes[id] = code
                receivers.removeValue(forKey: id)?(.closed(code))
            default:
                break
            }
        }
        return true
    }

    /// Hands what the daemon sends `id` to `receiver` from now on (it is called under this
    /// outlet's lock, in the order the daemon sent).
    func deliver(_ id: SessionID, to receiver: @escaping @Sendable (Delivery) -> Void) { lock.withLock { receivers[id] = receiver } }

    /// Stops handing `id`'s messages to its receiver (the client side closed it).
    func stopDelivering(_ id: SessionID) { lock.withLock { _ = receivers.removeValue(forKey: id) } }

    package func queuedBytes(_ id: SessionID) -> Int? { lock.withLock { queued[id] ?? 0 } }
    package var totalQueuedBytes: Int { lock.withLock { queued.values.reduce(0, +) } }

    /// Pretends `bytes` are waiting to be written to `id`.
    package func setQueued(_ bytes: Int, for id: SessionID) { lock.withLock { queued[id] = bytes } }

    /// Takes the first message for `id` that matches (removing it), if any.
    package func take(_ id: SessionID, where matches: (JSONValue) -> Bool = { _ in true }) -> JSONValue? {
        lock.withLock {
            guard let index = received[id]?.firstIndex(where: matches) else { return nil }
            return received[id]!.remove(at: index)
        }
    }

    /// Takes every message for `id` that matches, in order.
    package func takeAll(_ id: SessionID, where matches: (JSONValue) -> Bool) -> [JSONValue] {
        lock.withLock {
            let taken = received[id]?.filter(matches) ?? []
            received[id]?.removeAll(where: matches)
            return taken
        }
    }

    /// Every message for `id` not taken yet.
    package func all(_ id: SessionID) -> [JSONValue] { lock.withLock { received[id] ?? [] } }

    package func closeCode(_ id: SessionID) -> UInt16? { lock.withLock { closes[id] } }
}
