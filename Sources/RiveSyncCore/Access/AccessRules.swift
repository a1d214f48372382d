import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// A permission a request needs and the grants lack: becomes error `forbidden`, which names
/// what was missing and never carries a value.
public struct Denial: Sendable, Hashable {
    public var permission: Permission
    public var target: String?
    public var path: String?

    public init(permission: Permission, target: String? = nil, path: String? = nil) {
        self.permission = permission
        self.target = target
        self.path = path
    }

    public var error: WireError {
        var details: [(String, JSONValue)] = [("scope", .string(permission.rawValue))]
        var message = "this connection lacks '\(permission.rawValue)'"
        if let target {
            details.append(("target", .string(target)))
            message += " on target '\(target)'"
        }
        if let path {
            details.append(("path", .string(path)))
            message += path.isEmpty ? " (the whole target)" : " at '\(path)'"
        }
        return WireError(code: .forbidden, message: message, details: details)
    }
}

extension Grants {
    /// What `request` needs that these grants lack, or nil when it is allowed. Checked before
    /// the target is looked up, so a forbidden request does not learn whether it exists.
    ///
    /// Listing, `ping` and `unsubscribe` need only an authenticated connection (`listTargets`
    /// shows only what `shows` allows). Requests that attach an existing instance by id
    /// (`listAppend`, `listInsert`, `set` of `{"instance": id}`, `bind`) also need `create`,
    /// since the instance may come from a target the connection cannot read.
    public func denial(of request: ClientRequest) -> Denial? {
        switch request {
        case .hello, .ping, .listFiles, .listTargets, .describe, .viewModelNames, .globalViewModelNames, .instanceNames, .properties,
            .enums, .artboardNames, .stateMachineNames, .defaultViewModelInfo, .unsubscribe:
            return nil
        case .createInstance, .createStateMachine, .publish:
            return need(.create)
        case .upload, .loadFile:
            return need(.load)
        case .bind(let target, _, _), .deleteTarget(let target):
            return need(.create) ?? need(.write, target, "")
        case .subscribe(let target, let paths, _):
            return (paths ?? [""]).lazy.compactMap { need(.read, target, $0) }.first
        case .get(let target, let path):
            return need(.read, target, path)
        case .digest(let target):
            return need(.read, target, "")
        case .set(let target, let path, let value):
            return need(.write, target, path) ?? (value["instance"] == nil ? nil : need(.create))
        case .fire(let target, let path):
            return need(.fire, target, path)
        case .setInput(let target, _, _):
            return need(.write, target, "")
        case .fireInput(let target, _):
            return need(.fire, target, "")
        case .setBindTarget(let target, _, _):
            return need(.write, target, "")
        case .listAppend(let target, let path, _), .listInsert(let target, let path, _, _):
            return need(.write, target, path) ?? need(.create)
        case .listRemoveAt(let target, let path, _), .listRemove(let target, let path, _), .listSwap(let target, let path, _, _):
            return need(.write, target, path)
        case .transaction(let transaction):
            // The connection core checks each command itself, to name the failing one's index.
            return transaction.commands.lazy.compactMap { denial(of: $0) }.first
        case .advance(let target, _):
            return allowsSomewhere(.write, on: target) || allowsSomewhere(.fire, on: target)
                ? nil : Denial(permission: .write, target: target)
        case .presence(let request):
            return denial(of: request)
        }
    }

    /// Whether `listTargets` shows `target`: the connection has some permission on it.
    public func shows(_ target: String) -> Bool {
        [Permission.read, .write, .fire].contains { allowsSomewhere($0, on: target) }
    }

    private func need(_ permission: Permission) -> Denial? {
        allows(permission) ? nil : Denial(permission: permission)
    }

    private func need(_ permission: Permission, _ target: String, _ path: String) -> Denial? {
        allows(permission, on: target, at: path) ? nil : Denial(permission: permission, target: target, path: path)
    }

    private func need(_ permission: Permission, _ target: String, _ path: ParsedPath) -> Denial? {
        allows(permission, on: target, at: path) ? nil : Denial(permission: permission, target: target, path: path.text)
    }
}

extension Grants: RequestGrants {
    public var mayCreate: Bool { allows(.create) }

    public func may(_ access: TargetAccess, on target: String, at path: String) -> Bool {
        allows(Permission(access), on: target, at: path)
    }

    public func may(_ access: TargetAccess, on target: String, at path: ParsedPath) -> Bool {
        allows(Permission(access), on: target, at: path)
    }

    public func mayWithin(_ access: TargetAccess, on target: String, at path: String) -> Bool {
        allowsWithin(Permission(access), on: target, at: path)
    }

    public func mayWithin(_ access: TargetAccess, on target: String, at path: ParsedPath) -> Bool {
        allowsWithin(Permission(access), on: target, at: path)
    }
}
