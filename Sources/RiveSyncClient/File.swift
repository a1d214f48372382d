internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol

/// A file in the daemon, in the role of Rive's `File`: its listings and the factory for
/// artboards and view model instances.
public final class File: Sendable {
    public let worker: Worker
    /// The file's name in the daemon.
    public let name: String

    /// Opens a file the daemon has, or loads one into it.
    /// - Throws: `FileError.missingFile` for an unknown name; `fileExists`, `invalidFile`,
    ///   `invalidData` or `WorkerError.forbidden` when loading fails.
    public init(source: Source, worker: Worker) async throws {
        self.worker = worker
        switch source {
        case .name(let name):
            self.name = name
        case .riv(let name, let bytes):
            self.name = name
            try await worker.session.loadRiv(bytes, as: name)
        case .schema(let name, let text):
            self.name = name
            let json: JSONValue
            do {
                json = try JSONParser().parse(text)
            } catch {
                throw FileError.invalidFile("schema is not JSON: \(error)")
            }
            _ = try await worker.session.request(.loadFile(name: name, content: .schema(json)), .file)
        }
        _ = try await worker.session.schema(of: name)
    }

    private func schema() async throws -> FileSchema { try await worker.session.schema(of: name) }

    public func getArtboardNames() async throws -> [String] { try await schema().artboardNames }

    public func getViewModelNames() async throws -> [String] { try await schema().viewModelNames }

    /// Names of the global view models (slots such as `Theme` that state machines bind).
    public func getGlobalViewModelNames() async throws -> [String] { try await schema().globalViewModelNames }

    public func getInstanceNames(of viewModel: String) async throws -> [String] {
        do {
            return try await schema().instanceNames(of: viewModel)
        } catch let error as RiveSyncModel.FileError {
            throw FileError(error)
        }
    }

    public func getProperties(of viewModel: String) async throws -> [ViewModelProperty] {
        do {
            return try await schema().properties(of: viewModel).map {
                ViewModelProperty(type: .init(wireName: $0.type.rawValue), name: $0.name, metaData: $0.metaData)
            }
        } catch let error as RiveSyncModel.FileError {
            throw FileError(error)
        }
    }

    public func getViewModelEnums() async throws -> [ViewModelEnum] {
        try await schema().enums.map { ViewModelEnum(name: $0.name, values: $0.values) }
    }

    /// The artboard's default view model and that view model's default instance name.
    /// - Throws: `FileError.invalidViewModel` when the artboard has none (Rive returns an
    ///   unusable answer instead, rive-ios#441).
    public func getDefaultViewModelInfo(for artboard: Artboard) async throws -> (viewModelName: String, instanceName: String) {
        let reply = try await worker.session.request(.defaultViewModelInfo(file: name, artboard: artboard.name), .file)
        guard case .defaultViewModelInfo(let viewModel, let instance, _) = reply else { throw reply.unexpected(.defaultViewModelInfo) }
        return (viewModel, instance)
    }

    /// The artboard with this name; nil is the default (first) artboard.
    /// - Throws: `FileError.invalidArtboard`.
    public func createArtboard(_ name: String? = nil) async throws -> Artboard {
        do {
            return Artboard(file: self, name: try await schema().artboard(named: name).name)
        } catch let error as RiveSyncModel.FileError {
            throw FileError(error)
        }
    }

    /// Creates an instance in the daemon. Until it is bound to a state machine or put in a
    /// list, it is reachable only through this handle (see the README on anchors).
    /// - Throws: `FileError.invalidViewModel`, `.invalidViewModelInstance`, `.invalidArtboard`.
    public func createViewModelInstance(_ source: ViewModelInstanceSource) async throws -> ViewModelInstance {
        func from(_ source: ViewModelSource) -> RiveSyncModel.ViewModelSource {
            switch source {
            case .artboardDefault(let artboard): return .artboardDefault(artboard.name)
            case .name(let name): return .name(name)
            }
        }
        let wire: InstanceSource
        switch source {
        case .blank(let source): wire = .blank(from: from(source))
        case .viewModelDefault(let source): wire = .viewModelDefault(from: from(source))
        case .name(let name, let source): wire = .name(name, from: from(source))
        case .index(let index, let source): wire = .index(index, from: from(source))
        }
        let reply = try await worker.session.request(.createInstance(file: name, source: wire, publish: nil), .file)
        guard case .instance(let created, _) = reply else { throw reply.unexpected(.instance) }
        return ViewModelInstance(
            worker: worker, file: name, id: created.instance, viewModelName: created.viewModel, name: created.name)
    }
}

extension FileError {
    init(_ error: RiveSyncModel.FileError) {
        switch error {
        case .invalidFile(let m): self = .invalidFile(m)
        case .invalidData(let m): self = .invalidData(m)
        case .invalidArtboard(let n): self = .invalidArtboard(n)
        case .invalidViewModel(let n): self = .invalidViewModel(n)
        case .invalidViewModelInstance(let m): self = .invalidViewModelInstance(m)
        case .invalidAsset(let n): self = .invalidAsset(n)
        case .limitExceeded(let limit, let value): self = .invalidData("limit \(limit) (\(value)) exceeded")
        }
    }
}
