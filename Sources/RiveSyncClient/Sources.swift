/// Where a view model comes from when creating an instance (Rive's `ViewModelSource`).
public enum ViewModelSource: Sendable {
    /// The artboard's default view model.
    case artboardDefault(Artboard)
    /// A view model by name.
    case name(String)
}

/// How to create a view model instance (Rive's `ViewModelInstanceSource`, plus `index`,
/// which Rive's other runtimes offer).
public enum ViewModelInstanceSource: Sendable {
    /// Every property at its blank default.
    case blank(from: ViewModelSource)
    /// The view model's default (first authored) instance.
    case viewModelDefault(from: ViewModelSource)
    /// The authored instance with this name.
    case name(String, from: ViewModelSource)
    /// The authored instance at this index.
    case index(Int, from: ViewModelSource)
}

/// Which file a `File` is: one the daemon already has, or one to load into it.
public enum Source: Sendable {
    /// A file loaded in the daemon, by name (see `Worker.getFileNames()`).
    case name(String)
    /// A `.riv` file to load under `name` (the daemon must allow loading).
    case riv(name: String, bytes: [UInt8])
    /// A RiveSync JSON schema (text) to load under `name`.
    case schema(name: String, json: String)
}
