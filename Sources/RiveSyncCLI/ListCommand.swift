import RiveSyncClient

/// `rivesync list add|insert|remove|swap TARGET PATH …`: edits a list property. `add` and
/// `insert` print the item's id (`#ID`), which matters when the item was created from a view
/// model name.
enum ListCommand {
    static let usage =
        "list add TARGET PATH INSTANCE | list insert TARGET PATH INDEX INSTANCE | "
        + "list remove TARGET PATH (INDEX | #ID) | list swap TARGET PATH INDEX INDEX"

    static let spec = CommandSpec(
        name: "list",
        summary: "Edit a list: add/insert an INSTANCE (#ID, ViewModel or ViewModel/Name), remove by index or #ID, swap.",
        positionals: ["ACTION", "TARGET", "PATH", "ARGUMENT"], variadic: true, options: RemoteCommand.options + [ManualTargets.option]
    ) { (arguments, console) throws(CommandError) in
        let words = arguments.positionals
        let expected = ["add": 4, "insert": 5, "remove": 4, "swap": 5]
        guard words.count >= 3, let count = expected[words[0]] else {
            throw .usage("list: unknown action '\(words[0])' (usage: rivesync \(usage))")
        }
        guard words.count == count else { throw .usage("list \(words[0]): wrong number of arguments (usage: rivesync \(usage))") }
        let (targetName, path) = (words[1], words[2])
        let advance = arguments.has("advance")
        let action = try edit(words, path: path)
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            let target = try await worker.target(named: targetName)
            var item: UInt64?
            if let text = action.item { item = try await InstanceText.resolve(text, file: try await target.fileName(), worker: worker) }
            let resolved = item
            _ = try await ManualTargets.apply(target, advance: advance, output: output) { try await action.apply(target, resolved) }
            if let item { output.line("#\(item)") }
        }
    }
}

extension ListCommand {
    /// A list edit: the INSTANCE argument to resolve (for add and insert), and the command.
    struct Edit: Sendable {
        var item: String?
        var apply: @Sendable (RemoteTarget, UInt64?) async throws -> Receipt
    }

    /// The edit `words` (`add TARGET PATH INSTANCE`, …, as counted by the caller) ask for.
    static func edit(_ words: [String], path: String) throws(CommandError) -> Edit {
        func index(_ text: String) throws(CommandError) -> Int {
            guard let index = Int(text), index >= 0 else { throw .invalidValue("list \(words[0]): '\(text)' is not an index") }
            return index
        }
        switch words[0] {
        case "add":
            return Edit(item: words[3]) { target, item in try await target.appendInstance(item!, to: path) }
        case "insert":
            let at = try index(words[3])
            return Edit(item: words[4]) { target, item in try await target.insertInstance(item!, to: path, at: at) }
        case "remove":
            if words[3].hasPrefix("#") {
                guard let id = InstanceText.id(words[3]) else { throw .invalidValue("list remove: '\(words[3])' is not an instance id") }
                return Edit(item: nil) { target, _ in try await target.removeInstance(id, from: path) }
            }
            let at = try index(words[3])
            return Edit(item: nil) { target, _ in try await target.removeInstance(at: at, from: path) }
        default:
            let (first, second) = (try index(words[3]), try index(words[4]))
            return Edit(item: nil) { target, _ in try await target.swapInstance(atIndex: first, withIndex: second, in: path) }
        }
    }
}

/// `rivesync bind TARGET SLOT=INSTANCE...`: binds instances to a state machine's slots
/// (`main`, or a global view model's name), all checked before any is applied.
enum BindCommand {
    static let spec = CommandSpec(
        name: "bind", summary: "Bind instances to slots: main=INSTANCE, Theme=INSTANCE (#ID, ViewModel, ViewModel/Name or @TARGET).",
        positionals: ["TARGET", "SLOT=INSTANCE"], variadic: true, options: RemoteCommand.options + [ManualTargets.option]
    ) { (arguments, console) throws(CommandError) in
        let targetName = arguments.positionals[0]
        let pairs = try TargetCommands.slotPairs(Array(arguments.positionals.dropFirst()), command: "bind")
        guard !pairs.isEmpty else { throw .usage("bind: give at least one SLOT=INSTANCE") }
        let bindings = pairs
        let advance = arguments.has("advance")
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            let target = try await worker.target(named: targetName)
            let file = try await target.fileName()
            var main: UInt64?
            var globals: [(String, UInt64)] = []
            for (slot, text) in bindings {
                let id = try await InstanceText.resolve(text, file: file, worker: worker)
                if slot == "main" { main = id } else { globals.append((slot, id)) }
            }
            let (chosenMain, chosenGlobals) = (main, globals)
            ValueCommands.printReceipt(
                try await ManualTargets.apply(target, advance: advance, output: output) {
                    try await target.bind(main: chosenMain, globals: chosenGlobals)
                }, output)
        }
    }
}
