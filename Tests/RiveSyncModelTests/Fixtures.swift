import RiveSyncJSON
import RiveSyncModel

/// Schemas the model tests use, written in the JSON schema format.
enum Fixtures {
    /// A view model `All` with one property of every type, a `Child` view model for nesting
    /// and lists, a global `Theme`, and an artboard `Main` with state machine `sm`.
    static let kitchenJSON = """
        {
          "rivesyncSchema": 1,
          "enums": [ { "name": "Size", "values": ["small", "medium", "large"] } ],
          "viewModels": [
            { "name": "Theme", "global": true,
              "properties": [ { "name": "background", "type": "color" }, { "name": "name", "type": "string" } ],
              "instances": [
                { "name": "Light", "values": { "background": "#FFFFFFFF", "name": "Light" } },
                { "name": "Dark", "values": { "background": "#FF000000", "name": "Dark" } } ] },
            { "name": "Labels", "global": true,
              "properties": [ { "name": "title", "type": "string" } ],
              "instances": [ { "name": "Default", "values": { "title": "hello" } } ] },
            { "name": "Child",
              "properties": [ { "name": "label", "type": "string" }, { "name": "count", "type": "number" },
                              { "name": "items", "type": "list" }, { "name": "next", "type": "viewModel", "viewModel": "Child" },
                              { "name": "ping", "type": "trigger" } ],
              "instances": [
                { "name": "First", "values": { "label": "one", "count": 1 } },
                { "name": "Second", "values": { "label": "two", "count": 2, "items": [ { "viewModel": "Child", "instance": "First" } ] } } ] },
            { "name": "Other", "properties": [ { "name": "flag", "type": "boolean" } ],
              "instances": [ { "name": "On", "values": { "flag": true } } ] },
            { "name": "All",
              "properties": [
                { "name": "num", "type": "number" }, { "name": "str", "type": "string" }, { "name": "boo", "type": "boolean" },
                { "name": "col", "type": "color" }, { "name": "enu", "type": "enum", "enum": "Size" }, { "name": "tri", "type": "trigger" },
                { "name": "lis", "type": "list" }, { "name": "chi", "type": "viewModel", "viewModel": "Child" },
                { "name": "ima", "type": "assetImage" }, { "name": "fon", "type": "assetFont" }, { "name": "blo", "type": "assetBlob" },
                { "name": "art", "type": "artboard" }, { "name": "sym", "type": "symbolListIndex" } ],
              "instances": [
                { "name": "Default", "values": { "num": 7, "str": "seven", "boo": true, "col": "#FF102030", "enu": "large",
                  "lis": [ { "viewModel": "Child", "instance": "First" }, { "viewModel": "Other", "index": 0 } ],
                  "chi": "Second", "ima": "photo", "art": "Main" } },
                { "name": "Named", "values": { "num": 42 } } ] }
          ],
          "artboards": [
            { "name": "Main", "viewModel": "All", "stateMachines": ["sm", "other"], "defaultStateMachine": "sm" },
            { "name": "Plain", "stateMachines": ["idle"] } ],
          "assets": [ { "name": "photo", "kind": "image" }, { "name": "Inter", "kind": "font" } ]
        }
        """

    static let kitchen: FileSchema = {
        do { return try FileSchema(jsonText: kitchenJSON) } catch { fatalError("kitchen schema: \(error)") }
    }()

    /// A runtime over the kitchen schema with state machine target `sm` bound to the default
    /// `All` instance and the default globals.
    static func kitchenRuntime(coalescing: CoalescingPolicy = .latestValue) throws -> FileRuntime {
        var runtime = FileRuntime(schema: kitchen, coalescing: coalescing)
        try runtime.createStateMachine(artboard: "Main", stateMachine: "sm")
        return runtime
    }

    /// The package root, found from this file's path.
    static let packageRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()
}

extension FileRuntime {
    /// Queues one operation with the next id and advances, returning the target's batch.
    @discardableResult
    mutating func apply(_ command: Command, on target: String = "sm", id: UInt64 = 1) throws -> ChangeBatch {
        try enqueue(QueuedCommand(id: id, command: command), on: target)
        let batches = try advance(target)
        guard let own = batches.first(where: { $0.target == target }) else { fatalError("no batch for \(target)") }
        return own
    }

    /// The main instance of a target.
    func mainInstance(of target: String = "sm") throws -> InstanceID {
        try self.target(target).instance(in: .main)!
    }
}
