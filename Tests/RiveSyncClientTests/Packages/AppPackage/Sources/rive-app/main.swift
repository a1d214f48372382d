import RiveRuntime
import RiveSyncClient

// Both modules name Worker, File, ViewModelInstance, the property handles, Color and the
// error enums: in a file that imports both, qualify each clashing name with its module.

/// Shows the daemon's `character` in a local Rive view: Rive's file, artboard, instance and
/// state machine as usual, RiveSync's worker for the shared state, one bridge between them.
@MainActor
func showSharedCharacter() async throws -> RiveSyncBridge<RiveRuntimeInstance> {
    let riveWorker = try await RiveRuntime.Worker()
    let riveFile = try await RiveRuntime.File(source: .local("character", nil), worker: riveWorker)
    let artboard = try await riveFile.createArtboard()
    let local = try await riveFile.createViewModelInstance(.viewModelDefault(from: .artboardDefault(artboard)))
    let stateMachine = try await artboard.createStateMachine(binding: local)
    _ = try await Rive(file: riveFile, artboard: artboard, stateMachine: stateMachine)

    let shared = try await RiveSyncClient.Worker(url: "ws://127.0.0.1:7420")
    let character = try await shared.stateMachine(named: "character").mainInstance()
    let bridge = try await RiveSyncBridge.bind(character, to: local, file: riveFile)
    local.setValue(of: RiveRuntime.NumberProperty(path: "mood"), to: 5)  // reaches every app
    character.setValue(of: RiveSyncClient.NumberProperty(path: "mood"), to: 0)  // so does this
    do {
        try await character.confirmed.fire(trigger: RiveSyncClient.TriggerProperty(path: "success"))
    } catch let error as RiveSyncClient.ViewModelInstanceError {
        print(error)
    }
    return bridge
}

if CommandLine.arguments.contains("--run") {
    Task { @MainActor in _ = try await showSharedCharacter() }
}
