import RiveSyncModel
import Testing

/// `CompactList` (an advance's `QueuedCommands`, an effect's `EffectPaths`): one element held
/// without an array, two or more in one, and the same list whichever way it was made.
struct CompactListTests {
    @Test func appendingKeepsTheOrder() {
        var paths = EffectPaths()
        #expect(paths.isEmpty && Array(paths) == [])
        paths.append("a")
        #expect(paths.count == 1 && paths[0] == "a" && paths.first == "a")
        paths.append("b")
        paths.append("c")
        #expect(Array(paths) == ["a", "b", "c"] && paths.count == 3 && paths.last == "c")
    }

    @Test func aListIsEqualHoweverItWasMade() {
        var appended = EffectPaths()
        appended.append("only")
        let lists: [EffectPaths] = [EffectPaths("only"), EffectPaths(["only"]), ["only"], appended]
        for list in lists {
            #expect(list == EffectPaths("only"))
            #expect(list.hashValue == EffectPaths("only").hashValue)
        }
        #expect(EffectPaths(["a", "b"]) == ["a", "b"] && EffectPaths(["a", "b"]) != ["b", "a"])
        #expect(EffectPaths("a") != ["a", "a"] && EffectPaths() != ["a"] && EffectPaths() == [])
    }

    @Test func replacingARangeKeepsTheOtherElements() {
        var commands: QueuedCommands = [Self.command(1), Self.command(2), Self.command(3)]
        commands.replaceSubrange(0..<2, with: [Self.command(9)])
        #expect(commands.map(\.id) == [9, 3])
        commands.removeLast()
        #expect(commands.map(\.id) == [9] && commands == [Self.command(9)])
        commands += [Self.command(4)]
        #expect(commands.map(\.id) == [9, 4])
        commands.removeAll()
        #expect(commands.isEmpty && commands == QueuedCommands())
    }

    /// Growing a list of several does not change a copy of it (the array is not shared).
    @Test func aCopyKeepsWhatItHad() {
        var list: EffectPaths = ["a", "b"]
        let copy = list
        list.append("c")
        #expect(Array(copy) == ["a", "b"] && Array(list) == ["a", "b", "c"])
        var one = EffectPaths("x")
        let copyOfOne = one
        one.append("y")
        #expect(Array(copyOfOne) == ["x"] && Array(one) == ["x", "y"])
    }

    static func command(_ id: UInt64) -> QueuedCommand { QueuedCommand(id: id, command: .fire(path: "tri")) }
}
