internal import RiveSyncModel

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
    /// The name of the property the path led to when last looked at.
    var lastProperty: String?
    var last: RiveSyncModel.PropertyValue?
    var sink: @Sendable (ListenerEvent) -> Void

    /// The property the listener watches now, as effects name it; nil while its path does not resolve.
    var watched: WatchedProperty? {
        guard let lastInstance, let lastProperty else { return nil }
        return WatchedProperty(instance: lastInstance, property: lastProperty)
    }

    /// Compares the path's value in `replica` with the last one and reports the difference:
    /// a new value, or one `.fired` per fire counted since (a trigger whose path now leads to
    /// another instance starts counting afresh). A path that no longer resolves reports nothing.
    mutating func update(in replica: Replica, schema: FileSchema) {
        // A path that no longer resolves (a list item removed) reports nothing, as documented.
        guard let resolved = try? ReplicaPath.resolve(path, from: root, in: replica, schema: schema) else { return }
        defer {
            lastInstance = resolved.instance
            lastProperty = resolved.property.name
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

/// An instance's property: what a value effect changes and what a listener's path leads to.
struct WatchedProperty: Sendable, Hashable {
    var instance: InstanceID
    var property: String
}

extension Effect {
    /// The one property whose value a value-only effect changes; nil for an effect that can
    /// change where paths lead (list edits, binds, a set of a view model or list, a set that
    /// introduces instances), after which every listener looks again.
    var valueOnlyChange: WatchedProperty? {
        switch change {
        case .set(let instance, let property, let value, let introduced):
            switch value {
            case .viewModel, .list: return nil
            default: return introduced.isEmpty ? WatchedProperty(instance: instance, property: property) : nil
            }
        case .fire(let instance, let property): return WatchedProperty(instance: instance, property: property)
        case .listInsert, .listRemove, .listSwap, .bind: return nil
        }
    }
}
