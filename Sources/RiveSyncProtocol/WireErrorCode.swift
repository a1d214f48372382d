/// Every error code the daemon sends (PROTOCOL.md §13); the raw value is the wire string.
public enum WireErrorCode: String, Sendable, Hashable, CaseIterable {
    /// The message is not valid JSON.
    case badJSON = "bad_json"
    /// JSON nested deeper than `maxJSONDepth`.
    case tooDeep = "too_deep"
    /// Not an object, a missing or wrongly typed field, a second `hello`.
    case badMessage = "bad_message"
    /// An unknown `type`.
    case unknownType = "unknown_type"
    /// A request before `hello`.
    case helloRequired = "hello_required"
    /// No common protocol version.
    case unsupportedVersion = "unsupported_version"
    /// No valid token where one is needed, or the token was revoked (then closed with 1008).
    case unauthorized
    /// The connection lacks the permission.
    case forbidden
    /// More requests in one second than `maxCommandsPerSecond`.
    case rateLimited = "rate_limited"
    /// A limit of §12 would be passed.
    case limitExceeded = "limit_exceeded"
    /// No such file.
    case unknownFile = "unknown_file"
    /// The file name is taken.
    case fileExists = "file_exists"
    /// The file's content cannot be read.
    case invalidFile = "invalid_file"
    /// The file's content is inconsistent.
    case invalidData = "invalid_data"
    /// As Rive's `FileError.invalidArtboard`.
    case invalidArtboard = "invalid_artboard"
    /// As Rive's `FileError.invalidViewModel`.
    case invalidViewModel = "invalid_view_model"
    /// As Rive's `FileError.invalidViewModelInstance`.
    case invalidViewModelInstance = "invalid_view_model_instance"
    /// As Rive's `FileError.invalidAsset`.
    case invalidAsset = "invalid_asset"
    /// As Rive's `ArtboardError.invalidStateMachine`.
    case invalidStateMachine = "invalid_state_machine"
    /// As Rive's `StateMachineError.invalidGlobalViewModelName`.
    case invalidGlobalViewModelName = "invalid_global_view_model_name"
    /// As Rive's `StateMachineError.duplicateGlobalViewModelInstance`.
    case duplicateGlobalViewModelInstance = "duplicate_global_view_model_instance"
    /// The instance's view model does not fit the slot or nested property.
    case incompatibleInstance = "incompatible_instance"
    /// No such target.
    case unknownTarget = "unknown_target"
    /// The target name is taken.
    case targetExists = "target_exists"
    /// No such instance (or one the connection may not attach).
    case unknownInstance = "unknown_instance"
    /// The instance lives on another worker than the target.
    case wrongWorker = "wrong_worker"
    /// A queued command whose target was deleted before it applied.
    case targetDeleted = "target_deleted"
    /// A path that cannot be parsed.
    case invalidPath = "invalid_path"
    /// No such binding slot.
    case noSuchSlot = "no_such_slot"
    /// No property at the path.
    case noSuchProperty = "no_such_property"
    /// The property has another type.
    case typeMismatch = "type_mismatch"
    /// Not one of the enum's values.
    case invalidEnumValue = "invalid_enum_value"
    /// A list index outside the list.
    case indexOutOfRange = "index_out_of_range"
    /// A path through a null view model property.
    case nullInstance = "null_instance"
    /// The instance is not in the list.
    case instanceNotInList = "instance_not_in_list"
    /// A value the property cannot hold.
    case invalidValue = "invalid_value"
    /// An upload whose bytes are not the declared kind.
    case invalidAssetData = "invalid_asset_data"
    /// `advance` on an auto target.
    case notManual = "not_manual"
    /// `setInput` / `fireInput` naming an input the target's state machine does not have.
    case noSuchInput = "no_such_input"
    /// `setBindTarget` naming a data bind the target's state machine does not have.
    case noSuchDataBind = "no_such_data_bind"
    /// A presence update or leave of a target this connection is not a member of (§15).
    case notJoined = "not_joined"
    /// A cluster node asked for a file or target of a shard it does not serve; `details` name
    /// the shard and the URLs of nodes serving it (protocol/CLUSTER.md §6).
    case wrongNode = "wrong_node"
    /// The change could not be written to the state directory; it was not applied.
    case storageFailed = "storage_failed"
    /// A bug; the daemon logs it.
    case `internal`
}
