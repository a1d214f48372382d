/// A change queued on a target; it applies, in arrival order, on the target's next advance.
public enum Command: Sendable, Hashable {
    /// Sets a number, string, boolean, color, enum, image/font/blob, artboard or symbol list
    /// index value, or replaces a nested instance (`.viewModel(id)`).
    case set(path: String, value: PropertyValue)
    /// Fires a trigger.
    case fire(path: String)
    /// Appends an instance to a list.
    case listAppend(path: String, instance: InstanceID)
    /// Inserts an instance into a list at `index` (0…count).
    case listInsert(path: String, index: Int, instance: InstanceID)
    /// Removes the item at `index`.
    case listRemoveAt(path: String, index: Int)
    /// Removes every occurrence of `instance` from the list.
    case listRemove(path: String, instance: InstanceID)
    /// Swaps two items.
    case listSwap(path: String, index: Int, with: Int)
    /// Binds instances to slots (validated when queued; see `FileRuntime.bind`).
    case bind([Binding])
    /// Sets a legacy state machine input (Rive's `SMINumber.value`: `.number`,
    /// `SMIBool.value`: `.boolean`).
    case setInput(name: String, value: PropertyValue)
    /// Fires a legacy trigger input (Rive's `SMITrigger.fire()`).
    case fireInput(name: String)
    /// Writes the target side of one of the artboard's data binds (`bind`: its number in
    /// Rive's order, `DataBindOrder`, as `inspect --graph` numbers them; nested artboards'
    /// binds are numbered on after them, `bindAddresses`), as an interactive
    /// component would: to-source and two-way binds carry it to the view model.
    case setBindTarget(bind: Int, value: PropertyValue)

    /// The path the operation addresses ("" for a bind, an input or a bind target: the whole
    /// target).
    public var path: String {
        switch self {
        case .set(let path, _), .fire(let path), .listAppend(let path, _), .listInsert(let path, _, _),
            .listRemoveAt(let path, _), .listRemove(let path, _), .listSwap(let path, _, _):
            return path
        case .bind, .setInput, .fireInput, .setBindTarget: return ""
        }
    }

    /// Whether the command drives the state machine (an input, a data bind's target) rather
    /// than view-model state.
    public var drivesStateMachine: Bool {
        switch self {
        case .setInput, .fireInput, .setBindTarget: return true
        default: return false
        }
    }
}

/// An operation with the id its submitter gave it, so that its outcome can be reported, and
/// who sent it.
///
/// A value, its fields behind one reference (`SharedFields`): a queued command is copied
/// several times on its way (into the worker's queue, the journal record, the model's queue,
/// the advance), and a copy costs one reference count instead of one per field of its
/// command, author and resolution.
public struct QueuedCommand: Sendable, Hashable {
    private var storage: SharedFields<Fields>

    /// The fields, unshared first: a copy of the command keeps the fields it had.
    private var unique: UnsafeMutablePointer<Fields> { mutating get { SharedFields.unique(&storage) } }

    public var id: UInt64 {
        get { storage.fields.pointee.id }
        set { unique.pointee.id = newValue }
    }
    public var command: Command {
        // Read in place: applying a command reads it three times.
        _read { yield storage.fields.pointee.command }
        set { unique.pointee.command = newValue }
    }
    /// Who sent it (carried into the batch that applies it); nil when not recorded.
    public var author: Author? {
        get { storage.fields.pointee.author }
        set { unique.pointee.author = newValue }
    }
    /// The id of the first command of the transaction this command belongs to, or nil for a
    /// command of its own. A transaction's commands are consecutive in the queue and apply
    /// all or none (`FileRuntime.enqueue(transaction:on:)` checks and marks them; a journal
    /// restores them as they were queued).
    public var transaction: UInt64? {
        get { storage.fields.pointee.transaction }
        set { unique.pointee.transaction = newValue }
    }
    /// Where the command's path led when it was checked: applying it uses this instead of
    /// resolving the path again while it still holds (the state is at the same revision, or
    /// the property is on the instance the path starts at and the path still starts there).
    /// Not part of the command (records do not carry it, and two commands differing only here
    /// are equal).
    public var resolved: ResolvedProperty? {
        get { storage.fields.pointee.resolved }
        set { unique.pointee.resolved = newValue }
    }

    public init(
        id: UInt64, command: Command, author: Author? = nil, transaction: UInt64? = nil, resolved: ResolvedProperty? = nil
    ) {
        storage = SharedFields(Fields(id: id, command: command, author: author, transaction: transaction, resolved: resolved))
    }

    public static func == (a: QueuedCommand, b: QueuedCommand) -> Bool {
        a.id == b.id && a.command == b.command && a.author == b.author && a.transaction == b.transaction
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(command)
        hasher.combine(author)
        hasher.combine(transaction)
    }

    /// What a queued command holds (see the properties of the same names).
    private struct Fields {
        var id: UInt64
        var command: Command
        var author: Author?
        var transaction: UInt64?
        var resolved: ResolvedProperty?
    }
}

/// Commands queued on a target, in arrival order: what one advance applies (a worker's queue,
/// an advance's journal record, `FileRuntime.advance(_:queueing:elapsed:)`). The usual advance
/// has one command, held without an array.
public typealias QueuedCommands = CompactList<QueuedCommand>
