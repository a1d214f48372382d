import RiveSyncModel

/// What a listener is told: a new value, one fire of a trigger, or the end of its stream.
enum ListenerEvent: Sendable {
    case value(RiveSyncModel.PropertyValue)
    case fired
    case finished((any Error)?)
}

/// One stream's own view of one path: the value it last reported. Every stream has its own
/// listener, so two identical streams never share state (unlike Rive's shared change flag).
struct Listener: Sendable {
    enum Kind: Sendable {
        case value
        case trigger
    }

    /// The instance the path starts at; nil for a target-relative path.
    var root: InstanceID?
    var path: String
    var kind: Kind
    /// The instance and value the path led to when last looked at.
    var lastInstance: InstanceID?
    var last: RiveSyncModel.PropertyValue?
    var sink: @Sendable (ListenerEvent) -> Void

    /// Compares the path's value in `replica` with the last one and reports the difference:
    /// a new value, or one `.fired` per fire counted since (a trigger whose path now leads to
    /// another instance starts counting afresh). A path that no longer resolves reports nothing.
    mutating func update(in replica: Replica, schema: FileSchema) {
        guard let resolved = try? ReplicaPath.resolve(path, from: root, in: replica, schema: schema) else { return }
        defer {
            lastInstance = resolved.instance
            last = resolved.value
        }
        switch kind {
        case .value:
            if resolved.value != last { sink(.value(resolved.value)) }
        case .trigger:
            guard resolved.instance == lastInstance, case .trigger(let now) = resolved.value,
                case .trigger(let before)? = last, now > before
            else { return }
            for _ in before..<now { sink(.fired) }
        }
    }
}
