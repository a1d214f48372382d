import RiveSyncModel
import RiveSyncProtocol

/// What a connection may do on targets, as the worker core asks it (the shell's scopes answer).
public protocol RequestGrants: Sendable {
    /// Whether the connection may create instances, state machines and bindings.
    var mayCreate: Bool { get }
    /// `access` on `target` at `path` ("" = the whole target).
    func may(_ access: TargetAccess, on target: String, at path: String) -> Bool
    /// `access` on `target` at a request's path, parsed already (its segments are not split
    /// again).
    func may(_ access: TargetAccess, on target: String, at path: ParsedPath) -> Bool
    /// `access` at `path` of `target` or somewhere under it.
    func mayWithin(_ access: TargetAccess, on target: String, at path: String) -> Bool
    /// `mayWithin` at a request's path, parsed already.
    func mayWithin(_ access: TargetAccess, on target: String, at path: ParsedPath) -> Bool
    /// Whether the connection's subscriptions to `target` carry its presence (`seePresence`).
    func seesPresence(of target: String) -> Bool
    /// Who joins presence on this connection: presence keys are scoped by it (PROTOCOL.md §15).
    var presenceOwner: PresenceOwner { get }
}

/// An access to a target's paths.
public enum TargetAccess: Sendable, Equatable {
    case read, write, fire
}

extension RequestGrants {
    public func may(_ access: TargetAccess, on target: String, at path: ParsedPath) -> Bool {
        may(access, on: target, at: path.text)
    }

    public func mayWithin(_ access: TargetAccess, on target: String, at path: ParsedPath) -> Bool {
        mayWithin(access, on: target, at: path.text)
    }

    /// The error to send for `request`. A connection that may not read where a command went
    /// (a write-only token) gets the code and the path, but not what the error learned about
    /// the state: types, list lengths, allowed enum values, instance ids.
    public func visible(_ error: WireError, for request: ClientRequest) -> WireError {
        guard let (target, path) = request.commandLocation, !may(.read, on: target, at: path) else { return error }
        return error.withoutState(path: path.text)
    }
}

extension WireError {
    /// The error with only its code and `path` (see `RequestGrants.visible`).
    public func withoutState(path: String) -> WireError {
        WireError(code: code, message: "'\(path)': \(code.rawValue) (details need read permission)", details: [("path", .string(path))])
    }
}

extension ClientRequest {
    /// The target and path a command writes to, for commands that write to one.
    public var commandLocation: (target: String, path: ParsedPath)? {
        switch self {
        case .set(let target, let path, _), .fire(let target, let path), .listAppend(let target, let path, _),
            .listInsert(let target, let path, _, _), .listRemoveAt(let target, let path, _), .listRemove(let target, let path, _),
            .listSwap(let target, let path, _, _):
            return (target, path)
        default:
            return nil
        }
    }
}
