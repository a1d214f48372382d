import RiveSyncJSON

/// An `error` reply as it arrived (PROTOCOL.md §13), before it becomes one of the public,
/// typed errors. Which public enum it becomes depends on the request (`Domain`).
struct ServerFailure: Error, Sendable {
    var code: String
    var message: String
    var details: JSONValue

    /// The public error family a request's failures belong to.
    enum Domain {
        case file, artboard, stateMachine, instance
    }

    init(_ json: JSONValue) {
        code = json["code"]?.stringValue ?? "internal"
        message = json["message"]?.stringValue ?? ""
        details = json["details"] ?? .object([])
    }

    private func text(_ key: String) -> String { details[key]?.stringValue ?? "" }
    private func int(_ key: String) -> Int { details[key]?.intValue ?? 0 }

    /// `details.name`, or the message when the daemon gave no name.
    private var name: String { details["name"]?.stringValue ?? message }

    /// The public error for a failure of a request in `domain`. `pathPrefix` (`#id/`) is
    /// removed from paths, so errors name paths as the caller wrote them.
    func typed(_ domain: Domain, pathPrefix: String = "") -> any Error {
        if let error = connectionError { return error }
        if code == "target_deleted" { return StateMachineError.targetDeleted(text("target")) }
        switch domain {
        case .file: return fileError
        case .artboard: return artboardError ?? fileError
        case .stateMachine: return stateMachineError ?? artboardError ?? fileError
        case .instance: return instanceError(pathPrefix: pathPrefix)
        }
    }

    private var connectionError: WorkerError? {
        switch code {
        case "unauthorized": return .unauthorized(message)
        case "forbidden": return .forbidden(message)
        case "unsupported_version": return .unsupportedVersion(message)
        case "rate_limited", "limit_exceeded": return .limitExceeded(text("limit"))
        case "bad_json", "too_deep", "bad_message", "unknown_type", "hello_required", "internal":
            return .server(code: code, message: message)
        default: return nil
        }
    }

    private var fileError: any Error {
        switch code {
        case "unknown_file": return FileError.missingFile(text("file"))
        case "file_exists": return FileError.fileExists(text("file"))
        case "invalid_file": return FileError.invalidFile(message)
        case "invalid_data": return FileError.invalidData(message)
        case "invalid_artboard": return FileError.invalidArtboard(name)
        case "invalid_view_model": return FileError.invalidViewModel(name)
        case "invalid_view_model_instance": return FileError.invalidViewModelInstance(message)
        case "invalid_asset", "invalid_asset_data": return FileError.invalidAsset(message)
        default: return stateMachineError ?? FileError.invalidData(message)
        }
    }

    private var artboardError: ArtboardError? {
        switch code {
        case "invalid_artboard": return .invalidArtboard(name)
        case "invalid_state_machine": return .invalidStateMachine(name)
        default: return nil
        }
    }

    private var stateMachineError: StateMachineError? {
        switch code {
        case "invalid_global_view_model_name": return .invalidGlobalViewModelName(name)
        case "duplicate_global_view_model_instance": return .duplicateGlobalViewModelInstance(name)
        case "incompatible_instance": return .incompatibleInstance(slot: text("slot"), expected: text("expected"), actual: text("actual"))
        case "unknown_target": return .unknownTarget(text("target"))
        case "target_exists": return .targetExists(text("target"))
        case "unknown_instance": return .unknownInstance(UInt64(int("instance")))
        case "wrong_worker": return .wrongWorker(message)
        case "not_manual": return .notManual(text("target"))
        default: return nil
        }
    }

    private func instanceError(pathPrefix: String) -> any Error {
        var path = text("path")
        if !pathPrefix.isEmpty, path.hasPrefix(pathPrefix) { path.removeFirst(pathPrefix.count) }
        switch code {
        case "invalid_path": return ViewModelInstanceError.invalidPath(path)
        case "no_such_property", "no_such_slot": return ViewModelInstanceError.noSuchProperty(path: path)
        case "type_mismatch": return ViewModelInstanceError.valueMismatch(text("expected"), text("actual"))
        case "invalid_enum_value":
            let allowed = details["allowed"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return ViewModelInstanceError.invalidEnumValue(path: path, value: text("value"), allowed: allowed)
        case "index_out_of_range":
            return ViewModelInstanceError.indexOutOfRange(path: path, index: int("index"), count: int("count"))
        case "null_instance": return ViewModelInstanceError.nullInstance(path: path)
        case "instance_not_in_list": return ViewModelInstanceError.instanceNotInList(path: path, instance: UInt64(int("instance")))
        case "incompatible_instance":
            return ViewModelInstanceError.incompatibleInstance(path: path, expected: text("expected"), actual: text("actual"))
        case "invalid_value": return ViewModelInstanceError.invalidValue(path: path, reason: text("reason"))
        case "unknown_instance": return ViewModelInstanceError.unknownInstance(UInt64(int("instance")))
        case "invalid_asset": return ViewModelInstanceError.invalidAsset(name)
        default: return ViewModelInstanceError.message(message)
        }
    }
}
