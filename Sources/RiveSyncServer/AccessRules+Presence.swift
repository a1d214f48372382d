import RiveSyncCore
import RiveSyncModel
import RiveSyncProtocol

extension Grants {
    /// What a presence request needs that these grants lack (PROTOCOL.md §15): `seePresence`
    /// on the target for `presenceList`, `publishPresence` for joining, updating and leaving.
    func denial(of request: PresenceRequest) -> Denial? {
        let permission: Permission
        switch request {
        case .list: permission = .seePresence
        case .join, .update, .leave: permission = .publishPresence
        }
        return allows(permission, on: request.target, at: "") ? nil : Denial(permission: permission, target: request.target, path: nil)
    }

    /// Whether this connection's subscriptions to `target` carry its presence.
    func seesPresence(of target: String) -> Bool { allows(.seePresence, on: target, at: "") }

    /// These grants as looked up for `owner` (a token's name scopes its presence keys).
    func owned(by owner: PresenceOwner) -> Grants {
        var grants = self
        grants.presenceOwner = owner
        return grants
    }
}
