internal import RiveSyncJSON
internal import RiveSyncProtocol

/// An `error` reply as it arrived (PROTOCOL.md §13), before it becomes one of the public,
/// typed errors. Which public enum it becomes depends on the request (`Domain`).
struct ServerFailure: Error, Sendable {
    /// The code, or nil for one this client does not know (a newer daemon's, §14).
    var code: WireErrorCode?
    /// The code as sent.
    var wireCode: String
    var message: String
    var details: JSONValue

    /// The public error family a request's failures belong to.
    enum Domain {
        case file, artboard, stateMachine, instance
    }

    init(_ error: WireError) {
        code = error.code
        wireCode = error.code.rawValue
        message = error.message
        details = .object(error.details)
    }

    /// An error whose code this client does not know: still an error (§14).
    init(unknownCode: String, message: String) {
        code = nil
        wireCode = unknownCode
        self.message = message
        details = .object([])
    }

    private func text(_ key: String) -> String { details[key]?.stringValue ?? "" }
    private func int(_ key: String) -> Int { details[key]?.intValue ?? 0 }

    /// `details.name`, or the message when the daemon gave no name.
    private var name: String { details["name"]?.stringValue ?? message }

    /// The public error for a failure of a request in `domain`. `pathPrefix` (`#id/`) is
    /// removed from paths, so errors name paths as the caller wrote them.
    /// A transaction's failure (it names the failing command, PROTOCOL.md §16) is a
    /// `TransactionFailure` around that command's error.
    func typed(_ domain: Domain, pathPrefix: String = "") -> any Error {
        if let index = details["commandIndex"]?.intValue {
            var command = self
            command.details = .object((details.objectValue ?? []).filter { $0.0 != "commandIndex" })
            return TransactionFailure(commandIndex: index, error: command.typed(domain, pathPrefix: pathPrefix))
        }
        guard let code else { return WorkerError.server(code: wireCode, message: message) }
        if let error = connectionError(code) { return error }
        if code == .targetDeleted { return StateMachineError.targetDeleted(text("target")) }
        switch domain {
        case .file: return fileError(code)
        case .artboard: return artboardError(code) ?? fileError(code)
        case .stateMachine: return stateMachineError(code) ?? artboardError(code) ?? fileError(code)
        case .instance: return instanceError(code, pathPrefix: pathPrefix)
        }
    }

    private func connectionError(_ code: WireErrorCode) -> WorkerError? {
        switch code {
        case .unauthorized: return .unauthorized(message)
        case .forbidden: return .forbidden(message)
        case .unsupportedVersion: return .unsupportedVersion(message)
        case .rateLimited, .limitExceeded: return .limitExceeded(text("limit"))
        case .wrongNode: return .wrongNode(shard: text("shard"), nodes: details["nodes"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        case .badJSON, .tooDeep, .badMessage, .unknownType, .helloRequired, .internal:
            return .server(code: code.rawValue, message: message)
        default: return nil
        }
    }

    private func fileError(_ code: WireErrorCode) -> any Error {
        switch code {
        case .unknownFile: return FileError.missingFile(text("file"))
        case .fileExists: return FileError.fileExists(text("file"))
        case .invalidFile: return FileError.invalidFile(message)
        case .invalidData: return FileError.invalidData(message)
        case .invalidArtboard: return FileError.invalidArtboard(name)
        case .invalidViewModel: return FileError.invalidViewModel(name)
        case .invalidViewModelInstance: return FileError.invalidViewModelInstance(message)
        case .invalidAsset, .invalidAssetData: return FileError.invalidAsset(message)
        default: return stateMachineError(code) ?? FileError.invalidData(message)
        }
    }

    private func artboardError(_ code: WireErrorCode) -> ArtboardError? {
        switch code {
        case .invalidArtboard: return .invalidArtboard(name)
        case .invalidStateMachine: return .invalidStateMachine(name)
        default: return nil
        }
    }

    private func stateMachineError(_ code: WireErrorCode) -> StateMachineError? {
        switch code {
        case .invalidGlobalViewModelName: return .invalidGlobalViewModelName(name)
        case .duplicateGlobalViewModelInstance: return .duplicateGlobalViewModelInstance(name)
        case .incompatibleInstance: return .incompatibleInstance(slot: text("slot"), expected: text("expected"), actual: text("actual"))
        case .unknownTarget: return .unknownTarget(text("target"))
        case .targetExists: return .targetExists(text("target"))
        case .unknownInstance: return .unknownInstance(UInt64(int("instance")))
        case .wrongWorker: return .wrongWorker(message)
        case .notManual: return .notManual(text("target"))
        case .notJoined: return .notJoined(text("target"))
        case .noSuchInput: return .noSuchInput(target: text("target"), name: text("name"))
        case .noSuchDataBind: return .noSuchDataBind(target: text("target"), bind: int("bind"))
        case .typeMismatch where details["bind"] != nil:
            return .bindTargetMismatch(bind: int("bind"), expected: text("expected"), actual: text("actual"))
        case .typeMismatch: return .inputMismatch(name: text("name"), expected: text("expected"), actual: text("actual"))
        default: return nil
        }
    }

    private func instanceError(_ code: WireErrorCode, pathPrefix: String) -> any Error {
        var path = text("path")
        if !pathPrefix.isEmpty, path.hasPrefix(pathPrefix) { path.removeFirst(pathPrefix.count) }
        switch code {
        case .invalidPath: return ViewModelInstanceError.invalidPath(path)
        case .noSuchProperty, .noSuchSlot: return ViewModelInstanceError.noSuchProperty(path: path)
        case .typeMismatch: return ViewModelInstanceError.valueMismatch(text("expected"), text("actual"))
        case .invalidEnumValue:
            let allowed = details["allowed"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return ViewModelInstanceError.invalidEnumValue(path: path, value: text("value"), allowed: allowed)
        case .indexOutOfRange:
            return ViewModelInstanceError.indexOutOfRange(path: path, index: int("index"), count: int("count"))
        case .nullInstance: return ViewModelInstanceError.nullInstance(path: path)
        case .instanceNotInList: return ViewModelInstanceError.instanceNotInList(path: path, instance: UInt64(int("instance")))
        case .incompatibleInstance:
            return ViewModelInstanceError.incompatibleInstance(path: path, expected: text("expected"), actual: text("actual"))
        case .invalidValue: return ViewModelInstanceError.invalidValue(path: path, reason: text("reason"))
        case .unknownInstance: return ViewModelInstanceError.unknownInstance(UInt64(int("instance")))
        case .invalidAsset: return ViewModelInstanceError.invalidAsset(name)
        default: return ViewModelInstanceError.message(message)
        }
    }
}
