/// What a path leads to: an instance's property and its current value, as of one revision
/// of the state, and what decides whether the path still leads there.
public struct ResolvedProperty: Sendable, Hashable {
    /// The fields behind one reference, copied on write (`SharedFields`): a set's resolution
    /// is copied about eight times on its way (the check, the queued command, the advance),
    /// and a copy costs one reference count instead of one per field.
    private var storage: SharedFields<Fields>

    /// The fields, unshared first: a copy keeps the fields it had.
    private var unique: UnsafeMutablePointer<Fields> { mutating get { SharedFields.unique(&storage) } }

    public var instance: InstanceID {
        get { storage.fields.pointee.instance }
        set {
            unique.pointee.instance = newValue
            unique.pointee.layout = nil
        }
    }
    public var property: PropertySchema {
        get { storage.fields.pointee.property }
        set {
            unique.pointee.property = newValue
            unique.pointee.layout = nil
        }
    }
    public var value: PropertyValue {
        get { storage.fields.pointee.value }
        set { unique.pointee.value = newValue }
    }
    /// The store's revision it was resolved at (`InstanceStore.revision`): while the store is
    /// at that revision, the path still leads here and the value is still current.
    public var revision: UInt64 {
        get { storage.fields.pointee.revision }
        set { unique.pointee.revision = newValue }
    }
    /// Where the path started.
    public var start: PathStart {
        get { storage.fields.pointee.start }
        set { unique.pointee.start = newValue }
    }
    /// Whether the property is on the instance the path started at (no nested instance or
    /// list item between): then the path leads here for as long as it starts at the same
    /// instance, whatever else changes.
    public var isDirect: Bool {
        get { storage.fields.pointee.isDirect }
        set { unique.pointee.isDirect = newValue }
    }
    /// The path resolved, parsed: resolving it again after a change does not split it again.
    public var path: ParsedPath? {
        get { storage.fields.pointee.path }
        set { unique.pointee.path = newValue }
    }
    /// Where the value lies in the store it was resolved in, while that store's layout is
    /// `layout` (nil when not, when made by hand, or when `instance` or `property` changed
    /// since): a change to it applies there without hashing the instance and the property
    /// again (`InstanceStore.Layout`). Read in place, field by field.
    func positions(under layout: InstanceStore.Layout) -> (InstanceStore.InstancePosition, InstanceStore.ValuePosition)? {
        let fields = storage.fields
        guard fields.pointee.layout === layout, let instance = fields.pointee.instancePosition,
            let value = fields.pointee.valuePosition
        else { return nil }
        return (instance, value)
    }

    public init(
        instance: InstanceID, property: PropertySchema, value: PropertyValue, revision: UInt64 = 0, start: PathStart = .instance,
        isDirect: Bool = false, path: ParsedPath? = nil
    ) {
        storage = SharedFields(
            Fields(instance: instance, property: property, value: value, revision: revision, start: start, isDirect: isDirect, path: path))
    }

    /// A resolution that found its value at these positions of a store with this layout.
    init(
        instance: InstanceID, property: PropertySchema, value: PropertyValue, revision: UInt64, start: PathStart, isDirect: Bool,
        path: ParsedPath, at positions: (InstanceStore.InstancePosition, InstanceStore.ValuePosition), under layout: InstanceStore.Layout
    ) {
        storage = SharedFields(
            Fields(
                instance: instance, property: property, value: value, revision: revision, start: start, isDirect: isDirect, path: path,
                layout: layout, instancePosition: positions.0, valuePosition: positions.1))
    }

    public static func == (a: ResolvedProperty, b: ResolvedProperty) -> Bool {
        a.storage === b.storage || a.storage.fields.pointee == b.storage.fields.pointee
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(storage.fields.pointee) }

    /// What a resolution holds (see the properties of the same names). The positions are where
    /// the rest was found (`positions(under:)`), not part of what the resolution says: equality
    /// and hashing leave them out.
    private struct Fields: Hashable {
        var instance: InstanceID
        var property: PropertySchema
        var value: PropertyValue
        var revision: UInt64
        var start: PathStart
        var isDirect: Bool
        var path: ParsedPath?
        /// The layout of the store the positions are in (nil: none).
        var layout: InstanceStore.Layout? = nil
        var instancePosition: InstanceStore.InstancePosition? = nil
        var valuePosition: InstanceStore.ValuePosition? = nil

        static func == (a: Fields, b: Fields) -> Bool {
            a.instance == b.instance && a.property == b.property && a.value == b.value && a.revision == b.revision
                && a.start == b.start && a.isDirect == b.isDirect && a.path == b.path
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(instance)
            hasher.combine(property)
            hasher.combine(value)
            hasher.combine(revision)
            hasher.combine(start)
            hasher.combine(isDirect)
            hasher.combine(path)
        }
    }
}

/// Where a resolved path started: a slot of the target (its binding decides the instance), or
/// an instance named by id (`#17`) or given as the root.
public enum PathStart: Sendable, Hashable {
    case slot(BindingSlot)
    case instance
}

/// Path resolution, shared by the daemon's runtime and every replica so that a path means the
/// same thing, and fails with the same error, everywhere.
public enum PropertyPath {
    /// A name as one segment of a path: `~` written `~0` and `/` written `~1` (RFC 6901, JSON
    /// Pointer's escape), so Rive's names with a `/` (`BG On/Off` → `BG On~1Off`) are paths
    /// too. A name with neither is unchanged.
    public static func escape(_ name: String) -> String {
        // Scanned as bytes (both are ASCII, never part of another character's UTF-8): a
        // `Character` scan costs more than the rest of the path's work.
        guard writesEscapeOrSlash(name) else { return name }
        var segment = ""
        for character in name {
            switch character {
            case "~": segment += "~0"
            case "/": segment += "~1"
            default: segment.append(character)
            }
        }
        return segment
    }

    /// Whether `text` has a `~` or a `/` (the bytes `escape` replaces and paths split at),
    /// scanned in its UTF-8 buffer: through `String.UTF8View`'s iterator the scan cost more
    /// than a `set`'s path resolution.
    static func writesEscapeOrSlash(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.contains { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") } }
    }

    /// The name a segment writes (the reverse of `escape`); nil when a `~` is not followed by
    /// `0` or `1`.
    public static func unescape(_ segment: String) -> String? {
        guard segment.utf8.contains(UInt8(ascii: "~")) else { return segment }
        var name = ""
        var iterator = segment.makeIterator()
        while let character = iterator.next() {
            guard character == "~" else {
                name.append(character)
                continue
            }
            switch iterator.next() {
            case "0": name.append("~")
            case "1": name.append("/")
            default: return nil
            }
        }
        return name
    }

    /// A path's segments, each unescaped; `invalidPath` for an empty path or segment, or a
    /// `~` that escapes nothing.
    public static func names(of path: String) throws(PropertyError) -> [String] {
        guard let names = ParsedPath(path).names else { throw .invalidPath(path) }
        return names
    }

    /// `path` with the property `name` appended (escaped): `name` alone under the main slot.
    public static func appending(_ name: String, to path: String) -> String {
        path.isEmpty ? escape(name) : path + "/" + escape(name)
    }

    /// Resolves a `/`-separated, case-sensitive path (its names escaped, `escape`).
    ///
    /// With a `root` the path starts at that instance. Otherwise the first segment may pick the
    /// starting instance: `@Name` for the global slot `Name`, `#17` for the instance with id 17;
    /// else the path starts at the main slot. Each further segment names a property; after a
    /// nested view model the path goes on inside it, and after a list an integer segment picks
    /// an item. The path must end at a property.
    public static func resolve(
        _ path: String, schema: FileSchema, store: InstanceStore, bindings: [Binding], from root: InstanceID? = nil,
        maxSegments: Int = 32
    ) throws(PropertyError) -> ResolvedProperty {
        try resolve(ParsedPath(path), schema: schema, store: store, bindings: bindings, from: root, maxSegments: maxSegments)
    }

    /// Resolves a path parsed already (see `resolve(_:schema:store:bindings:from:maxSegments:)`).
    public static func resolve(
        _ parsed: ParsedPath, schema: FileSchema, store: InstanceStore, bindings: [Binding], from root: InstanceID? = nil,
        maxSegments: Int = 32
    ) throws(PropertyError) -> ResolvedProperty {
        let path = parsed.text
        let count = parsed.segmentCount
        guard count <= maxSegments else { throw .limitExceeded(limit: "maxPathSegments", value: maxSegments) }
        guard parsed.hasNames else { throw .invalidPath(path) }
        func slot(_ slot: BindingSlot) -> InstanceID? { bindings.first { $0.slot == slot }?.instance }
        var index = 0
        var current: InstanceID
        var start = PathStart.instance
        let first = parsed.name(0)
        if let root {
            current = root
        } else if first.utf8.first == UInt8(ascii: "@") {
            let global = BindingSlot.global(String(first.dropFirst()))
            guard let id = slot(global) else { throw .noSuchSlot(path: String(parsed.segment(0))) }
            current = id
            start = .slot(global)
            index = 1
        } else if parsed.segment(0).utf8.first == UInt8(ascii: "#"), let raw = UInt64(parsed.segment(0).dropFirst()) {
            guard store[InstanceID(raw)] != nil else { throw .unknownInstance(InstanceID(raw)) }
            current = InstanceID(raw)
            index = 1
        } else {
            guard let id = slot(.main) else { throw .nullInstance(path: "") }
            current = id
            start = .slot(.main)
        }
        guard index < count else { throw .invalidPath(path) }
        let firstProperty = index
        while true {
            // The path up to this segment, for an error (only then joined).
            let end = index
            func here() -> String { (0...end).map { parsed.segment($0) }.joined(separator: "/") }
            // Found by position, kept with the resolution (read once: each read copies the state).
            guard let at = store.instances.index(forKey: current) else { throw .unknownInstance(current) }
            let state = store.instances.values[at]
            guard let viewModel = schema.viewModels.first(where: { $0.name == state.viewModel }),
                let property = viewModel.property(named: parsed.name(index)),
                let found = state.values.index(forKey: property.name)
            else { throw .noSuchProperty(path: here()) }
            let value = state.values.values[found]
            index += 1
            if index == count {
                return ResolvedProperty(
                    instance: current, property: property, value: value, revision: store.revision, start: start,
                    isDirect: index == firstProperty + 1, path: parsed, at: (at, found), under: store.layout)
            }
            switch value {
            case .viewModel(let nested):
                guard let nested else { throw .nullInstance(path: here()) }
                current = nested
            case .list(let items):
                let segment = parsed.segment(index)
                guard let itemIndex = Int(segment) else {
                    throw .typeMismatch(path: here() + "/" + segment, expected: "list index", actual: String(segment))
                }
                guard items.indices.contains(itemIndex) else {
                    throw .indexOutOfRange(path: here(), index: itemIndex, count: items.count)
                }
                current = items[itemIndex]
                index += 1
                guard index < count else { throw .invalidPath(path) }
            default:
                throw .typeMismatch(path: here(), expected: "viewModel", actual: property.type.rawValue)
            }
        }
    }
}

extension Replica {
    /// Resolves a path in the replica with the daemon's rules (see `PropertyPath`).
    public func resolve(_ path: String, schema: FileSchema, from root: InstanceID? = nil) throws(PropertyError) -> ResolvedProperty {
        try PropertyPath.resolve(path, schema: schema, store: store, bindings: bindings, from: root)
    }
}

extension FileRuntime {
    /// Resolves a path in a target (see `PropertyPath`).
    func resolve(_ path: String, in target: Target) throws(PropertyError) -> ResolvedProperty {
        try resolve(ParsedPath(path), in: target)
    }

    /// Resolves a parsed path in a target (see `PropertyPath`).
    func resolve(_ path: ParsedPath, in target: Target) throws(PropertyError) -> ResolvedProperty {
        try PropertyPath.resolve(path, schema: schema, store: store, bindings: target.bindings, maxSegments: limits.maxPathSegments)
    }

    /// Where a command's path leads, and the value there now: `earlier`, its resolution when it
    /// was checked, while it still holds — the state has not changed since (the same
    /// revision), or the property is on the instance the path starts at and the path still
    /// starts there (its value read again, beside the resolution: `earlier` is not copied to
    /// hold it) — else the path resolved now (from its parsed form when `earlier` kept it).
    func resolve(
        _ path: String, in target: Target, reusing earlier: ResolvedProperty?
    ) throws(PropertyError) -> (resolved: ResolvedProperty, value: PropertyValue) {
        guard let earlier else { return Self.withValue(try resolve(path, in: target)) }
        if earlier.revision == store.revision { return (earlier, earlier.value) }
        guard earlier.isDirect, startsAt(earlier.instance, earlier.start, in: target),
            let value = store.value(foundBy: earlier) ?? store.value(of: earlier.instance, property: earlier.property.name)
        else {
            guard let parsed = earlier.path, parsed.text == path else { return Self.withValue(try resolve(path, in: target)) }
            return Self.withValue(try resolve(parsed, in: target))
        }
        return (earlier, value)
    }

    private static func withValue(_ resolved: ResolvedProperty) -> (resolved: ResolvedProperty, value: PropertyValue) {
        (resolved, resolved.value)
    }

    /// Whether a path that started at `instance` from `start` would start there now.
    private func startsAt(_ instance: InstanceID, _ start: PathStart, in target: Target) -> Bool {
        switch start {
        case .slot(let slot): return target.instance(in: slot) == instance
        case .instance: return store[instance] != nil
        }
    }

    /// What a parsed path of a target leads to now: the property and its value (the state as
    /// of the target's last batch).
    public func resolve(_ path: ParsedPath, inTarget targetName: String) throws -> ResolvedProperty {
        try resolve(path, in: try target(targetName))
    }

}

extension FileRuntime {
    /// Where attaching `instance` somewhere else would expose state that is already visible:
    /// for each target that reaches the instance or anything it holds, the paths at which
    /// those instances sit (`""`, the whole target, when there are more than can be listed).
    public func exposure(of instance: InstanceID) -> [(target: String, paths: [String])] {
        var shown: [String: [String]] = [:]
        for id in store.closure(of: [instance]) {
            for (target, paths) in store.paths(to: id, rootSlots: rootSlots) {
                shown[target, default: []] += paths.count >= InstanceStore.maxPathsPerInstance ? [""] : paths
            }
        }
        return shown.keys.sorted().map { ($0, shown[$0]!) }
    }
}
