import RiveSyncClient

/// One-line messages for the client library's errors.
enum ErrorText {
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as WorkerError: return describe(error)
        case let error as TransactionFailure: return "pair \(error.commandIndex) (nothing was set): \(describe(error.error))"
        case let error as ViewModelInstanceError: return describe(error)
        case let error as StateMachineError: return describe(error)
        case let error as FileError: return describe(error)
        case let error as ArtboardError:
            switch error {
            case .invalidArtboard(let name): return "no artboard '\(name)'"
            case .invalidStateMachine(let name): return "no state machine '\(name)'"
            case .cancelled: return "cancelled"
            }
        default: return "\(error)"
        }
    }

    private static func describe(_ error: WorkerError) -> String {
        switch error {
        case .connectionFailed(let reason): return "cannot connect to \(reason)"
        case .unauthorized(let message), .forbidden(let message), .unsupportedVersion(let message): return message
        case .disconnected: return "the connection to the daemon was lost"
        case .closed: return "the connection was closed"
        case .limitExceeded(let limit): return "the daemon's limit \(limit) was reached"
        case .server(let code, let message): return "\(code): \(message)"
        case .protocolViolation(let reason): return "the daemon sent a message this client cannot read: \(reason)"
        case .wrongNode(let shard, let nodes):
            return "this node does not serve shard '\(shard)'"
                + (nodes.isEmpty ? "" : "; its nodes: \(nodes.joined(separator: ", "))")
        }
    }

    private static func describe(_ error: ViewModelInstanceError) -> String {
        switch error {
        case .noSuchProperty(let path): return "no property at '\(path)'"
        case .valueMismatch(let expected, let actual): return "type mismatch: expected \(expected), got \(actual)"
        case .invalidPath(let path): return "invalid path '\(path)'"
        case .nullInstance(let path): return "'\(path)' is null"
        case .invalidEnumValue(let path, let value, let allowed):
            return "'\(path)': '\(value)' is not one of \(allowed.joined(separator: ", "))"
        case .indexOutOfRange(let path, let index, let count): return "'\(path)': index \(index) outside 0..<\(count)"
        case .instanceNotInList(let path, let instance): return "instance #\(instance) is not in '\(path)'"
        case .incompatibleInstance(let path, let expected, let actual): return "'\(path)' needs a '\(expected)' instance, got '\(actual)'"
        case .invalidValue(let path, let reason): return "'\(path)': \(reason)"
        case .unknownInstance(let id): return "no instance #\(id)"
        case .invalidAsset(let name): return "no asset '\(name)'"
        case .message(let text): return text
        case .missingData: return "the daemon sent no value"
        case .cancelled: return "cancelled"
        }
    }

    private static func describe(_ error: StateMachineError) -> String {
        switch error {
        case .unknownTarget(let name): return "no target '\(name)' (see 'rivesync ls')"
        case .targetExists(let name): return "target '\(name)' already exists"
        case .invalidGlobalViewModelName(let name): return "'\(name)' is not a global view model"
        case .duplicateGlobalViewModelInstance(let name): return "global '\(name)' given twice"
        case .incompatibleInstance(let slot, let expected, let actual):
            return "slot '\(slot)' needs a '\(expected)' instance, got '\(actual)'"
        case .unknownInstance(let id): return "no instance #\(id)"
        case .wrongWorker(let message), .error(let message): return message
        case .notManual(let name): return "'\(name)' advances by itself"
        case .notJoined(let name): return "not a member of the presence of '\(name)'"
        case .noSuchInput(let target, let name): return "'\(target)' has no state machine input '\(name)' (see 'rivesync ls')"
        case .inputMismatch(let name, let expected, let actual): return "input '\(name)' is a \(expected), not a \(actual)"
        case .noSuchDataBind(let target, let bind):
            return "the state machine of '\(target)' has no data bind \(bind) (see 'rivesync inspect --graph')"
        case .bindTargetMismatch(let bind, let expected, let actual): return "data bind \(bind)'s target is a \(expected), not a \(actual)"
        case .targetDeleted(let name): return "target '\(name)' was deleted"
        case .cancelled: return "cancelled"
        }
    }

    private static func describe(_ error: FileError) -> String {
        switch error {
        case .missingFile(let name): return "no file '\(name)'"
        case .fileExists(let name): return "file '\(name)' already exists"
        case .invalidArtboard(let name): return "no artboard '\(name)'"
        case .invalidViewModel(let name): return "no view model '\(name)'"
        case .invalidViewModelInstance(let message), .invalidFile(let message), .invalidData(let message), .missingData(let message):
            return message
        case .invalidAsset(let name): return "no asset '\(name)'"
        case .cancelled: return "cancelled"
        }
    }
}
