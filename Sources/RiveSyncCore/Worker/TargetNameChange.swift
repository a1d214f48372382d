/// A change to the daemon's target names that the worker core asks the shell to make in the
/// shared directory (`WorkerAction.targetNames`), performed in order among the core's actions
/// (so before the replies that follow it). The core decides with its own names first
/// (`WorkerCore.names`); the directory follows.
public enum TargetNameChange: Sendable, Equatable {
    /// A record nobody claimed a name for applied (a restore, another cluster node's record):
    /// the name is now `file`'s.
    case claim(String, file: String)
    /// A claimed name is given back (its creation failed).
    case release(String)
    /// A deleted target's name: free again, for its own file only.
    case retire(String, file: String)
    /// The names a restored file's deleted targets had.
    case rememberRetired([String], file: String)
}
