import RiveSyncClient
import RiveSyncJSON

/// `rivesync ls`: the daemon's files (view models with their instances, globals, artboards
/// with their state machines) and targets (state machines and published instances), each
/// state machine with its layers' current states, its inputs' values and, while it needs
/// further advances, "not settled". In text, each file's line counts what it has and a long
/// list of names shows its first `shownNames` and how many more (`--all`: every one).
enum LsCommand {
    /// The names a text line shows of a longer list without `--all`.
    static let shownNames = 8

    static let spec = CommandSpec(
        name: "ls", summary: "List the files, view models, instances, globals, state machines and targets of a daemon.",
        options: RemoteCommand.options + [.init("all", help: "list every instance and state machine name (text shows \(shownNames))")]
    ) { (arguments, console) throws(CommandError) in
        let all = arguments.has("all")
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            var files: [JSONValue] = []
            var lines: [String] = []
            for name in try await worker.getFileNames() {
                let file = try await File(source: .name(name), worker: worker)
                let globals = Set(try await file.getGlobalViewModelNames())
                var viewModels: [JSONValue] = []
                let fileLine = lines.count
                lines.append("file \(name)")
                let viewModelNames = try await file.getViewModelNames()
                var instanceCount = 0
                for viewModel in viewModelNames {
                    let instances = try await file.getInstanceNames(of: viewModel)
                    let global = globals.contains(viewModel)
                    viewModels.append([
                        "name": .string(viewModel), "global": .bool(global), "instances": .array(instances.map(JSONValue.string)),
                    ])
                    instanceCount += instances.count
                    lines.append("  view model \(viewModel)\(global ? " (global)" : ""): \(names(instances, all: all))")
                }
                var artboards: [JSONValue] = []
                let artboardNames = try await file.getArtboardNames()
                var machineCount = 0
                for artboardName in artboardNames {
                    let machines = try await file.createArtboard(artboardName).getStateMachineNames()
                    machineCount += machines.count
                    artboards.append(["name": .string(artboardName), "stateMachines": .array(machines.map(JSONValue.string))])
                    lines.append("  artboard \(artboardName): \(names(machines, all: all))")
                }
                lines[fileLine] =
                    "file \(name): \(counted(viewModelNames.count, "view model")), \(counted(instanceCount, "instance")), "
                    + "\(counted(artboardNames.count, "artboard")), \(counted(machineCount, "state machine"))"
                files.append(["name": .string(name), "viewModels": .array(viewModels), "artboards": .array(artboards)])
            }
            var targets: [JSONValue] = []
            for target in try await worker.getTargets().sorted(by: { $0.name < $1.name }) {
                targets.append(json(target))
                let kind = target.kind == .stateMachine ? "state machine \(target.artboard ?? "")/\(target.stateMachine ?? "")" : "instance"
                let bindings = target.bindings.map { "\($0.slot)=\($0.instance.map { "#\($0)" } ?? "null")" }.joined(separator: ", ")
                let running = target.settled == false ? ", not settled" : ""
                lines.append(
                    "target \(target.name) (\(kind), file \(target.file), \(target.mode), seq \(target.seq)\(running)): \(bindings)")
                for layer in target.layers {
                    let state = "state \(layer.state) (\(layer.kind.rawValue)\(layer.animation.map { " " + $0 } ?? ""))"
                    lines.append("  layer \(layer.layer) \(layer.name): \(state)")
                }
                for input in target.inputs {
                    lines.append("  input \(input.name) (\(input.kind.rawValue))\(input.value.map { ": " + $0.jsonText } ?? "")")
                }
            }
            if output.json {
                output.line(JSONValue.object([("files", .array(files)), ("targets", .array(targets))]).jsonText)
            } else {
                lines.forEach(output.line)
            }
        }
    }

    /// `a, b, c` for a short list; `(12) a, b, …, h, and 4 more` for a long one without `all`.
    static func names(_ names: [String], all: Bool) -> String {
        guard names.count > shownNames, !all else { return names.joined(separator: ", ") }
        return "(\(names.count)) \(names.prefix(shownNames).joined(separator: ", ")), and \(names.count - shownNames) more (--all)"
    }

    /// `1 artboard`, `3 artboards`.
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    private static func json(_ target: TargetInfo) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(target.name)), ("file", .string(target.file)), ("kind", .string(target.kind.rawValue)),
        ]
        if let artboard = target.artboard { members.append(("artboard", .string(artboard))) }
        if let machine = target.stateMachine { members.append(("stateMachine", .string(machine))) }
        members += [
            ("mode", .string(target.mode)), ("seq", .number(Double(target.seq))),
            (
                "bindings",
                .array(target.bindings.map { ["slot": .string($0.slot), "instance": $0.instance.map { .number(Double($0)) } ?? .null] })
            ),
        ]
        if target.kind == .stateMachine {
            members.append(("layers", .array(target.layers.map(WatchCommand.json))))
        }
        if let settled = target.settled { members.append(("settled", .bool(settled))) }
        if target.kind == .stateMachine { members.append(("inputs", .array(target.inputs.map(json)))) }
        return .object(members)
    }

    /// An input as `listTargets` shows it: `{"name":…,"type":…,"value":…}`, no value for a trigger.
    private static func json(_ input: StateMachineInput) -> JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(input.name)), ("type", .string(input.kind.rawValue))]
        switch input.value {
        case .number(let number)?: members.append(("value", .number(Double(number))))
        case .boolean(let flag)?: members.append(("value", .bool(flag)))
        default: break
        }
        return .object(members)
    }
}
