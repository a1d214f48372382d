extension FileRuntime {
    /// What a runtime holds. Stored once per runtime behind one reference (`Storage`), which
    /// copies share until one of them changes: a copy of a runtime, or a read of one kept in
    /// a dictionary, costs one reference count instead of one per field (the worker reads
    /// its runtimes several times per set: bench/README.md, "Halving a set's instructions").
    struct Fields {
        let schema: FileSchema
        var limits: ModelLimits
        var coalescing: CoalescingPolicy
        var store = InstanceStore()
        var nextInstanceID: UInt64
        var targets: [String: Target] = [:]
        var targetNames: [String] = []
        var retiredTargets: [String: Int] = [:]
        var restartedStateMachines: [String: String] = [:]
        var rootSlots: [InstanceID: [RootSlot]] = [:]

        init(schema: FileSchema, limits: ModelLimits, coalescing: CoalescingPolicy, nextInstanceID: UInt64) {
            self.schema = schema
            self.limits = limits
            self.coalescing = coalescing
            self.nextInstanceID = nextInstanceID
        }
    }

    /// The fields at a fixed address, reached through a pointer: the runtime's properties read
    /// and write them there without the run-time exclusivity check a class's stored property
    /// costs on every access. `FileRuntime`'s own accesses give the exclusivity instead (a
    /// `mutating` method has the runtime to itself), and it writes only fields no other
    /// runtime shares (`unique`).
    final class Storage: @unchecked Sendable {
        let fields: UnsafeMutablePointer<Fields>

        init(_ value: Fields) {
            fields = .allocate(capacity: 1)
            fields.initialize(to: value)
        }

        deinit {
            fields.deinitialize(count: 1)
            fields.deallocate()
        }
    }
}
