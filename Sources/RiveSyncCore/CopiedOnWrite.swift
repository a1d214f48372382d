/// A value held through one reference and copied only when changed while shared.
///
/// For the core's per-connection and per-target state kept in dictionaries and changed in
/// place (`states[id]!.value.busy = true`): a dictionary's in-place access to a value larger
/// than a few words allocates a heap frame for each access and moves the whole value; one
/// reference does neither (bench/README.md, "Allocations and copies").
struct CopiedOnWrite<Value> {
    private var box: Box

    init(_ value: Value) { box = Box(value) }

    /// The value; changing it copies it first if another `CopiedOnWrite` shares it. Read in
    /// place: reading one of its fields does not copy the others.
    var value: Value {
        _read { yield box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }

    /// Its value carries no run-time exclusivity check: it is changed only through `value`'s
    /// `_modify`, inside the owner's own (statically checked) access, once no other
    /// `CopiedOnWrite` shares the box.
    private final class Box {
        @exclusivity(unchecked) var value: Value
        init(_ value: Value) { self.value = value }
    }
}

// Unchecked: the box is written only through `value`'s `_modify`, which copies it first unless
// this is its only reference, so a box shared between threads is never written.
extension CopiedOnWrite: @unchecked Sendable where Value: Sendable {}
