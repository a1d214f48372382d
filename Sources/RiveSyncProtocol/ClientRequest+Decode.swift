import Foundation
import RiveSyncJSON
import RiveSyncModel

/// A request that could not be read: the error, and the request's id when it was readable
/// (so the error reply can echo it).
public struct RequestDecodingError: Error, Sendable {
    public var id: JSONValue?
    public var error: WireError
}

extension Request {
    /// Reads a request from a parsed message. Errors are `bad_message` (shape) or
    /// `unknown_type`; a `transaction` of more than `maxTransactionCommands` commands is
    /// `limit_exceeded`.
    public static func decode(_ json: JSONValue, maxTransactionCommands: Int = .max) -> Result<Request, RequestDecodingError> {
        guard json.objectValue != nil else {
            return .failure(RequestDecodingError(id: nil, error: .badField("(message)", "a JSON object")))
        }
        let id: JSONValue? = json["id"].flatMap { $0.intValue != nil || $0.stringValue != nil ? $0 : nil }
        if let rawID = json["id"], id == nil, !rawID.isNull {
            return .failure(RequestDecodingError(id: nil, error: .badField("id", "an integer or a string")))
        }
        do {
            return .success(Request(id: id, body: try ClientRequest(json, maxTransactionCommands: maxTransactionCommands)))
        } catch {
            return .failure(RequestDecodingError(id: id, error: error))
        }
    }
}

extension ClientRequest {
    /// Reads the body of a request (a `transaction` of at most `maxTransactionCommands`).
    public init(_ json: JSONValue, maxTransactionCommands: Int = .max) throws(WireError) {
        let f = Fields(json: json)
        let type = try f.string("type")
        switch type {
        // The cases are tried in order: the most frequent request first.
        case "set": self = .set(target: try f.string("target"), path: try f.path("path"), value: try f.value("value"))
        case "hello":
            guard let versions = json["protocol"]?.arrayValue, !versions.isEmpty,
                versions.allSatisfy({ $0.intValue != nil })
            else { throw .badField("protocol", "a non-empty array of integers") }
            self = .hello(
                protocols: versions.compactMap(\.intValue), token: try f.optionalString("token"), client: try f.optionalString("client"))
        case "listFiles": self = .listFiles
        case "listTargets": self = .listTargets(TargetPage(limit: try f.optionalPositiveInt("limit"), after: try f.optionalString("after")))
        case "describe": self = .describe(file: try f.string("file"))
        case "viewModelNames": self = .viewModelNames(file: try f.string("file"))
        case "globalViewModelNames": self = .globalViewModelNames(file: try f.string("file"))
        case "instanceNames": self = .instanceNames(file: try f.string("file"), viewModel: try f.string("viewModel"))
        case "properties": self = .properties(file: try f.string("file"), viewModel: try f.string("viewModel"))
        case "enums": self = .enums(file: try f.string("file"))
        case "artboardNames": self = .artboardNames(file: try f.string("file"))
        case "stateMachineNames": self = .stateMachineNames(file: try f.string("file"), artboard: try f.optionalString("artboard"))
        case "defaultViewModelInfo": self = .defaultViewModelInfo(file: try f.string("file"), artboard: try f.optionalString("artboard"))
        case "createInstance":
            guard let source = json["source"] else { throw .badField("source", "an instance source object") }
            self = .createInstance(file: try f.string("file"), source: try Self.source(source), publish: try f.optionalString("publish"))
        case "createStateMachine":
            let mode = try f.optionalString("mode") ?? "auto"
            guard mode == "auto" || mode == "manual" else { throw .badField("mode", "\"auto\" or \"manual\"") }
            var rate: Double?
            if let value = json["rate"], !value.isNull {
                guard let r = value.numberValue, r > 0, r <= 1000 else { throw .badField("rate", "a number in (0, 1000]") }
                rate = r
            }
            self = .createStateMachine(
                StateMachineRequest(
                    file: try f.string("file"), name: try f.optionalString("name"), artboard: try f.optionalString("artboard"),
                    stateMachine: try f.optionalString("stateMachine"), main: try f.optionalInstance("main"),
                    globals: try f.globals("globals"), manual: mode == "manual", rate: rate,
                    bindDefaults: try f.optionalBool("bindDefaults") ?? true))
        case "publish": self = .publish(instance: try f.instance("instance"), name: try f.string("name"))
        case "bind":
            let main = try f.optionalInstance("main")
            let globals = try f.globals("globals")
            guard main != nil || !globals.isEmpty else { throw .badField("main", "an instance id, or globals with at least one entry") }
            self = .bind(target: try f.string("target"), main: main, globals: globals)
        case "subscribe":
            var cursor: Cursor?
            if let value = json["cursor"], !value.isNull {
                guard let seq = value["seq"]?.intValue, seq >= 0, let epoch = value["epoch"]?.stringValue else {
                    throw .badField("cursor", "an object {epoch: string, seq: non-negative integer}")
                }
                cursor = Cursor(epoch: epoch, seq: UInt64(seq))
            }
            self = .subscribe(target: try f.string("target"), paths: try f.strings("paths"), cursor: cursor)
        case "unsubscribe": self = .unsubscribe(target: try f.string("target"))
        case "deleteTarget": self = .deleteTarget(target: try f.string("target"))
        case "get": self = .get(target: try f.string("target"), path: try f.path("path"))
        case "fire": self = .fire(target: try f.string("target"), path: try f.path("path"))
        case "listAppend":
            self = .listAppend(target: try f.string("target"), path: try f.path("path"), instance: try f.instance("instance"))
        case "listInsert":
            self = .listInsert(
                target: try f.string("target"), path: try f.path("path"), index: try f.int("index"), instance: try f.instance("instance"))
        case "listRemoveAt": self = .listRemoveAt(target: try f.string("target"), path: try f.path("path"), index: try f.int("index"))
        case "listRemove":
            self = .listRemove(target: try f.string("target"), path: try f.path("path"), instance: try f.instance("instance"))
        case "listSwap":
            self = .listSwap(target: try f.string("target"), path: try f.path("path"), index: try f.int("index"), with: try f.int("with"))
        case "setInput": self = .setInput(target: try f.string("target"), name: try f.string("name"), value: try f.inputValue("value"))
        case "fireInput": self = .fireInput(target: try f.string("target"), name: try f.string("name"))
        case "setBindTarget": self = .setBindTarget(target: try f.string("target"), bind: try f.int("bind"), value: try f.value("value"))
        case "transaction": self = .transaction(try TransactionRequest(json, maxCommands: maxTransactionCommands))
        case "advance": self = .advance(target: try f.string("target"), elapsed: try f.elapsed("elapsed"))
        case "digest": self = .digest(target: try f.string("target"))
        case "ping": self = .ping
        case "upload":
            let kind = try f.string("kind")
            guard ["image", "font", "blob"].contains(kind) else { throw .badField("kind", "\"image\", \"font\" or \"blob\"") }
            self = .upload(kind: kind, data: try Self.base64(f.string("data"), field: "data"), mediaType: try f.optionalString("mediaType"))
        case "loadFile":
            let name = try f.string("name")
            if let riv = json["riv"], !riv.isNull {
                guard let text = riv.stringValue else { throw .badField("riv", "base64 text") }
                self = .loadFile(name: name, content: .riv(try Self.base64(text, field: "riv")), part: try Self.part(f))
            } else if let schema = json["schema"], schema.objectValue != nil {
                self = .loadFile(name: name, content: .schema(schema))
            } else {
                throw .badField("riv", "base64 .riv bytes, or a 'schema' object")
            }
        case _ where PresenceRequest.types.contains(type):
            self = .presence(try PresenceRequest(json))
        default:
            throw .unknownType(type)
        }
    }

    /// A `loadFile`'s `offset` and `size` (both or neither): nil for a whole file.
    static func part(_ f: Fields) throws(WireError) -> FilePart? {
        let given = (f.json["offset"].map { !$0.isNull } ?? false, f.json["size"].map { !$0.isNull } ?? false)
        switch given {
        case (false, false): return nil
        case (true, false): throw .badField("size", "the file's size in bytes, with offset")
        case (false, true): throw .badField("offset", "the part's offset in the file, with size")
        case (true, true):
            let offset = try f.int("offset")
            let size = try f.optionalPositiveInt("size") ?? 0
            guard offset >= 0, offset < size else { throw .badField("offset", "an integer from 0 to size - 1") }
            return FilePart(offset: offset, size: size)
        }
    }

    static func base64(_ text: String, field: String) throws(WireError) -> [UInt8] {
        guard let data = Data(base64Encoded: text) else { throw .badField(field, "base64 text") }
        return [UInt8](data)
    }

    /// `{"blank": {"viewModel": "X"}}`, `{"default": {…}}`, `{"name": "N", "viewModel": "X"}`,
    /// `{"index": 1, "viewModel": "X"}`; `"viewModel"` may be `"artboard"` instead.
    static func source(_ json: JSONValue) throws(WireError) -> InstanceSource {
        func from(_ json: JSONValue) throws(WireError) -> ViewModelSource {
            if let name = json["viewModel"]?.stringValue { return .name(name) }
            if let artboard = json["artboard"] {
                if artboard.isNull { return .artboardDefault(nil) }
                if let name = artboard.stringValue { return .artboardDefault(name) }
            }
            throw .badField("source.viewModel", "a view model name (or 'artboard')")
        }
        if let blank = json["blank"] { return .blank(from: try from(blank)) }
        if let viewModelDefault = json["default"] { return .viewModelDefault(from: try from(viewModelDefault)) }
        if let name = json["name"]?.stringValue { return .name(name, from: try from(json)) }
        if let index = json["index"]?.intValue { return .index(index, from: try from(json)) }
        throw .badField("source", "one of blank, default, name, index")
    }
}
