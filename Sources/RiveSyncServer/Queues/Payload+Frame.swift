import RiveSyncCore
import RiveSyncTransport

extension Payload {
    /// A frame's text message: its bytes where the core wrote them when they have the
    /// transport's headroom in front (`WorkerSettings.frameHeadroom`), else a copy.
    init(_ frame: Frame) {
        let storage = frame.storage
        if storage.headroom >= Payload.headroom {
            self.init(sharing: storage.unsafeMessageStart, count: storage.count, isText: true, owner: storage.owner)
        } else {
            self.init(bytes: frame.bytes, isText: true)
        }
    }
}
