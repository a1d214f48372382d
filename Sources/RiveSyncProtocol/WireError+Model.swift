import RiveSyncJSON
import RiveSyncModel

extension WireError {
    /// The wire form of any error the model, the reader or the protocol layer throws.
    public init(_ error: any Error) {
        switch error {
        case let error as WireError: self = error
        case let error as FileError: self.init(error)
        case let error as ArtboardError: self.init(error)
        case let error as StateMachineError: self.init(error)
        case let error as PropertyError: self.init(error)
        case let error as StateMachineInputError: self.init(error)
        case let error as DataBindTargetError: self.init(error)
        default: self = .internalError("\(error)")
        }
    }

    public init(_ error: FileError) {
        switch error {
        case .invalidFile(let m): self.init(code: .invalidFile, message: m)
        case .invalidData(let m): self.init(code: .invalidData, message: m)
        case .invalidArtboard(let n): self.init(code: .invalidArtboard, message: "no artboard '\(n)'", details: [("name", .string(n))])
        case .invalidViewModel(let n):
            self.init(code: .invalidViewModel, message: "invalid view model: \(n)", details: [("name", .string(n))])
        case .invalidViewModelInstance(let m): self.init(code: .invalidViewModelInstance, message: m)
        case .invalidAsset(let n): self.init(code: .invalidAsset, message: "no asset '\(n)'", details: [("name", .string(n))])
        case .limitExceeded(let limit, let value): self = .limit(limit, value)
        }
    }

    public init(_ error: ArtboardError) {
        switch error {
        case .invalidArtboard(let n): self.init(code: .invalidArtboard, message: "no artboard '\(n)'", details: [("name", .string(n))])
        case .invalidStateMachine(let n):
            self.init(code: .invalidStateMachine, message: "no state machine '\(n)'", details: [("name", .string(n))])
        }
    }

    public init(_ error: StateMachineError) {
        switch error {
        case .invalidGlobalViewModelName(let n):
            self.init(code: .invalidGlobalViewModelName, message: "'\(n)' is not a global view model", details: [("name", .string(n))])
        case .duplicateGlobalViewModelInstance(let n):
            self.init(code: .duplicateGlobalViewModelInstance, message: "global '\(n)' supplied twice", details: [("name", .string(n))])
        case .incompatibleInstance(let slot, let expected, let actual):
            self.init(
                code: .incompatibleInstance, message: "slot '\(slot)' needs a '\(expected)' instance, got '\(actual)'",
                details: [("slot", .string(slot)), ("expected", .string(expected)), ("actual", .string(actual))])
        case .unknownTarget(let n): self.init(code: .unknownTarget, message: "no target '\(n)'", details: [("target", .string(n))])
        case .targetExists(let n):
            self.init(code: .targetExists, message: "target '\(n)' already exists", details: [("target", .string(n))])
        case .unknownInstance(let id):
            self.init(code: .unknownInstance, message: "no instance \(id.rawValue)", details: [("instance", .number(Double(id.rawValue)))])
        }
    }

    public init(_ error: StateMachineInputError) {
        switch error {
        case .noSuchInput(let target, let name):
            self.init(
                code: .noSuchInput, message: "'\(target)' has no state machine input '\(name)'",
                details: [("target", .string(target)), ("name", .string(name))])
        case .typeMismatch(let name, let expected, let actual):
            self.init(
                code: .typeMismatch, message: "input '\(name)': expected \(expected), got \(actual)",
                details: [("name", .string(name)), ("expected", .string(expected)), ("actual", .string(actual))])
        }
    }

    public init(_ error: DataBindTargetError) {
        switch error {
        case .noSuchDataBind(let target, let bind):
            self.init(
                code: .noSuchDataBind, message: "the state machine of '\(target)' has no data bind \(bind) a client can write",
                details: [("target", .string(target)), ("bind", .number(Double(bind)))])
        case .typeMismatch(let bind, let expected, let actual):
            self.init(
                code: .typeMismatch, message: "data bind \(bind): expected \(expected), got \(actual)",
                details: [("bind", .number(Double(bind))), ("expected", .string(expected)), ("actual", .string(actual))])
        }
    }

    public init(_ error: PropertyError) {
        func path(_ p: String) -> (String, JSONValue) { ("path", .string(p)) }
        switch error {
        case .invalidPath(let p): self.init(code: .invalidPath, message: "invalid path '\(p)'", details: [path(p)])
        case .noSuchSlot(let p): self.init(code: .noSuchSlot, message: "no slot '\(p)'", details: [path(p)])
        case .noSuchProperty(let p): self.init(code: .noSuchProperty, message: "no property at '\(p)'", details: [path(p)])
        case .typeMismatch(let p, let expected, let actual):
            self.init(
                code: .typeMismatch, message: "'\(p)': expected \(expected), got \(actual)",
                details: [path(p), ("expected", .string(expected)), ("actual", .string(actual))])
        case .invalidEnumValue(let p, let value, let allowed):
            self.init(
                code: .invalidEnumValue, message: "'\(p)': '\(value)' is not one of \(allowed.joined(separator: ", "))",
                details: [path(p), ("value", .string(value)), ("allowed", .array(allowed.map(JSONValue.string)))])
        case .incompatibleInstance(let p, let expected, let actual):
            self.init(
                code: .incompatibleInstance, message: "'\(p)' needs a '\(expected)' instance, got '\(actual)'",
                details: [path(p), ("expected", .string(expected)), ("actual", .string(actual))])
        case .indexOutOfRange(let p, let index, let count):
            self.init(
                code: .indexOutOfRange, message: "'\(p)': index \(index) outside 0..<\(count)",
                details: [path(p), ("index", .number(Double(index))), ("count", .number(Double(count)))])
        case .nullInstance(let p): self.init(code: .nullInstance, message: "'\(p)' is null", details: [path(p)])
        case .instanceNotInList(let p, let id):
            self.init(
                code: .instanceNotInList, message: "instance \(id.rawValue) is not in '\(p)'",
                details: [path(p), ("instance", .number(Double(id.rawValue)))])
        case .unknownInstance(let id):
            self.init(code: .unknownInstance, message: "no instance \(id.rawValue)", details: [("instance", .number(Double(id.rawValue)))])
        case .invalidValue(let p, let reason):
            self.init(code: .invalidValue, message: "'\(p)': \(reason)", details: [path(p), ("reason", .string(reason))])
        case .limitExceeded(let limit, let value): self = .limit(limit, value)
        }
    }
}
