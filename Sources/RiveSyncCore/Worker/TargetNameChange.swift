/// A change to the daemon's target names that the worker core asks the shell to make in the
/// shared directory (`WorkerAction.targetNames`), performed in order among the core's actions.
/// (A deleted target's name is retired at once, `TargetDirectory.retireTarget`: a replay may
/// claim it again before the shell performs anything.)
public enum TargetNameChange: Sendable, Equatable {
    /// A claimed name is given back (its creation failed).
    case release(String)
    /// The names a restored file's deleted targets had (their claims were never made).
    case rememberRetired([String], file: String)
}
