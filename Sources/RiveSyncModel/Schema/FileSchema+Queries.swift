/// Queries that mirror Rive's `File` API. Unknown names throw typed `FileError`s.
extension FileSchema {
    /// View model names in file order (`getViewModelNames`).
    public var viewModelNames: [String] { viewModels.map(\.name) }

    /// Names of the global view models in file order (`getGlobalViewModelNames`).
    public var globalViewModelNames: [String] { viewModels.filter(\.isGlobal).map(\.name) }

    /// Artboard names in file order (`getArtboardNames`).
    public var artboardNames: [String] { artboards.map(\.name) }

    /// The view model with this name.
    public func viewModel(named name: String) throws(FileError) -> ViewModelSchema {
        guard let viewModel = viewModels.first(where: { $0.name == name }) else {
            throw .invalidViewModel(name)
        }
        return viewModel
    }

    /// Instance names of a view model, in file order (`getInstanceNames(of:)`).
    public func instanceNames(of viewModel: String) throws(FileError) -> [String] {
        try self.viewModel(named: viewModel).instances.map(\.name)
    }

    /// Properties of a view model, in file order (`getProperties(of:)`).
    public func properties(of viewModel: String) throws(FileError) -> [PropertySchema] {
        try self.viewModel(named: viewModel).properties
    }

    /// The enum with this name, if any.
    public func enumSchema(named name: String) -> EnumSchema? {
        enums.first { $0.name == name }
    }

    /// The artboard with this name; nil asks for the default (first) artboard.
    public func artboard(named name: String?) throws(FileError) -> ArtboardSchema {
        if let name {
            guard let artboard = artboards.first(where: { $0.name == name }) else {
                throw .invalidArtboard(name)
            }
            return artboard
        }
        guard let first = artboards.first else { throw .invalidArtboard("(default)") }
        return first
    }

    /// The default view model and its default instance's name for an artboard
    /// (`getDefaultViewModelInfo(for:)`). An artboard without a view model throws
    /// `invalidViewModel` instead of giving an unusable answer (Rive issue #441).
    public func defaultViewModelInfo(for artboardName: String?) throws(FileError) -> (
        viewModelName: String, instanceName: String
    ) {
        let artboard = try artboard(named: artboardName)
        guard let name = artboard.viewModelName else {
            throw .invalidViewModel("artboard '\(artboard.name)' has no default view model")
        }
        let viewModel = try viewModel(named: name)
        return (name, viewModel.instances.first?.name ?? "")
    }
}
