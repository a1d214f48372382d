/// Everything RiveSync knows about a loaded file: view models, enums, artboards and assets.
///
/// A `FileSchema` is a plain value. The `.riv` reader and the JSON schema loader both produce
/// one, and it is what listings show. Order matters everywhere: view models, properties,
/// instances, enums and artboards keep the order of the file, as Rive's runtime does.
public struct FileSchema: Sendable, Hashable {
    /// View models in file order.
    public var viewModels: [ViewModelSchema]
    /// Enums in file order.
    public var enums: [EnumSchema]
    /// Artboards in file order; the first one is the default artboard.
    public var artboards: [ArtboardSchema]
    /// File assets (images, fonts, blobs, …) in file order.
    public var assets: [FileAssetSchema]
    /// Every object of a `.riv` file (embedded asset bytes aside), for the state machine
    /// evaluator (empty when the file gives none).
    public var graph: RiveGraph

    public init(
        viewModels: [ViewModelSchema] = [], enums: [EnumSchema] = [],
        artboards: [ArtboardSchema] = [], assets: [FileAssetSchema] = [], graph: RiveGraph = RiveGraph()
    ) {
        self.viewModels = viewModels
        self.enums = enums
        self.artboards = artboards
        self.assets = assets
        self.graph = graph
    }
}

/// A view model: a named, ordered set of typed properties plus the instances authored for it.
public struct ViewModelSchema: Sendable, Hashable {
    public var name: String
    /// `true` for a global view model (Rive's `viewModelType` 2), e.g. a `Theme`.
    public var isGlobal: Bool
    /// Properties in file order.
    public var properties: [PropertySchema]
    /// Instances authored in the editor, in file order. Instance 0 is the "Default".
    public var instances: [AuthoredInstance]
    /// Instances scoped to an artboard (overrides a designer made inside one). Reported
    /// separately: they are not part of `instances` and cannot be created by name.
    public var artboardScopedInstances: [AuthoredInstance]

    public init(
        name: String, isGlobal: Bool = false, properties: [PropertySchema] = [],
        instances: [AuthoredInstance] = [], artboardScopedInstances: [AuthoredInstance] = []
    ) {
        self.name = name
        self.isGlobal = isGlobal
        self.properties = properties
        self.instances = instances
        self.artboardScopedInstances = artboardScopedInstances
    }

    /// The property with this name, if any (the first one when a file repeats a name).
    public func property(named name: String) -> PropertySchema? {
        properties.first { $0.name == name }
    }

    /// The position of the property with this name, if any.
    public func propertyIndex(named name: String) -> Int? {
        properties.firstIndex { $0.name == name }
    }
}

/// One property of a view model.
public struct PropertySchema: Sendable, Hashable {
    public var name: String
    public var type: DataType
    /// For `enum` properties: the enum's name (nil when the file attaches none).
    public var enumName: String?
    /// For `viewModel` properties: the referenced view model's name.
    public var viewModelName: String?

    public init(name: String, type: DataType, enumName: String? = nil, viewModelName: String? = nil) {
        self.name = name
        self.type = type
        self.enumName = enumName
        self.viewModelName = viewModelName
    }

    /// Rive's `metaData` string for this property: the enum name or the referenced view model
    /// name, empty when there is none.
    public var metaData: String { enumName ?? viewModelName ?? "" }
}

/// An enum: a name and its ordered value names.
public struct EnumSchema: Sendable, Hashable {
    public var name: String
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}

/// An artboard: its name, default view model and state machines.
public struct ArtboardSchema: Sendable, Hashable {
    public var name: String
    /// The default view model's name (the editor's dropdown), nil when none is set.
    public var viewModelName: String?
    /// State machine names in file order.
    public var stateMachines: [String]
    /// The default state machine, nil when the file names none.
    public var defaultStateMachine: String?

    public init(
        name: String, viewModelName: String? = nil, stateMachines: [String] = [],
        defaultStateMachine: String? = nil
    ) {
        self.name = name
        self.viewModelName = viewModelName
        self.stateMachines = stateMachines
        self.defaultStateMachine = defaultStateMachine
    }
}

/// A file asset that image, font and blob values can point at.
public struct FileAssetSchema: Sendable, Hashable {
    /// What kind of content the asset holds.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case image, font, blob, audio, script, manifest, unknown
    }

    public var name: String
    public var kind: Kind

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }
}
