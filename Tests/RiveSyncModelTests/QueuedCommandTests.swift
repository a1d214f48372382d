import RiveSyncModel
import Testing

/// A queued command keeps its fields behind one reference (copied on write): it is still a
/// value, and equality ignores where its path led.
struct QueuedCommandTests {
    @Test func aCopyKeepsTheFieldsItHadWhenTheOtherChanges() {
        let original = QueuedCommand(id: 7, command: .set(path: "score", value: .number(1)), author: Author(client: "a", token: nil))
        var copy = original
        copy.id = 8
        copy.command = .fire(path: "go")
        copy.author = nil
        copy.transaction = 7
        #expect(original.id == 7)
        #expect(original.command == .set(path: "score", value: .number(1)))
        #expect(original.author == Author(client: "a", token: nil))
        #expect(original.transaction == nil)
        #expect(copy.id == 8 && copy.command == .fire(path: "go") && copy.author == nil && copy.transaction == 7)
        #expect(copy != original)
    }

    @Test func equalCommandsHashAlike() {
        let a = QueuedCommand(id: 1, command: .fire(path: "go"), transaction: 1)
        let b = QueuedCommand(id: 1, command: .fire(path: "go"), transaction: 1)
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
    }
}
