import RiveSyncClient

/// The exit status and protocol error code (PROTOCOL.md §13) of the client library's errors.
enum ErrorCodes {
    /// The error as a `CommandError`: `.remote` with its status, code and one-line message.
    static func commandError(_ error: any Error) -> CommandError {
        if let error = error as? CommandError { return error }
        let (status, code) = classify(error)
        return .remote(status, code: code, message: ErrorText.describe(error))
    }

    static func classify(_ error: any Error) -> (ExitCode, String) {
        switch error {
        case let error as WorkerError: return classify(error)
        case let error as TransactionFailure: return classify(error.error)
        case let error as ViewModelInstanceError: return classify(error)
        case let error as StateMachineError: return classify(error)
        case let error as FileError: return classify(error)
        case let error as ArtboardError:
            switch error {
            case .invalidArtboard: return (.notFound, "invalid_artboard")
            case .invalidStateMachine: return (.notFound, "invalid_state_machine")
            case .cancelled: return (.failure, "cancelled")
            }
        default: return (.failure, "failure")
        }
    }

    private static func classify(_ error: WorkerError) -> (ExitCode, String) {
        switch error {
        case .connectionFailed: return (.unreachable, "unreachable")
        case .disconnected: return (.unreachable, "disconnected")
        case .closed: return (.failure, "closed")
        case .unauthorized: return (.unauthorized, "unauthorized")
        case .forbidden: return (.forbidden, "forbidden")
        case .unsupportedVersion: return (.rejected, "unsupported_version")
        case .limitExceeded: return (.rejected, "limit_exceeded")
        case .server(let code, _): return (status(ofCode: code), code)
        case .protocolViolation: return (.failure, "protocol_violation")
        case .wrongNode: return (.rejected, "wrong_node")
        }
    }

    /// The exit status of a protocol error code the client library passes on as it is.
    static func status(ofCode code: String) -> ExitCode {
        switch code {
        case "unknown_file", "unknown_target", "unknown_instance", "no_such_property", "no_such_slot", "no_such_input", "no_such_data_bind",
            "invalid_artboard", "invalid_view_model", "invalid_view_model_instance", "invalid_asset", "invalid_state_machine",
            "invalid_global_view_model_name":
            return .notFound
        case "type_mismatch", "invalid_enum_value", "index_out_of_range", "null_instance", "instance_not_in_list", "invalid_value",
            "invalid_path", "invalid_asset_data", "incompatible_instance", "duplicate_global_view_model_instance", "invalid_file",
            "invalid_data":
            return .invalidValue
        case "target_exists", "file_exists", "not_manual", "not_joined", "wrong_worker", "wrong_node", "target_deleted", "limit_exceeded",
            "rate_limited", "unsupported_version":
            return .rejected
        case "unauthorized": return .unauthorized
        case "forbidden": return .forbidden
        default: return .failure
        }
    }

    private static func classify(_ error: ViewModelInstanceError) -> (ExitCode, String) {
        switch error {
        case .noSuchProperty: return (.notFound, "no_such_property")
        case .unknownInstance: return (.notFound, "unknown_instance")
        case .invalidAsset: return (.notFound, "invalid_asset")
        case .valueMismatch: return (.invalidValue, "type_mismatch")
        case .invalidPath: return (.invalidValue, "invalid_path")
        case .nullInstance: return (.invalidValue, "null_instance")
        case .invalidEnumValue: return (.invalidValue, "invalid_enum_value")
        case .indexOutOfRange: return (.invalidValue, "index_out_of_range")
        case .instanceNotInList: return (.invalidValue, "instance_not_in_list")
        case .incompatibleInstance: return (.invalidValue, "incompatible_instance")
        case .invalidValue: return (.invalidValue, "invalid_value")
        case .message, .missingData, .cancelled: return (.failure, "failure")
        }
    }

    private static func classify(_ error: StateMachineError) -> (ExitCode, String) {
        switch error {
        case .unknownTarget: return (.notFound, "unknown_target")
        case .unknownInstance: return (.notFound, "unknown_instance")
        case .invalidGlobalViewModelName: return (.notFound, "invalid_global_view_model_name")
        case .duplicateGlobalViewModelInstance: return (.invalidValue, "duplicate_global_view_model_instance")
        case .incompatibleInstance: return (.invalidValue, "incompatible_instance")
        case .targetExists: return (.rejected, "target_exists")
        case .wrongWorker: return (.rejected, "wrong_worker")
        case .notManual: return (.rejected, "not_manual")
        case .targetDeleted: return (.rejected, "target_deleted")
        case .notJoined: return (.rejected, "not_joined")
        case .noSuchInput: return (.notFound, "no_such_input")
        case .inputMismatch: return (.invalidValue, "type_mismatch")
        case .noSuchDataBind: return (.notFound, "no_such_data_bind")
        case .bindTargetMismatch: return (.invalidValue, "type_mismatch")
        case .error, .cancelled: return (.failure, "failure")
        }
    }

    private static func classify(_ error: FileError) -> (ExitCode, String) {
        switch error {
        case .missingFile: return (.notFound, "unknown_file")
        case .invalidArtboard: return (.notFound, "invalid_artboard")
        case .invalidViewModel: return (.notFound, "invalid_view_model")
        case .invalidViewModelInstance: return (.notFound, "invalid_view_model_instance")
        case .invalidAsset: return (.notFound, "invalid_asset")
        case .fileExists: return (.rejected, "file_exists")
        case .invalidFile: return (.invalidValue, "invalid_file")
        case .invalidData: return (.invalidValue, "invalid_data")
        case .missingData, .cancelled: return (.failure, "failure")
        }
    }
}
