import Foundation
import RiveSyncJSON
import RiveSyncModel

extension Request {
    /// The request as a wire message.
    public var jsonValue: JSONValue {
        var members: [(String, JSONValue)] = [("type", .string(body.type))]
        if let id { members.append(("id", id)) }
        members.append(contentsOf: body.fields)
        return .object(members)
    }
}

extension ClientRequest {
    private static func id(_ id: InstanceID) -> JSONValue { .number(Double(id.rawValue)) }

    private static func globals(_ globals: [GlobalBinding]) -> JSONValue {
        .array(globals.map { ["name": .string($0.name), "instance": id($0.instance)] })
    }

    private static func viewModelSource(_ source: ViewModelSource) -> (String, JSONValue) {
        switch source {
        case .name(let name): return ("viewModel", .string(name))
        case .artboardDefault(let artboard): return ("artboard", artboard.map(JSONValue.string) ?? .null)
        }
    }

    /// The fields of the request after `type` and `id`.
    var fields: [(String, JSONValue)] {
        switch self {
        case .hello(let protocols, let token, let client):
            var f: [(String, JSONValue)] = [("protocol", .array(protocols.map { .number(Double($0)) }))]
            if let token { f.append(("token", .string(token))) }
            if let client { f.append(("client", .string(client))) }
            return f
        case .listFiles, .ping: return []
        case .listTargets(let page):
            return (page.limit.map { [("limit", .number(Double($0)))] } ?? []) + (page.after.map { [("after", .string($0))] } ?? [])
        case .describe(let file), .viewModelNames(let file), .globalViewModelNames(let file), .enums(let file),
            .artboardNames(let file):
            return [("file", .string(file))]
        case .instanceNames(let file, let viewModel), .properties(let file, let viewModel):
            return [("file", .string(file)), ("viewModel", .string(viewModel))]
        case .stateMachineNames(let file, let artboard), .defaultViewModelInfo(let file, let artboard):
            return [("file", .string(file))] + (artboard.map { [("artboard", .string($0))] } ?? [])
        case .createInstance(let file, let source, let publish):
            let sourceJSON: JSONValue
            switch source {
            case .blank(let from): sourceJSON = ["blank": .object([Self.viewModelSource(from)])]
            case .viewModelDefault(let from): sourceJSON = ["default": .object([Self.viewModelSource(from)])]
            case .name(let name, let from): sourceJSON = .object([("name", .string(name)), Self.viewModelSource(from)])
            case .index(let index, let from): sourceJSON = .object([("index", .number(Double(index))), Self.viewModelSource(from)])
            }
            return [("file", .string(file)), ("source", sourceJSON)] + (publish.map { [("publish", .string($0))] } ?? [])
        case .createStateMachine(let request):
            var f: [(String, JSONValue)] = [("file", .string(request.file))]
            if let name = request.name { f.append(("name", .string(name))) }
            if let artboard = request.artboard { f.append(("artboard", .string(artboard))) }
            if let stateMachine = request.stateMachine { f.append(("stateMachine", .string(stateMachine))) }
            if let main = request.main { f.append(("main", Self.id(main))) }
            if !request.globals.isEmpty { f.append(("globals", Self.globals(request.globals))) }
            f.append(("mode", .string(request.manual ? "manual" : "auto")))
            if let rate = request.rate { f.append(("rate", .number(rate))) }
            if !request.bindDefaults { f.append(("bindDefaults", false)) }
            return f
        case .publish(let instance, let name):
            return [("instance", Self.id(instance)), ("name", .string(name))]
        case .bind(let target, let main, let globals):
            var f: [(String, JSONValue)] = [("target", .string(target))]
            if let main { f.append(("main", Self.id(main))) }
            if !globals.isEmpty { f.append(("globals", Self.globals(globals))) }
            return f
        case .subscribe(let target, let paths, let cursor):
            var f: [(String, JSONValue)] = [("target", .string(target))]
            if let paths { f.append(("paths", .array(paths.map(JSONValue.string)))) }
            if let cursor { f.append(("cursor", ["epoch": .string(cursor.epoch), "seq": .number(Double(cursor.seq))])) }
            return f
        case .unsubscribe(let target), .digest(let target), .deleteTarget(let target):
            return [("target", .string(target))]
        case .advance(let target, let elapsed):
            return [("target", .string(target))] + (elapsed > 0 ? [("elapsed", .number(elapsed))] : [])
        case .get(let target, let path), .fire(let target, let path):
            return [("target", .string(target)), ("path", .string(path.text))]
        case .set(let target, let path, let value):
            return [("target", .string(target)), ("path", .string(path.text)), ("value", value)]
        case .listAppend(let target, let path, let instance), .listRemove(let target, let path, let instance):
            return [("target", .string(target)), ("path", .string(path.text)), ("instance", Self.id(instance))]
        case .listInsert(let target, let path, let index, let instance):
            return [
                ("target", .string(target)), ("path", .string(path.text)), ("index", .number(Double(index))),
                ("instance", Self.id(instance)),
            ]
        case .listRemoveAt(let target, let path, let index):
            return [("target", .string(target)), ("path", .string(path.text)), ("index", .number(Double(index)))]
        case .listSwap(let target, let path, let index, let with):
            return [
                ("target", .string(target)), ("path", .string(path.text)), ("index", .number(Double(index))),
                ("with", .number(Double(with))),
            ]
        case .setInput(let target, let name, let value):
            let json: JSONValue
            switch value {
            case .boolean(let flag): json = .bool(flag)
            case .number(let number): json = .number(Double(number))
            default: json = .null
            }
            return [("target", .string(target)), ("name", .string(name)), ("value", json)]
        case .fireInput(let target, let name):
            return [("target", .string(target)), ("name", .string(name))]
        case .setBindTarget(let target, let bind, let value):
            return [("target", .string(target)), ("bind", .number(Double(bind))), ("value", value)]
        case .transaction(let transaction):
            return transaction.fields
        case .upload(let kind, let data, let mediaType):
            return [("kind", .string(kind)), ("data", .string(Data(data).base64EncodedString()))]
                + (mediaType.map { [("mediaType", .string($0))] } ?? [])
        case .loadFile(let name, let content, let part):
            switch content {
            case .riv(let bytes):
                let place: [(String, JSONValue)] =
                    part.map { [("offset", .number(Double($0.offset))), ("size", .number(Double($0.size)))] } ?? []
                return [("name", .string(name)), ("riv", .string(Data(bytes).base64EncodedString()))] + place
            case .schema(let schema): return [("name", .string(name)), ("schema", schema)]
            }
        case .presence(let request):
            return request.fields
        }
    }
}
