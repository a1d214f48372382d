/// A daemon configuration whose file `types` has a view model with a property of every type,
/// published as `all`, and an artboard `Main` whose state machine binds it.
enum TypesSchema {
    static let schema = """
        {"rivesyncSchema": 1,
         "enums": [{"name": "Size", "values": ["small", "large"]}],
         "viewModels": [
           {"name": "Item", "properties": [{"name": "label", "type": "string"}],
            "instances": [{"name": "One", "values": {"label": "one"}}]},
           {"name": "All", "properties": [
             {"name": "text", "type": "string"}, {"name": "count", "type": "number"},
             {"name": "on", "type": "boolean"}, {"name": "tint", "type": "color"},
             {"name": "size", "type": "enum", "enum": "Size"}, {"name": "ping", "type": "trigger"},
             {"name": "items", "type": "list"}, {"name": "child", "type": "viewModel", "viewModel": "Item"},
             {"name": "picture", "type": "assetImage"}, {"name": "typeface", "type": "assetFont"},
             {"name": "payload", "type": "assetBlob"}, {"name": "board", "type": "artboard"}],
            "instances": [{"name": "Default", "values": {"child": "One"}}]}],
         "artboards": [{"name": "Main", "viewModel": "All", "stateMachines": ["sm"], "defaultStateMachine": "sm"},
                       {"name": "Other"}],
         "assets": []}
        """

    static let configuration = """
        {"files": [{"name": "types", "path": "types.json"}],
         "instances": [{"name": "all", "file": "types", "viewModel": "All"}],
         "limits": {"historyBatches": 16},
         "auth": {"allowAnonymous": "loopback"}}
        """
}
