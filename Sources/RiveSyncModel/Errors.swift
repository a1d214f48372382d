/// Errors about a file and the names in it, with the case names of Rive's `FileError`.
public enum FileError: Error, Sendable, Hashable {
    /// The data is not a file RiveSync can read (with a one-line reason).
    case invalidFile(String)
    /// The data is readable but holds something invalid (with a one-line reason).
    case invalidData(String)
    /// No artboard has this name (or the file has no artboards).
    case invalidArtboard(String)
    /// No view model has this name, or the artboard has no default view model.
    case invalidViewModel(String)
    /// No instance has this name or index in the view model.
    case invalidViewModelInstance(String)
    /// No file asset has this name.
    case invalidAsset(String)
    /// Not in Rive: the file already holds as many live instances as its limit allows
    /// (`limit` is the setting's name, `value` its value).
    case limitExceeded(limit: String, value: Int)
}

/// Errors about an artboard, with the case names of Rive's `ArtboardError`.
public enum ArtboardError: Error, Sendable, Hashable {
    case invalidArtboard(String)
    /// The artboard has no state machine with this name (or none at all).
    case invalidStateMachine(String)
}

/// Errors from binding instances to a state machine, with the case names of Rive's
/// `StateMachineError` plus the checks Rive leaves out.
public enum StateMachineError: Error, Sendable, Hashable {
    /// The name is not a global view model of the file.
    case invalidGlobalViewModelName(String)
    /// The same global name was supplied twice in one call.
    case duplicateGlobalViewModelInstance(String)
    /// The instance's view model does not fit the slot (`slot`, expected, actual). Rive does not
    /// check this; RiveSync does, so a wrong instance never binds silently.
    case incompatibleInstance(slot: String, expected: String, actual: String)
    /// No state machine or published instance has this name.
    case unknownTarget(String)
    /// A state machine or published instance with this name already exists.
    case targetExists(String)
    /// No instance has this id in the file.
    case unknownInstance(InstanceID)
}

/// Errors from reading or changing a property through a path.
public enum PropertyError: Error, Sendable, Hashable {
    /// The path is empty or has an empty segment.
    case invalidPath(String)
    /// The path starts at a slot the target does not have (e.g. `@Theme` with no such global).
    case noSuchSlot(path: String)
    /// No property with this name exists where the path leads.
    case noSuchProperty(path: String)
    /// The property exists but has another type (path, expected, actual).
    case typeMismatch(path: String, expected: String, actual: String)
    /// The enum has no value with this name.
    case invalidEnumValue(path: String, value: String, allowed: [String])
    /// The instance's view model does not fit the property (path, expected, actual).
    case incompatibleInstance(path: String, expected: String, actual: String)
    /// A list index outside the list (path, index, count).
    case indexOutOfRange(path: String, index: Int, count: Int)
    /// A nested view model on the way is null.
    case nullInstance(path: String)
    /// The instance is not in the list.
    case instanceNotInList(path: String, instance: InstanceID)
    /// No instance has this id (it never existed, or lives in another file/worker).
    case unknownInstance(InstanceID)
    /// The value is not allowed here (e.g. a nil nested instance, an unknown artboard name).
    case invalidValue(path: String, reason: String)
    /// A limit was reached (name of the limit, its value).
    case limitExceeded(limit: String, value: Int)
}
