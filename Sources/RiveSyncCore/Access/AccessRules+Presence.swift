import RiveSyncModel
import RiveSyncProtocol

extension Grants {
    /// What a presence request needs that these grants lack (PROTOCOL.md §15): `seePresence`
    /// on the target for `presenceList`, `publishPresence` for joining, updating and leaving.
    public func denial(of request: PresenceRequest) -> Denial? {
        let permission: Permission
        switch request {
        case .list: permission = .seePresence
        case .join, .update, .leave: permission = .publishPresence
        }
        return allows(permission, on: request.target, at: "") ? nil : Denial(permission: permission, target: request.target, path: nil)
    }

    /// Whether this connection's subscriptions to `target` carry its presence.
    public func seesPresence(of target: String) -> Bool { allows(.seePresence, on: target, at: "") }
}
