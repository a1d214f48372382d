/// Values by name, each in a slot that keeps its place while it holds the value: a `Handle`
/// to it stays good from one event to the next (until the value is removed), so an event
/// can carry a handle and find its value without hashing the name. The worker keeps its
/// files and targets this way (a `Dictionary.Index` holds only until something is added or
/// removed, so none could be kept across events).
///
/// Read and changed by name like a dictionary (`slots[name]`, nil removes), or by handle
/// (`slots[handle]`); iterated in slot order (`keys` in no particular order).
public struct NamedSlots<Value> {
    /// Where a value is, and which of the values that slot held: a handle of a removed value
    /// finds nothing (`contains`), even once its slot holds another.
    public struct Handle: Hashable, Sendable {
        /// The slot: a small index, for arrays kept beside the slots (compare the handles too).
        public let slot: Int
        let generation: UInt32
    }

    fileprivate struct Slot {
        var name: String
        var value: Value?
        /// Raised whenever the slot's value is removed.
        var generation: UInt32
    }

    private var slots: [Slot] = []
    private var free: [Int] = []
    private var byName: [String: Int] = [:]

    public init() {}

    /// How many values there are.
    public var count: Int { byName.count }

    public var isEmpty: Bool { byName.isEmpty }

    /// Every name, in no particular order.
    public var keys: Dictionary<String, Int>.Keys { byName.keys }

    /// Every value, in slot order.
    public var values: some Sequence<Value> { slots.lazy.compactMap(\.value) }

    /// The handle of the value named `name`, if there is one (one hash of the name).
    public func handle(of name: String) -> Handle? {
        guard let slot = byName[name] else { return nil }
        return Handle(slot: slot, generation: slots[slot].generation)
    }

    /// Whether `handle` still finds its value.
    public func contains(_ handle: Handle) -> Bool {
        handle.slot < slots.count && slots[handle.slot].generation == handle.generation && slots[handle.slot].value != nil
    }

    /// The name of the value `handle` finds (which must be there: `contains`).
    public func name(of handle: Handle) -> String {
        precondition(contains(handle), "a handle of a removed value")
        return slots[handle.slot].name
    }

    /// The value `handle` finds, which must be there (`contains`).
    public subscript(handle: Handle) -> Value {
        // Read in place (a value read through a getter would be copied, its references retained).
        _read {
            precondition(slots[handle.slot].generation == handle.generation, "a handle of a removed value")
            yield slots[handle.slot].value!
        }
        _modify {
            precondition(slots[handle.slot].generation == handle.generation, "a handle of a removed value")
            yield &slots[handle.slot].value!
        }
    }

    /// The value named `name`; setting nil removes it, setting a value adds it (in a free
    /// slot) or replaces it (in its slot, its handle still good).
    public subscript(name: String) -> Value? {
        _read {
            if let slot = byName[name] { yield slots[slot].value } else { yield nil }
        }
        set {
            if let slot = byName[name] {
                if let newValue { slots[slot].value = newValue } else { remove(at: slot) }
            } else if let newValue {
                add(newValue, as: name)
            }
        }
        _modify {
            if let slot = byName[name] {
                // Moved out and back, not copied: a value changed in place stays unshared.
                var value = slots[slot].value.take()
                defer { if value != nil { slots[slot].value = value.take() } else { remove(at: slot) } }
                yield &value
            } else {
                var value: Value?
                defer { if let added = value.take() { add(added, as: name) } }
                yield &value
            }
        }
    }

    private mutating func add(_ value: Value, as name: String) {
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            slots[slot].name = name
            slots[slot].value = value
        } else {
            slot = slots.count
            slots.append(Slot(name: name, value: value, generation: 0))
        }
        byName[name] = slot
    }

    private mutating func remove(at slot: Int) {
        byName[slots[slot].name] = nil
        slots[slot].value = nil
        slots[slot].name = ""
        slots[slot].generation &+= 1
        free.append(slot)
    }
}

extension NamedSlots: Sendable where Value: Sendable {}

extension NamedSlots.Slot: Sendable where Value: Sendable {}

extension NamedSlots: Sequence {
    /// The names and values, in slot order.
    public func makeIterator() -> some IteratorProtocol<(key: String, value: Value)> {
        slots.lazy.compactMap { slot in slot.value.map { (key: slot.name, value: $0) } }.makeIterator()
    }
}
