// swift-format-ignore-file
// (Rive's text and signatures are kept as written there.)
import Foundation
import RiveSyncClient

// The SwiftUI guide to the new Apple runtime (../shared/reference/004_*.txt): its model class
// and the extension that observes it, as written there, between the same markers as in
// RuntimeDocSnippets (only the worker and file sources differ). The guide's SwiftUI views
// (`CharacterView`, `UploadScreen`) need SwiftUI and Rive's renderer and are not here.

/// Where the guide's `Worker()` connects (set by the test).
nonisolated(unsafe) var guideDaemonURL = Worker.defaultURL

// snippet: 32
@MainActor
final class CharacterModel: ObservableObject {
    @Published private(set) var rive: Rive?
    private var instance: ViewModelInstance?

    private let mood = NumberProperty(path: "mood")

    func load() async {
        guard rive == nil else { return }
        do {
            let worker = try await Worker(url: guideDaemonURL) // was: let worker = try await Worker()
            let file = try await File(source: .name("character"), worker: worker) // was: let file = try await File(source: .local("character", Bundle.main), worker: worker)
            let artboard = try await file.createArtboard()
            let instance = try await file.createViewModelInstance(
                .viewModelDefault(from: .artboardDefault(artboard))
            )
            let stateMachine = try await artboard.createStateMachine(
                "CharacterViewModelMachine",
                binding: instance
            )
            self.instance = instance
            rive = try await Rive(file: file, artboard: artboard, stateMachine: stateMachine)
        } catch {
            print("Rive setup failed: \(error)")
        }
    }

    func setMood(_ value: Int) {
        instance?.setValue(of: mood, to: Float(value))
    }

    func fire(_ trigger: String) {
        instance?.fire(trigger: TriggerProperty(path: trigger))
    }
}
// end snippet

// snippet: 117
extension CharacterModel {
    func watchMood() async {
        guard let instance else { return }
        do {
            for try await value in instance.valueStream(of: NumberProperty(path: "mood")) {
                print("mood is now \(Int(value))")
            }
        } catch {
            print("Stream ended: \(error)")
        }
    }

    func waitForSuccess() async throws {
        guard let instance else { return }
        for try await _ in instance.stream(of: TriggerProperty(path: "success")) {
            break   // first fire is enough
        }
    }
}
// end snippet

extension CharacterModel {
    /// The instance `load()` bound (private in the guide's model), for the test's checks.
    var loadedInstance: ViewModelInstance? { instance }
}
