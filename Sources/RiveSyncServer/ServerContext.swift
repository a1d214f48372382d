import Foundation
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport
import Synchronization

/// What every part of the daemon shares: configuration, the directory, counters, the asset
/// store, the epoch, and the way out to the transport.
final class ServerContext: Sendable {
    let configuration: DaemonConfiguration
    let limits: Locked<Limits>
    let directory = Directory()
    let metrics: DaemonMetrics
    let assets: AssetStore
    let epoch: String
    let log: Log
    /// Where state persists, if anywhere.
    let stateDirectory: StateDirectory?
    private let commandCounter = Atomic<UInt64>(0)
    private let server = Locked<WebSocketServer?>(nil)

    init(configuration: DaemonConfiguration, epoch: String, log: Log, stateDirectory: StateDirectory? = nil) {
        self.stateDirectory = stateDirectory
        self.configuration = configuration
        self.limits = Locked(configuration.limits)
        self.metrics = DaemonMetrics(maxTargetLabels: configuration.maxTargetLabels)
        self.assets = AssetStore(capacityBytes: max(configuration.limits.maxAssetBytes * 16, 64 << 20))
        self.epoch = epoch
        self.log = log
    }

    func attach(_ server: WebSocketServer) { self.server.withLock { $0 = server } }

    /// A daemon-wide command number (acks and batches carry it).
    func nextCommandNumber() -> UInt64 { commandCounter.add(1, ordering: .relaxed).newValue }

    /// After a restart: new command numbers continue above the journaled ones.
    func ensureCommandNumbers(above highest: UInt64) {
        var current = commandCounter.load(ordering: .relaxed)
        while current < highest {
            let (exchanged, original) = commandCounter.compareExchange(expected: current, desired: highest, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// Hands transport commands to the service thread in one submit (one lock, one wakeup).
    func submit(_ commands: [WebSocketServer.Command]) {
        guard !commands.isEmpty else { return }
        server.withLock { $0 }?.submit(commands)
    }

    /// Bytes queued for a session on the service thread (a recent snapshot).
    func queuedBytes(_ session: SessionID) -> Int {
        server.withLock { $0 }?.queuedBytes(session) ?? 0
    }

    /// Bytes queued on the service thread for all sessions together (a recent snapshot).
    func totalQueuedBytes() -> Int {
        server.withLock { $0 }?.totalQueuedBytes ?? 0
    }

    /// Encodes a message once as a shareable text payload.
    static func payload(_ message: ServerMessage) -> Payload {
        Payload(bytes: message.serialized(), isText: true)
    }

    /// Sends one message to one session.
    func send(_ message: ServerMessage, to session: SessionID) {
        submit([.send(Self.payload(message), to: [session])])
    }

    /// Sends an error reply and counts it.
    func sendError(_ error: WireError, id: JSONValue?, to session: SessionID) {
        metrics.recordError(code: error.code.rawValue)
        send(.error(error, id: id), to: session)
    }
}
