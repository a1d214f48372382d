internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol

/// A live view model instance in the daemon, in the role of Rive's `ViewModelInstance`.
///
/// The calls have Rive's shapes: setters, `fire`, list edits and the nested `value(of:)`
/// return at once and are applied in call order (failures go to `Worker.errors()`); reads and
/// `size(of:)` are `async throws` and see every call made before them. `confirmed` has the
/// same calls, awaited: they return after the daemon applied them, with a `Receipt`, or throw.
/// Reads come from this client's replica of the target the instance is reached through.
///
/// Handles with an id (made by `File`, read through `confirmed`, bound in a state machine)
/// are `==` when they name the same instance; a handle from the synchronous `value(of:)` or
/// `value(of:at:)` is `==` only to itself until compared through `instanceID`, as Rive's
/// wrappers compare their own handles.
public final class ViewModelInstance: Sendable, Hashable {
    public let worker: Worker
    /// The file the instance lives in.
    public let fileName: String
    /// Set for handles made with their id; nil for one the queue resolves.
    let knownID: InstanceID?
    let identity: InstanceIdentity

    init(worker: Worker, file: String, id: InstanceID, viewModelName: String, name: String) {
        self.worker = worker
        fileName = file
        knownID = id
        identity = InstanceIdentity(.init(id: id, viewModel: viewModelName, name: name))
    }

    /// A handle whose instance the call queue finds later (Rive's nested and list wrappers).
    init(worker: Worker, file: String, resolving identity: InstanceIdentity) {
        self.worker = worker
        fileName = file
        knownID = nil
        self.identity = identity
    }

    /// The daemon's id of the instance (also usable in paths as `#id`). For a handle from the
    /// synchronous `value(of:)` this waits until the queue found the instance.
    /// - Throws: the error that kept the queue from finding it (`nullInstance`, ...).
    public var instanceID: UInt64 {
        get async throws { try await resolvedID().rawValue }
    }

    public static func == (lhs: ViewModelInstance, rhs: ViewModelInstance) -> Bool {
        if let left = lhs.knownID, let right = rhs.knownID { return left == right }
        return lhs.identity === rhs.identity
    }

    public func hash(into hasher: inout Hasher) {
        if let knownID { hasher.combine(knownID) } else { hasher.combine(ObjectIdentifier(identity)) }
    }

    /// The view model's name.
    public func viewModelName() async throws -> String { try await identity.resolved().viewModel }

    /// The authored instance it was made from ("" for a blank one).
    public func name() async throws -> String { try await identity.resolved().name }

    var session: Session { worker.session }
    var calls: CallQueue { worker.calls }

    func resolvedID() async throws -> InstanceID { try await identity.resolved().id }

    /// The target this instance is addressed through.
    func anchor() async throws -> String { try await session.anchor(for: try await resolvedID(), file: fileName) }

    /// `#id/` — commands address the instance from any target of its file.
    func pathPrefix() async throws -> String { "#\(try await resolvedID().rawValue)/" }

    /// The value at `path` from the replica, checked to be of `type`.
    func read(_ path: String, _ type: DataType) async throws -> RiveSyncModel.PropertyValue {
        let resolved = try await session.read(try await anchor(), root: try await resolvedID(), path: path)
        guard resolved.property.type == type else {
            throw ViewModelInstanceError.valueMismatch(type.rawValue, resolved.property.type.rawValue)
        }
        return resolved.value
    }

    /// Checks the path and type locally (the same errors the daemon gives), then sends the
    /// command; the reply is awaited by whoever wants it. While earlier queued calls are still
    /// in flight the replica does not show them yet, so the daemon alone checks (its errors are
    /// the same).
    func submit(
        _ path: String, _ type: DataType, onSuccess: (@Sendable (isolated Session) -> Void)? = nil,
        _ body: (_ target: String, _ path: String) -> ClientRequest
    ) async throws -> Reply {
        if calls.isSettled(before: CallQueue.currentTicket) {
            do {
                _ = try await read(path, type)
            } catch ViewModelInstanceError.valueMismatch(let given, let property) {
                // A write names the property's type as expected, as the daemon does.
                throw ViewModelInstanceError.valueMismatch(property, given)
            }
        }
        let target = try await anchor()
        let prefix = try await pathPrefix()
        return try await session.submit(body(target, prefix + path), .instance, pathPrefix: prefix, commandTo: target, onSuccess: onSuccess)
    }

    func submitSet(_ path: String, _ type: DataType, _ value: JSONValue) async throws -> Reply {
        try await submit(path, type) { .set(target: $0, path: ParsedPath($1), value: value) }
    }

    /// Queues a call that returns at once (its failure goes to `Worker.errors()` as `call`).
    func post(_ call: @autoclosure @escaping @Sendable () -> String, _ submit: @escaping CallQueue.Submit) {
        calls.post(call(), submit)
    }

    /// A handle for another instance of the same file, reached through the same target.
    func related(_ other: InstanceID) async throws -> ViewModelInstance {
        let target = try await anchor()
        await session.adopt(other, anchor: target)
        let mirror = try await session.ensureSubscribed(target)
        let state = mirror.replica?.store[other]
        return ViewModelInstance(worker: worker, file: fileName, id: other, viewModelName: state?.viewModel ?? "", name: state?.name ?? "")
    }

    func stream<Element: Sendable>(
        _ path: String, _ type: DataType, includingCurrent: Bool, _ convert: @escaping @Sendable (RiveSyncModel.PropertyValue) -> Element?
    ) -> AsyncThrowingStream<Element, any Error> {
        ValueStreams.make(
            session: session, target: { [self] in try await anchor() }, root: { [self] in try await resolvedID() }, path: path, type: type,
            includingCurrent: includingCurrent
        ) { event in
            if case .value(let value) = event { return convert(value) }
            return nil
        }
    }
}

/// Which instance a handle names: known at once, or once the call queue resolved it.
final class InstanceIdentity: Sendable {
    struct Resolved: Sendable {
        let id: InstanceID
        let viewModel: String
        let name: String
    }

    private enum State {
        case resolved(Resolved)
        case failed(any Error)
        case waiting([CheckedContinuation<Resolved, any Error>])
    }

    private let state: Locked<State>

    init(_ resolved: Resolved) {
        state = Locked(.resolved(resolved))
    }

    /// An identity the queue settles with `settle`.
    init() {
        state = Locked(.waiting([]))
    }

    func resolved() async throws -> Resolved {
        try await withCheckedThrowingContinuation { continuation in
            let known = state.withLock { state -> Result<Resolved, any Error>? in
                switch state {
                case .resolved(let resolved): return .success(resolved)
                case .failed(let error): return .failure(error)
                case .waiting(let waiters):
                    state = .waiting(waiters + [continuation])
                    return nil
                }
            }
            if let known { continuation.resume(with: known) }
        }
    }

    func settle(_ result: Result<Resolved, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Resolved, any Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            switch result {
            case .success(let resolved): state = .resolved(resolved)
            case .failure(let error): state = .failed(error)
            }
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}
