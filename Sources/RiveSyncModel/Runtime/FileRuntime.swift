/// The live side of one loaded file: its instances and its targets (state machines and
/// published instances), with queued operations applied in order on each advance.
///
/// A `FileRuntime` is a value with no I/O and no clock. The same calls in the same order
/// always give the same ids, batches and digests. It is not thread-safe by itself: the
/// daemon owns each one on a single worker.
public struct FileRuntime: Sendable {
    /// The fields, shared by copies of the runtime until one of them changes.
    private var storage: SharedFields<Fields>

    /// The fields, unshared first: a copy of the runtime keeps the fields it had.
    private var unique: UnsafeMutablePointer<Fields> { mutating get { SharedFields.unique(&storage) } }

    public var schema: FileSchema { storage.fields.pointee.schema }
    public var limits: ModelLimits {
        _read { yield storage.fields.pointee.limits }
        set { unique.pointee.limits = newValue }
    }
    public var coalescing: CoalescingPolicy {
        _read { yield storage.fields.pointee.coalescing }
        set { unique.pointee.coalescing = newValue }
    }
    public internal(set) var store: InstanceStore {
        _read { yield storage.fields.pointee.store }
        _modify { yield &unique.pointee.store }
    }
    var nextInstanceID: UInt64 {
        _read { yield storage.fields.pointee.nextInstanceID }
        _modify { yield &unique.pointee.nextInstanceID }
    }
    /// Targets by name, plus their creation order (batches of one advance follow it).
    var targets: [String: Target] {
        _read { yield storage.fields.pointee.targets }
        _modify { yield &unique.pointee.targets }
    }
    public internal(set) var targetNames: [String] {
        _read { yield storage.fields.pointee.targetNames }
        _modify { yield &unique.pointee.targetNames }
    }
    /// Names of deleted targets and the generation each had, so that a new target with the
    /// name gets the next one.
    public internal(set) var retiredTargets: [String: Int] {
        _read { yield storage.fields.pointee.retiredTargets }
        _modify { yield &unique.pointee.retiredTargets }
    }
    /// The state machines a restore started again at their entry states because their saved
    /// state does not fit the file (it changed): target → why. Empty but after such a restore.
    public internal(set) var restartedStateMachines: [String: String] {
        _read { yield storage.fields.pointee.restartedStateMachines }
        _modify { yield &unique.pointee.restartedStateMachines }
    }
    /// Every bound instance → the target slots it is bound in (kept with the targets), so a
    /// change finds the targets that see it from its instance instead of trying every target.
    var rootSlots: [InstanceID: [RootSlot]] {
        _read { yield storage.fields.pointee.rootSlots }
        _modify { yield &unique.pointee.rootSlots }
    }

    /// Applies a change to the store and a target's bindings together (both changed at once,
    /// which two properties of the runtime could not be).
    /// `target`: the target's index in `targets`. Through the index: changed through the
    /// dictionary's subscript, the target costs the subscript's accessor a `malloc` too (once
    /// per applied command).
    mutating func changeStore<R, E>(
        andBindingsOf target: TargetIndex, _ body: (inout InstanceStore, inout [Binding]) throws(E) -> R
    ) throws(E) -> R {
        let fields = unique
        return try body(&fields.pointee.store, &fields.pointee.targets.values[target].bindings)
    }

    /// Where a target is in `targets`: valid until a target is added or removed (an advance
    /// adds or removes none, so it finds its target by name once and then goes by index).
    typealias TargetIndex = [String: Target].Index

    /// - Parameter firstInstanceID: the id of the first instance; a daemon gives each file
    ///   its own range so that ids never collide across files.
    public init(
        schema: FileSchema, limits: ModelLimits = ModelLimits(), coalescing: CoalescingPolicy = .latestValue,
        firstInstanceID: UInt64 = 1
    ) {
        storage = SharedFields(
            Fields(schema: schema, limits: limits, coalescing: coalescing, nextInstanceID: max(firstInstanceID, 1)))
    }

    /// The target with this name.
    public func target(_ name: String) throws(StateMachineError) -> Target {
        guard let target = targets[name] else { throw .unknownTarget(name) }
        return target
    }

    /// A target's generation (`Target.generation`), read in place; nil for an unknown target.
    public func generation(of targetName: String) -> Int? { targets[targetName]?.generation }

    /// Queues an operation on a target; it applies on the target's next advance.
    public mutating func enqueue(_ command: QueuedCommand, on targetName: String) throws(StateMachineError) {
        guard let index = targets.index(forKey: targetName) else { throw .unknownTarget(targetName) }
        targets.values[index].queue.append(command)
    }

    /// Checks a command against the current state without queueing it: the error it would
    /// get if it applied now. (A queued command can still fail later, when earlier commands
    /// have changed the state by the time it applies.) `resolved`: where the command's path
    /// leads in this state, resolved already (not resolved again).
    public func validate(_ command: Command, on targetName: String, resolved: ResolvedProperty? = nil) throws {
        if command.drivesStateMachine {
            try checkInput(command, on: targetName)
            return try checkBindTarget(command, on: targetName)
        }
        try plan(command, in: try target(targetName), resolved: resolved)
    }

    /// Whether any target has queued commands.
    public var hasQueuedCommands: Bool { targets.values.contains { !$0.queue.isEmpty } }

    /// Reads the current value at a path of a target (the state as of its last batch).
    public func value(at path: String, in targetName: String) throws -> PropertyValue {
        let target = try target(targetName)
        return try resolve(path, in: target).value
    }

    /// The descriptor of the property a path leads to.
    public func property(at path: String, in targetName: String) throws -> PropertySchema {
        let target = try target(targetName)
        return try resolve(path, in: target).property
    }

    /// The target's bindings and every reachable instance, at its current seq.
    public func snapshot(of targetName: String) throws(StateMachineError) -> TargetSnapshot {
        let target = try target(targetName)
        let ids = store.closure(of: target.roots.map(\.id))
        return TargetSnapshot(
            target: target.name, seq: target.seq, bindings: target.bindings, instances: ids.compactMap { store[$0] })
    }

    /// The state digest of a target (see `StateDigest`).
    public func digest(of targetName: String) throws(StateMachineError) -> String {
        let target = try target(targetName)
        return StateDigest.digest(bindings: target.bindings, store: store)
    }

    /// Makes an instance a target of its own under `name` (for example the shared `theme`).
    public mutating func publish(_ instance: InstanceID, as name: String) throws(StateMachineError) {
        guard targets[name] == nil else { throw .targetExists(name) }
        guard store[instance] != nil else { throw .unknownInstance(instance) }
        addTarget(Target(name: name, kind: .publishedInstance, bindings: [Binding(slot: .main, instance: instance)]))
    }

    /// Adds a new target: a name used before by deleted targets gets the next generation.
    mutating func addTarget(_ target: Target) {
        var target = target
        target.generation = retiredTargets[target.name].map { $0 + 1 } ?? 0
        targets[target.name] = target
        targetNames.append(target.name)
        indexRoots(of: target)
    }

    /// Adds a target's bound slots to `rootSlots`.
    mutating func indexRoots(of target: Target) {
        for root in target.roots { rootSlots[root.id, default: []].append(RootSlot(target: target.name, prefix: root.prefix)) }
    }

    /// Takes a target's bound slots out of `rootSlots`.
    mutating func unindexRoots(of target: Target) {
        for root in target.roots {
            rootSlots[root.id]?.removeAll { $0.target == target.name }
            if rootSlots[root.id]?.isEmpty == true { rootSlots[root.id] = nil }
        }
    }

    mutating func allocateInstanceID() -> InstanceID {
        defer { nextInstanceID += 1 }
        return InstanceID(nextInstanceID)
    }
}
