/// A value's fields behind one reference, shared by copies of the value until one of them
/// changes (copy on write): copying the value, or reading it out of a dictionary, costs one
/// reference count instead of one per field, and changing it in place in a dictionary moves
/// one word (a larger value needs a heap frame for each in-place access). `FileRuntime` and
/// `Target` keep their fields this way (bench/README.md, "Instructions per set").
///
/// The fields are the header of a `ManagedBuffer`, one allocation for the object and the
/// fields together, and are reached through a pointer, so that an access needs no run-time
/// exclusivity check (a class's stored property costs one on every access): the owning
/// value's own accesses give the exclusivity instead, as for a struct's stored properties,
/// and it changes only fields no other value shares (`unique(_:)`).
struct SharedFields<Fields>: @unchecked Sendable {
    private var block: ManagedBuffer<Fields, Void>

    init(_ value: Fields) {
        block = .create(minimumCapacity: 0) { _ in value }
    }

    /// The fields, where they lie in the block (valid while a value holds the block).
    var fields: UnsafeMutablePointer<Fields> { block.withUnsafeMutablePointerToHeader { $0 } }

    /// Whether two values share their fields.
    static func === (a: SharedFields, b: SharedFields) -> Bool { a.block === b.block }

    /// The fields of `storage` to change: copied into storage of their own first when another
    /// value shares them.
    static func unique(_ storage: inout SharedFields) -> UnsafeMutablePointer<Fields> {
        if !isKnownUniquelyReferenced(&storage.block) { storage = SharedFields(storage.fields.pointee) }
        return storage.fields
    }
}
