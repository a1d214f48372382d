import RiveSyncClient

// Stand-ins for what the snippets name but RiveSync does not have: Rive's view object (it
// draws; RiveSync has no renderer), and the Combine and SwiftUI names the guide's model uses
// (not on Linux). They only let the snippets compile and run unchanged; nothing here is
// RiveSync API.

/// Rive's `Rive` view object: keeps what it was given (with Rive's initializers).
@MainActor
final class Rive {
    let file: File
    let artboard: Artboard
    let stateMachine: StateMachine

    init(file: File, artboard: Artboard, stateMachine: StateMachine) async throws {
        self.file = file
        self.artboard = artboard
        self.stateMachine = stateMachine
    }

    /// The default artboard and its default state machine (authored defaults bound).
    convenience init(file: File) async throws {
        try await self.init(file: file, artboard: try await file.createArtboard())
    }

    convenience init(file: File, artboard: Artboard) async throws {
        try await self.init(file: file, artboard: artboard, stateMachine: try await artboard.createStateMachine())
    }
}

/// Combine's `ObservableObject`, for the guide's model.
protocol ObservableObject: AnyObject {}

/// Combine's `@Published`, for the guide's model.
@propertyWrapper
struct Published<Value> {
    var wrappedValue: Value
}

/// SwiftUI's `ColorScheme`, for the globals builder snippet.
enum ColorScheme {
    case light, dark
}
