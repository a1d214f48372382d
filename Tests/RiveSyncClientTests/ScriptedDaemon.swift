import Foundation
import RiveSyncWebSocket

/// A daemon double behind the client's transport seam: it answers `hello` with a `welcome`
/// and every other request with what `answer` returns for its type and id (raw frames, so a
/// test can send what no real daemon would). It records the close codes the client sends.
final class ScriptedDaemon: WebSocketTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let answer: @Sendable (_ type: String, _ id: Int) -> [String]
    private var closes: [UInt16] = []

    init(answer: @escaping @Sendable (_ type: String, _ id: Int) -> [String]) {
        self.answer = answer
    }

    /// The close codes the client has sent, in order.
    var closeCodes: [UInt16] { lock.withLock { closes } }

    func connect(to url: String, subprotocol: String) throws -> (connection: any WebSocketConnection, events: AsyncStream<WebSocketEvent>) {
        let (events, continuation) = AsyncStream.makeStream(of: WebSocketEvent.self)
        continuation.yield(.opened(subprotocol: subprotocol))
        return (Connection(daemon: self, events: continuation), events)
    }

    fileprivate func closed(_ code: UInt16) { lock.withLock { closes.append(code) } }

    fileprivate func frames(for text: String) -> [String] {
        guard let request = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let type = request["type"] as? String
        else { return [] }
        guard let id = request["id"] as? Int else { return [] }
        if type == "hello" {
            return [#"{"type":"welcome","id":\#(id),"protocol":1,"server":"scripted","epoch":"e1","limits":{"maxTargets":10}}"#]
        }
        return answer(type, id)
    }

    private struct Connection: WebSocketConnection {
        let daemon: ScriptedDaemon
        let events: AsyncStream<WebSocketEvent>.Continuation

        func send(text: String) {
            for frame in daemon.frames(for: text) { events.yield(.message(Array(frame.utf8))) }
        }

        func close(code: UInt16, reason: String) {
            daemon.closed(code)
            events.yield(.closed(code: code, reason: reason))
            events.finish()
        }
    }
}
