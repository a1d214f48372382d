import RiveSyncModel
import Testing

/// `CompactList` (an advance's `QueuedCommands`): one element held without an array, two or
/// more in one, and the same list whichever way it was made.
struct CompactListTests {
    typealias Paths = CompactList<String>

    @Test func appendingKeepsTheOrder() {
        var paths = Paths()
        #expect(paths.isEmpty && Array(paths) == [])
        paths.append("a")
        #expect(paths.count == 1 && paths[0] == "a" && paths.first == "a")
        paths.append("b")
        paths.append("c")
        #expect(Array(paths) == ["a", "b", "c"] && paths.count == 3 && paths.last == "c")
    }

    @Test func aListIsEqualHoweverItWasMade() {
        var appended = Paths()
        appended.append("only")
        let lists: [Paths] = [Paths("only"), Paths(["only"]), ["only"], appended]
        for list in lists {
            #expect(list == Paths("only"))
            #expect(list.hashValue == Paths("only").hashValue)
        }
        #expect(Paths(["a", "b"]) == ["a", "b"] && Paths(["a", "b"]) != ["b", "a"])
        #expect(Paths("a") != ["a", "a"] && Paths() != ["a"] && Paths() == [])
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
        var list: Paths = ["a", "b"]
        let copy = list
        list.append("c")
        #expect(Array(copy) == ["a", "b"] && Array(list) == ["a", "b", "c"])
        var one = Paths("x")
        let copyOfOne = one
        one.append("y")
        #expect(Array(copyOfOne) == ["x"] && Array(one) == ["x", "y"])
    }

    static func command(_ id: UInt64) -> QueuedCommand { QueuedCommand(id: id, command: .fire(path: "tri")) }
}
