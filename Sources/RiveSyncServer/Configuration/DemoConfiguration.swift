import RiveSyncJSON

extension DaemonConfiguration {
    /// The built-in demo (`rivesyncd --demo`): the schema in `protocol/examples/demo.schema.json`
    /// (embedded at build time) as file `demo`; its `Theme` instance `Light` published as `theme`;
    /// state machine `character` (the `Character` view model, seed of the Rive guide; the
    /// artboard's state machine `reactions`, described in the schema, is there for targets to
    /// run: its triggers move a `mood` and a `presence` layer, its listeners set `face` and
    /// `color`) and
    /// `lobby` (a list of players for a multiplayer preview), both bound to `theme`; and
    /// `manual-target`, the `Character` state machine again in manual mode: it advances only
    /// when a client asks (`advance`), as scripted tests want it. The inspector and preview
    /// pages are on, with their editors.
    public static func demo() -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        let text = String(decoding: PackageResources.demo_schema_json, as: UTF8.self)
        // The embedded demo is the repository's protocol/examples/demo.schema.json, which the
        // schema tests parse; were it unparsable the empty file would fail at load, typed.
        let schema = (try? JSONParser().parse(text)) ?? .object([])
        configuration.files = [FileEntry(name: "demo", path: nil, schema: schema, worker: 0)]
        configuration.instances = [
            InstanceEntry(name: "theme", file: "demo", viewModel: "Theme", instance: "Light")
        ]
        configuration.stateMachines = [
            StateMachineEntry(
                name: "character", file: "demo", artboard: "Character", stateMachine: "character", globals: ["Theme": "theme"],
                manual: false, rate: 60),
            StateMachineEntry(
                name: "lobby", file: "demo", artboard: "Lobby", stateMachine: "lobby", globals: ["Theme": "theme"], manual: false,
                rate: 60),
            StateMachineEntry(
                name: "manual-target", file: "demo", artboard: "Character", stateMachine: "character",
                globals: ["Theme": "theme"], manual: true, rate: 60),
        ]
        configuration.allowFileUploads = true
        configuration.inspector = Inspector(enabled: true, readOnly: false)
        return configuration
    }

    /// The demo's sections (`auth`, `inspector`) as configuration JSON: what `RIVESYNC_*`
    /// variables of those sections are applied over with `--demo` (`DaemonCommandLine`), so
    /// that one variable keeps the section's other keys as the demo has them.
    static let demoSections: JSONValue = [
        "auth": ["allowAnonymous": "loopback"], "inspector": ["enabled": true, "readOnly": false],
    ]
}
