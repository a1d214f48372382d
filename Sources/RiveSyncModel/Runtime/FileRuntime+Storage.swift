extension FileRuntime {
    /// What a runtime holds, behind one reference that copies share until one of them changes
    /// (`SharedFields`): the worker reads its runtimes out of a dictionary several times per
    /// set.
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
}
