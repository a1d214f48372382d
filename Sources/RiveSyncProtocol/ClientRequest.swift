import RiveSyncJSON
import RiveSyncModel

/// A cursor: the daemon's epoch and a target's batch seq.
public struct Cursor: Sendable, Hashable {
    public var epoch: String
    public var seq: UInt64
    public init(epoch: String, seq: UInt64) {
        self.epoch = epoch
        self.seq = seq
    }
}

/// What `createStateMachine` asks for (PROTOCOL.md §6).
public struct StateMachineRequest: Sendable, Hashable {
    public var file: String
    public var name: String?
    public var artboard: String?
    public var stateMachine: String?
    public var main: InstanceID?
    public var globals: [GlobalBinding]
    public var manual: Bool
    public var rate: Double?
    /// False leaves the slots without a supplied instance empty (PROTOCOL.md §6).
    public var bindDefaults: Bool

    public init(
        file: String, name: String? = nil, artboard: String? = nil, stateMachine: String? = nil, main: InstanceID? = nil,
        globals: [GlobalBinding] = [], manual: Bool = false, rate: Double? = nil, bindDefaults: Bool = true
    ) {
        self.file = file
        self.name = name
        self.artboard = artboard
        self.stateMachine = stateMachine
        self.main = main
        self.globals = globals
        self.manual = manual
        self.rate = rate
        self.bindDefaults = bindDefaults
    }
}

/// A global view model name and the instance to bind in its slot.
public struct GlobalBinding: Sendable, Hashable {
    public var name: String
    public var instance: InstanceID
    public init(name: String, instance: InstanceID) {
        self.name = name
        self.instance = instance
    }
}

/// The content of a file loaded at run time.
public enum FileContent: Sendable, Hashable {
    case riv([UInt8])
    case schema(JSONValue)
}

/// Where a `loadFile`'s `riv` bytes go in a `.riv` file sent in parts (PROTOCOL.md §9): at
/// `offset` of a file of `size` bytes. The daemon loads the file when it has all `size` bytes.
public struct FilePart: Sendable, Hashable {
    public var offset: Int
    public var size: Int

    public init(offset: Int, size: Int) {
        self.offset = offset
        self.size = size
    }
}

/// Which page of `listTargets` to send (PROTOCOL.md §5): at most `limit` targets (the daemon
/// caps it at `maxPageSize`), by name, starting after the name `after`.
public struct TargetPage: Sendable, Hashable {
    public var limit: Int?
    public var after: String?

    /// The first page, of the daemon's page size.
    public static let first = TargetPage()

    public init(limit: Int? = nil, after: String? = nil) {
        self.limit = limit
        self.after = after
    }
}

/// Every request a client can send (PROTOCOL.md §2–§9).
public enum ClientRequest: Sendable, Hashable {
    /// The most seconds one `advance` may run a state machine for (PROTOCOL.md §8).
    public static let maxElapsed: Double = 60

    case hello(protocols: [Int], token: String?, client: String?)
    case listFiles
    case listTargets(TargetPage)
    case describe(file: String)
    case viewModelNames(file: String)
    case globalViewModelNames(file: String)
    case instanceNames(file: String, viewModel: String)
    case properties(file: String, viewModel: String)
    case enums(file: String)
    case artboardNames(file: String)
    case stateMachineNames(file: String, artboard: String?)
    case defaultViewModelInfo(file: String, artboard: String?)
    case createInstance(file: String, source: InstanceSource, publish: String?)
    /// Boxed: inline, its request (about 110 bytes) made every `ClientRequest` that large, and
    /// each move of a request (a `set`'s, several per message) a `memcpy` call.
    indirect case createStateMachine(StateMachineRequest)
    case publish(instance: InstanceID, name: String)
    /// Deletes a state machine or published instance, freeing the instances only it held.
    case deleteTarget(target: String)
    case bind(target: String, main: InstanceID?, globals: [GlobalBinding])
    case subscribe(target: String, paths: [String]?, cursor: Cursor?)
    case unsubscribe(target: String)
    /// A path is parsed once, when the request is decoded or made (`ParsedPath`): the access
    /// check and the worker read it, and no one splits it again.
    case get(target: String, path: ParsedPath)
    /// `value` stays JSON until the daemon knows the property's type.
    case set(target: String, path: ParsedPath, value: JSONValue)
    case fire(target: String, path: ParsedPath)
    case listAppend(target: String, path: ParsedPath, instance: InstanceID)
    case listInsert(target: String, path: ParsedPath, index: Int, instance: InstanceID)
    case listRemoveAt(target: String, path: ParsedPath, index: Int)
    case listRemove(target: String, path: ParsedPath, instance: InstanceID)
    case listSwap(target: String, path: ParsedPath, index: Int, with: Int)
    /// Sets a legacy state machine input: `.number` or `.boolean` (PROTOCOL.md §8).
    case setInput(target: String, name: String, value: PropertyValue)
    /// Fires a legacy trigger input (PROTOCOL.md §8).
    case fireInput(target: String, name: String)
    /// Writes the target side of one of the artboard's data binds (its index among them, as
    /// `inspect --graph` numbers them), as an interactive component would (PROTOCOL.md §8).
    /// `value` stays JSON until the daemon knows the bound property's type.
    case setBindTarget(target: String, bind: Int, value: JSONValue)
    /// Several commands for one target, applied in one advance in their order, all or none
    /// (PROTOCOL.md §16).
    case transaction(TransactionRequest)
    /// Applies a manual target's queue, then runs its state machine for `elapsed` seconds
    /// (Rive's `advance(by:)`; 0 applies the queue and settles what that changed).
    case advance(target: String, elapsed: Double = 0)
    /// The state digest of a target (to check a replica against the daemon).
    case digest(target: String)
    case ping
    case upload(kind: String, data: [UInt8], mediaType: String?)
    /// Loads a file; `part` when the request carries one part of a bigger `.riv` file.
    case loadFile(name: String, content: FileContent, part: FilePart? = nil)
    /// A presence request of a target (§15).
    case presence(PresenceRequest)

    /// The `type` string of the request.
    public var type: String {
        switch self {
        case .hello: return "hello"
        case .listFiles: return "listFiles"
        case .listTargets: return "listTargets"
        case .describe: return "describe"
        case .viewModelNames: return "viewModelNames"
        case .globalViewModelNames: return "globalViewModelNames"
        case .instanceNames: return "instanceNames"
        case .properties: return "properties"
        case .enums: return "enums"
        case .artboardNames: return "artboardNames"
        case .stateMachineNames: return "stateMachineNames"
        case .defaultViewModelInfo: return "defaultViewModelInfo"
        case .createInstance: return "createInstance"
        case .createStateMachine: return "createStateMachine"
        case .publish: return "publish"
        case .deleteTarget: return "deleteTarget"
        case .bind: return "bind"
        case .subscribe: return "subscribe"
        case .unsubscribe: return "unsubscribe"
        case .get: return "get"
        case .set: return "set"
        case .fire: return "fire"
        case .listAppend: return "listAppend"
        case .listInsert: return "listInsert"
        case .listRemoveAt: return "listRemoveAt"
        case .listRemove: return "listRemove"
        case .listSwap: return "listSwap"
        case .setInput: return "setInput"
        case .fireInput: return "fireInput"
        case .setBindTarget: return "setBindTarget"
        case .transaction: return "transaction"
        case .advance: return "advance"
        case .digest: return "digest"
        case .ping: return "ping"
        case .upload: return "upload"
        case .loadFile: return "loadFile"
        case .presence(let request): return request.type
        }
    }
}

/// A request with the id its sender gave it (echoed in the reply).
public struct Request: Sendable, Hashable {
    public var id: JSONValue?
    public var body: ClientRequest
    public init(id: JSONValue?, body: ClientRequest) {
        self.id = id
        self.body = body
    }
}
