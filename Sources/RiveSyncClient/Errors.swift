/// Errors of the connection itself, in the role of Rive's `WorkerError`: the daemon could not be
/// reached, refused the client, or the link dropped while a request was in flight.
public enum WorkerError: Error, Sendable, Hashable {
    /// The WebSocket connection could not be opened (URL and reason).
    case connectionFailed(String)
    /// The daemon refused the token (`unauthorized`).
    case unauthorized(String)
    /// The token lacks a scope the request needs (`forbidden`).
    case forbidden(String)
    /// The daemon speaks no protocol version this client speaks.
    case unsupportedVersion(String)
    /// The connection dropped before the reply came. For a command the outcome is unknown: it
    /// may or may not have been applied (the streams and reads show which, after the resume).
    case disconnected
    /// The worker was closed with `close()`.
    case closed
    /// A per-connection limit was hit (`limit_exceeded`, `rate_limited`; the limit's name).
    case limitExceeded(String)
    /// The daemon reported a protocol or internal error (code, message).
    case server(code: String, message: String)
    /// The daemon sent a message this client cannot read (what was wrong with it): the client
    /// closed the connection with 1002 and does not reconnect (PROTOCOL.md §12, §14).
    case protocolViolation(String)
    /// A cluster node that does not serve the shard of the file or target asked for
    /// (`wrong_node`, protocol/CLUSTER.md §6): the shard, and the URLs of nodes that serve it
    /// (connect to one of them and ask again; empty when none announced a URL).
    case wrongNode(shard: String, nodes: [String])
}

/// Errors of file-level requests, with the case names of Rive's `FileError`.
public enum FileError: Error, Sendable, Hashable {
    /// No file with this name is loaded in the daemon (`unknown_file`).
    case missingFile(String)
    case invalidData(String)
    case missingData(String)
    case invalidFile(String)
    case invalidArtboard(String)
    case invalidViewModel(String)
    case invalidViewModelInstance(String)
    case invalidAsset(String)
    /// A file with this name is already loaded (`file_exists`).
    case fileExists(String)
    case cancelled
}

/// Errors of artboard requests, with the case names of Rive's `ArtboardError`.
public enum ArtboardError: Error, Sendable, Hashable {
    case invalidArtboard(String)
    case invalidStateMachine(String)
    case cancelled
}

/// Errors of state machine requests, with the case names of Rive's `StateMachineError`, plus
/// the checks Rive leaves out (they arrive from the daemon, nothing is applied on failure).
public enum StateMachineError: Error, Sendable, Hashable {
    case error(String)
    case cancelled
    /// The same global view model name was supplied twice in one call.
    case duplicateGlobalViewModelInstance(String)
    /// The name is not a global view model of the file.
    case invalidGlobalViewModelName(String)
    /// The instance's view model does not fit the slot (slot, expected, actual).
    case incompatibleInstance(slot: String, expected: String, actual: String)
    /// No state machine or published instance has this name.
    case unknownTarget(String)
    /// The target name is taken.
    case targetExists(String)
    /// No such instance in the file (its id).
    case unknownInstance(UInt64)
    /// The instance lives on another daemon worker than the target.
    case wrongWorker(String)
    /// `advance()` on a target that advances by itself.
    case notManual(String)
    /// The target was deleted: its streams ended, and writes still queued on it did not apply.
    case targetDeleted(String)
    /// A presence update or leave of a target this client has not joined (its name).
    case notJoined(String)
    /// The target's state machine has no legacy input with this name, or the target is a
    /// published instance (`no_such_input`).
    case noSuchInput(target: String, name: String)
    /// The input is of another kind than the call: a number or boolean for the other, a
    /// trigger set, a number or boolean fired (`type_mismatch`; name, expected, actual).
    case inputMismatch(name: String, expected: String, actual: String)
    /// The state machine's artboard has no data bind with this index a client can write, or
    /// the target is a published instance (`no_such_data_bind`).
    case noSuchDataBind(target: String, bind: Int)
    /// The value is not of the bound component property's type (`type_mismatch` of a
    /// `setBindTarget`; bind, expected, actual).
    case bindTargetMismatch(bind: Int, expected: String, actual: String)
}

/// Errors of property reads, writes and streams, with the case names of Rive's
/// `ViewModelInstanceError`, plus one case per path and value error: where Rive only logs a
/// bad path, a wrong type or an unknown enum value, RiveSync throws it to the caller.
public enum ViewModelInstanceError: Error, Sendable, Hashable {
    case missingData
    /// The property has another type (expected, actual).
    case valueMismatch(String, String)
    /// Any other error the daemon reported, as text.
    case message(String)
    case cancelled
    /// The path is empty or has an empty segment.
    case invalidPath(String)
    /// No property at this path.
    case noSuchProperty(path: String)
    /// A nested view model on the way is null.
    case nullInstance(path: String)
    /// The enum has no value with this name.
    case invalidEnumValue(path: String, value: String, allowed: [String])
    /// A list index outside the list.
    case indexOutOfRange(path: String, index: Int, count: Int)
    /// The instance is not in the list.
    case instanceNotInList(path: String, instance: UInt64)
    /// The instance's view model does not fit the property (path, expected, actual).
    case incompatibleInstance(path: String, expected: String, actual: String)
    /// The value is not allowed here (path, reason).
    case invalidValue(path: String, reason: String)
    /// No instance with this id in the file (or it is not reachable where it is read).
    case unknownInstance(UInt64)
    /// An image, font or blob that the daemon does not hold.
    case invalidAsset(String)
}
