import Foundation

// Readable text for every public error: `print(error)`, `"\(error)"` and
// `error.localizedDescription` give a sentence instead of the case's name.

extension WorkerError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .connectionFailed(let reason): "cannot connect to the daemon: \(reason)"
        case .unauthorized(let message): "the daemon refused the token: \(message)"
        case .forbidden(let message): "the token does not allow this: \(message)"
        case .unsupportedVersion(let message): "the daemon speaks no protocol version this client speaks: \(message)"
        case .disconnected: "the connection dropped before the reply came (the outcome is unknown)"
        case .closed: "the worker was closed"
        case .limitExceeded(let limit): "the daemon's limit '\(limit)' was exceeded"
        case .server(let code, let message): "the daemon reported \(code): \(message)"
        case .protocolViolation(let reason): "the daemon sent a message this client cannot read (connection closed): \(reason)"
        case .wrongNode(let shard, let nodes):
            "this node does not serve shard '\(shard)'; "
                + (nodes.isEmpty ? "no node of it announced a URL" : "connect to \(nodes.joined(separator: " or "))")
        }
    }

    public var errorDescription: String? { description }
}

extension FileError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .missingFile(let name): "no file named '\(name)' is loaded in the daemon"
        case .invalidData(let message): "invalid data: \(message)"
        case .missingData(let message): "missing data: \(message)"
        case .invalidFile(let message): "invalid file: \(message)"
        case .invalidArtboard(let name): "no artboard '\(name)' in the file"
        case .invalidViewModel(let name): "no view model '\(name)' in the file"
        case .invalidViewModelInstance(let message): "no such view model instance: \(message)"
        case .invalidAsset(let message): "invalid asset: \(message)"
        case .fileExists(let name): "a file named '\(name)' is already loaded"
        case .cancelled: "cancelled"
        }
    }

    public var errorDescription: String? { description }
}

extension ArtboardError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .invalidArtboard(let name): "no artboard '\(name)'"
        case .invalidStateMachine(let name): "no state machine '\(name)' on the artboard"
        case .cancelled: "cancelled"
        }
    }

    public var errorDescription: String? { description }
}

extension StateMachineError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .error(let message): message
        case .cancelled: "cancelled"
        case .duplicateGlobalViewModelInstance(let name): "the global '\(name)' was given twice"
        case .invalidGlobalViewModelName(let name): "'\(name)' is not a global view model of the file"
        case .incompatibleInstance(let slot, let expected, let actual): "slot '\(slot)' takes a \(expected), not a \(actual)"
        case .unknownTarget(let name): "no state machine or published instance named '\(name)'"
        case .targetExists(let name): "the target name '\(name)' is taken"
        case .unknownInstance(let id): "no instance #\(id) in the file"
        case .wrongWorker(let message): "the instance lives on another daemon worker: \(message)"
        case .notManual(let name): "'\(name)' advances by itself; advance() is only for manual state machines"
        case .targetDeleted(let name): "the target '\(name)' was deleted"
        case .notJoined(let name): "this client has not joined the presence of '\(name)'"
        case .noSuchInput(let target, let name): "the state machine of '\(target)' has no input '\(name)'"
        case .inputMismatch(let name, let expected, let actual): "the input '\(name)' is a \(expected), not a \(actual)"
        case .noSuchDataBind(let target, let bind): "the state machine of '\(target)' has no data bind \(bind) a client can write"
        case .bindTargetMismatch(let bind, let expected, let actual): "the target of data bind \(bind) takes a \(expected), not a \(actual)"
        }
    }

    public var errorDescription: String? { description }
}

extension ViewModelInstanceError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .missingData: "the daemon sent no value"
        case .valueMismatch(let expected, let actual): "type mismatch: expected \(expected), got \(actual)"
        case .message(let message): message
        case .cancelled: "cancelled"
        case .invalidPath(let path): "invalid path '\(path)'"
        case .noSuchProperty(let path): "no property at path '\(path)'"
        case .nullInstance(let path): "the nested instance at '\(path)' is null"
        case .invalidEnumValue(let path, let value, let allowed):
            "'\(value)' is not a value of the enum at '\(path)' (allowed: \(allowed.joined(separator: ", ")))"
        case .indexOutOfRange(let path, let index, let count): "index \(index) is outside the list '\(path)' of \(count)"
        case .instanceNotInList(let path, let instance): "instance #\(instance) is not in the list '\(path)'"
        case .incompatibleInstance(let path, let expected, let actual): "'\(path)' takes a \(expected), not a \(actual)"
        case .invalidValue(let path, let reason): "invalid value for '\(path)': \(reason)"
        case .unknownInstance(let id): "no instance #\(id) reachable here"
        case .invalidAsset(let name): "the daemon holds no asset '\(name)'"
        }
    }

    public var errorDescription: String? { description }
}
