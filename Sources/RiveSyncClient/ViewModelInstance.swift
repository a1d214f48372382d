import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// A live view model instance in the daemon, in the role of Rive's `ViewModelInstance`.
///
/// Reads come from this client's replica of the target the instance is reached through, so
/// they are consistent with the last batch. Writes return after the daemon applied them (or
/// throw why not). Two handles for the same instance are `==`.
public final class ViewModelInstance: Sendable, Hashable {
    public let worker: Worker
    /// The file the instance lives in.
    public let fileName: String
    let id: InstanceID
    private let viewModel: String
    private let instanceName: String

    init(worker: Worker, file: String, id: InstanceID, viewModelName: String, name: String) {
        self.worker = worker
        fileName = file
        self.id = id
        viewModel = viewModelName
        instanceName = name
    }

    /// The daemon's id of the instance (also usable in paths as `#id`).
    public var instanceID: UInt64 { id.rawValue }

    public static func == (lhs: ViewModelInstance, rhs: ViewModelInstance) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The view model's name.
    public func viewModelName() async throws -> String { viewModel }

    /// The authored instance it was made from ("" for a blank one).
    public func name() async throws -> String { instanceName }

    var session: Session { worker.session }

    /// The target this instance is addressed through.
    func anchor() async throws -> String { try await session.anchor(for: id, file: fileName) }

    /// `#id/` — commands address the instance from any target of its file.
    var pathPrefix: String { "#\(id.rawValue)/" }

    /// The value at `path` from the replica, checked to be of `type`.
    func read(_ path: String, _ type: DataType) async throws -> RiveSyncModel.PropertyValue {
        let resolved = try await session.read(try await anchor(), root: id, path: path)
        guard resolved.property.type == type else {
            throw ViewModelInstanceError.valueMismatch(type.rawValue, resolved.property.type.rawValue)
        }
        return resolved.value
    }

    /// Checks the path and type locally (the same errors the daemon gives), then sends the
    /// command and waits for its acknowledgement.
    func command(_ path: String, _ type: DataType, _ body: (_ target: String, _ path: String) -> ClientRequest) async throws -> Receipt {
        _ = try await read(path, type)
        let target = try await anchor()
        return Receipt(try await session.request(body(target, pathPrefix + path), .instance, pathPrefix: pathPrefix))
    }

    func set(_ path: String, _ type: DataType, _ value: JSONValue) async throws -> Receipt {
        try await command(path, type) { .set(target: $0, path: $1, value: value) }
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
            session: session, target: { [self] in try await anchor() }, root: id, path: path, type: type, includingCurrent: includingCurrent
        ) { event in
            if case .value(let value) = event { return convert(value) }
            return nil
        }
    }
}
