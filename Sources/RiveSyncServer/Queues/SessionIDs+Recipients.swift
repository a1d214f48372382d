import RiveSyncCore
import RiveSyncTransport

extension SessionIDs {
    /// The sessions of a core's recipients: their raw values as they are, no array made.
    init(_ recipients: Recipients) {
        switch recipients.rawValues {
        case .one(let id): self.init(id)
        case .list(let ids): self.init(ids)
        }
    }
}
