/// The live state of one view model instance: its identity, view model and values.
public struct InstanceState: Sendable, Hashable {
    public var id: InstanceID
    /// The view model's name.
    public var viewModel: String
    /// The authored instance name it was created from ("" for blank instances).
    public var name: String
    /// Values keyed by property name.
    public var values: [String: PropertyValue]

    public init(id: InstanceID, viewModel: String, name: String, values: [String: PropertyValue]) {
        self.id = id
        self.viewModel = viewModel
        self.name = name
        self.values = values
    }

    /// The instances this one points at directly (nested values and list items), in property
    /// name order, list items in list order.
    public var children: [InstanceID] {
        var result: [InstanceID] = []
        for key in values.keys.sorted() {
            switch values[key] {
            case .viewModel(let child?): result.append(child)
            case .list(let items): result.append(contentsOf: items)
            default: break
            }
        }
        return result
    }
}

/// Where an instance is referenced from: a parent instance's property.
struct ParentLink: Hashable, Sendable {
    var parent: InstanceID
    var property: String
}

/// All live instances of one file (the source) or of one replica, by id, plus a derived
/// index of parent links used to find the paths an instance is reachable by.
public struct InstanceStore: Sendable {
    public private(set) var instances: [InstanceID: InstanceState] = [:]
    /// Derived: for each instance, the (parent, property) pairs that reference it, once per
    /// reference (a list holding an item twice gives two links).
    private(set) var parents: [InstanceID: [ParentLink]] = [:]
    /// Counts the store's changes: a path resolved at one revision leads to the same place
    /// while the revision is the same (`ResolvedProperty.revision`). It only grows, so two
    /// states of one store never share a revision.
    public private(set) var revision: UInt64 = 0
    /// Which instances the store holds and which properties each has: replaced whenever
    /// either changes (positions found under it hold while it is the same).
    private(set) var layout = Layout()

    public init() {}

    public subscript(id: InstanceID) -> InstanceState? { instances[id] }

    /// The value of one property of an instance, read where it lies: the dictionary's keyed read
    /// is inlined and loads the instance's values alone, where `self[id]` and a read by position
    /// (`instances.values[index]`, a getter the optimizer leaves out of line) copy the instance's
    /// whole state (its view model, name and values retained, then released).
    public func value(of id: InstanceID, property: String) -> PropertyValue? {
        instances[id]?.values[property]
    }

    /// The view model of an instance, read where it lies (as `value(of:property:)`: only the
    /// view model's text is retained; ~150 instructions fewer than a read by position).
    public func viewModel(of id: InstanceID) -> String? {
        instances[id]?.viewModel
    }

    /// Inserts or replaces an instance and keeps the parent index in step.
    mutating func upsert(_ state: InstanceState) {
        revision &+= 1
        layout = Layout()
        if let old = instances[state.id] { unlinkChildren(of: old) }
        instances[state.id] = state
        linkChildren(of: state)
    }

    /// Replaces one value and keeps the parent index in step. The instance is found once and
    /// changed through its index (through the dictionary's subscript, its accessor allocates a
    /// frame for the instance's state).
    mutating func setValue(_ value: PropertyValue, of id: InstanceID, property: String) {
        guard let instance = instances.index(forKey: id) else { return }
        revision &+= 1
        if let old = instances.values[instance].values.updateValue(value, forKey: property) {
            unlink(old, parent: id, property: property)
        } else {
            layout = Layout()
        }
        link(value, parent: id, property: property)
    }

    /// Replaces the value of a property the instance has, as a replica applies a `set`: the
    /// instance and the property each found once (checking both first, then `setValue`,
    /// found each twice).
    mutating func replaceValue(_ value: PropertyValue, of id: InstanceID, property: String) throws(ReplicaError) {
        guard let instance = instances.index(forKey: id) else { throw .unknownInstance(id) }
        guard let slot = instances.values[instance].values.index(forKey: property) else { throw .noProperty(id, property) }
        replace(value, instance: instance, value: slot, of: id, property: property)
    }

    /// Replaces the value at these positions (of `property` of `id`) and keeps the parent
    /// index in step. The old value is moved out, not copied, and links are only walked for
    /// values that hold instances.
    mutating func replace(
        _ value: PropertyValue, instance: InstancePosition, value slot: ValuePosition, of id: InstanceID, property: String
    ) {
        revision &+= 1
        var old = value
        swap(&old, &instances.values[instance].values.values[slot])
        if old.isInstanceReference { unlink(old, parent: id, property: property) }
        if value.isInstanceReference { link(value, parent: id, property: property) }
    }

    /// Removes an instance and its links to its children. Links to it from other instances
    /// are the caller's to remove first.
    mutating func remove(_ id: InstanceID) {
        guard let old = instances.removeValue(forKey: id) else { return }
        revision &+= 1
        layout = Layout()
        unlinkChildren(of: old)
        parents[id] = nil
    }

    /// Records a change that paths resolve through but that is kept outside the store: a
    /// target's bindings.
    mutating func bindingsChanged() { revision &+= 1 }

    /// Every instance reachable from `roots` (including them), each once, in visit order.
    public func closure(of roots: [InstanceID]) -> [InstanceID] {
        var seen = Set<InstanceID>()
        var order: [InstanceID] = []
        var stack = roots.reversed() as [InstanceID]
        while let id = stack.popLast() {
            guard seen.insert(id).inserted, let state = instances[id] else { continue }
            order.append(id)
            stack.append(contentsOf: state.children.reversed())
        }
        return order
    }

    private mutating func linkChildren(of state: InstanceState) {
        for (property, value) in state.values { link(value, parent: state.id, property: property) }
    }

    private mutating func unlinkChildren(of state: InstanceState) {
        for (property, value) in state.values { unlink(value, parent: state.id, property: property) }
    }

    private mutating func link(_ value: PropertyValue, parent: InstanceID, property: String) {
        for child in Self.children(of: value) {
            parents[child, default: []].append(ParentLink(parent: parent, property: property))
        }
    }

    private mutating func unlink(_ value: PropertyValue, parent: InstanceID, property: String) {
        for child in Self.children(of: value) {
            guard var links = parents[child],
                let at = links.firstIndex(of: ParentLink(parent: parent, property: property))
            else { continue }
            links.remove(at: at)
            parents[child] = links.isEmpty ? nil : links
        }
    }

    static func children(of value: PropertyValue) -> [InstanceID] {
        switch value {
        case .viewModel(let child?): return [child]
        case .list(let items): return items
        default: return []
        }
    }
}
