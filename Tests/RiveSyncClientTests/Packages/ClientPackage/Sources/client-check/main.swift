import Foundation
import RiveSyncClient

/// Connects to the daemon at the first argument (the demo), writes the character's mood and
/// reads it back: prints `mood 7`, or `error: …` and exits 1.
@main
struct ClientCheck {
    static func main() async {
        let url = CommandLine.arguments.dropFirst().first ?? Worker.defaultURL
        do {
            let worker = try await Worker(url: url, reconnect: false)
            let character = try await worker.stateMachine(named: "character").mainInstance()
            try await worker.target(named: "character").setValue(at: "mood", to: .number(7))
            print("mood \(Int(try await character.value(of: NumberProperty(path: "mood"))))")
            await worker.close()
        } catch {
            print("error: \(error)")
            exit(1)
        }
    }
}
