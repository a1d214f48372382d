/// A file with every name Rive's documentation snippets use (`ViewModel`, `Instance`,
/// `path/to/string`, `header/title`, `Header`, `Theme` with `Light`/`Dark`, `headingFont`,
/// `payload`) as the daemon's `docs`, and the guide's `character`.
enum DocsSchema {
    static let schema = """
        {"rivesyncSchema": 1,
         "enums": [{"name": "Choice", "values": ["other", "value"]}],
         "viewModels": [
           {"name": "To", "properties": [
             {"name": "string", "type": "string"}, {"name": "number", "type": "number"},
             {"name": "bool", "type": "boolean"}, {"name": "color", "type": "color"},
             {"name": "enum", "type": "enum", "enum": "Choice"}, {"name": "trigger", "type": "trigger"},
             {"name": "list", "type": "list"}, {"name": "image", "type": "assetImage"},
             {"name": "artboard", "type": "artboard"}],
            "instances": [{"name": "T", "values": {"string": "start"}}]},
           {"name": "Path", "properties": [{"name": "to", "type": "viewModel", "viewModel": "To"}],
            "instances": [{"name": "P", "values": {"to": "T"}}]},
           {"name": "Header", "properties": [{"name": "title", "type": "string"}],
            "instances": [{"name": "H", "values": {"title": "Hello"}}]},
           {"name": "Item", "properties": [{"name": "label", "type": "string"}], "instances": []},
           {"name": "ViewModel", "properties": [
             {"name": "path", "type": "viewModel", "viewModel": "Path"},
             {"name": "header", "type": "viewModel", "viewModel": "Header"},
             {"name": "headingFont", "type": "assetFont"}, {"name": "payload", "type": "assetBlob"}],
            "instances": [{"name": "Default", "values": {"path": "P", "header": "H"}},
                          {"name": "Instance", "values": {"path": "P", "header": "H"}}]},
           {"name": "Theme", "global": true, "properties": [{"name": "name", "type": "string"}],
            "instances": [{"name": "Light", "values": {"name": "Light"}}, {"name": "Dark", "values": {"name": "Dark"}}]},
           {"name": "Empty", "properties": [], "instances": []}],
         "artboards": [
           {"name": "Artboard", "viewModel": "ViewModel", "stateMachines": ["Main"], "defaultStateMachine": "Main"},
           {"name": "Character", "viewModel": "Empty", "stateMachines": ["Idle"], "defaultStateMachine": "Idle"}],
         "assets": []}
        """

    /// The guide's file: `Character` on `CharacterViewModelMachine`, its default artboard.
    static let character = """
        {"rivesyncSchema": 1, "enums": [],
         "viewModels": [
           {"name": "Character", "properties": [
             {"name": "mood", "type": "number"}, {"name": "success", "type": "trigger"}, {"name": "error", "type": "trigger"},
             {"name": "yes", "type": "trigger"}, {"name": "no", "type": "trigger"}, {"name": "enter", "type": "trigger"},
             {"name": "exit", "type": "trigger"}],
            "instances": [{"name": "Default", "values": {"mood": 0}}]}],
         "artboards": [{"name": "Character", "viewModel": "Character", "stateMachines": ["CharacterViewModelMachine"],
                        "defaultStateMachine": "CharacterViewModelMachine"}],
         "assets": []}
        """

    static let configuration = """
        {"files": [{"name": "docs", "path": "docs.json"}, {"name": "character", "path": "character.json"}],
         "auth": {"allowAnonymous": "loopback"}}
        """
}
