import RiveSyncCore
import Testing

/// `ActionList`: actions taken out first to last, the list empty once the last is taken, its
/// storage kept for the next event's.
struct ActionListTests {
    @Test func actionsComeOutInOrderAndTheListEmptiesItself() {
        var list = ActionList<String>()
        for action in ["a", "b", "c"] { list.append(action) }
        #expect(list.count == 3)
        #expect(list.popFirst() == "a")
        #expect(list.count == 2)
        #expect(list.popFirst() == "b")
        #expect(list.popFirst() == "c")
        #expect(list.popFirst() == nil)
        #expect(list.isEmpty && list.capacity == 3)
        list.append("d")
        list.append("e")
        #expect(list.capacity == 3, "the slots are reused, not added")
        #expect(list.actions == ["d", "e"])
        #expect(list.popFirst() == "d")
        list += ["f", "g"]
        #expect(list.actions == ["e", "f", "g"])
        #expect(list.capacity == 4)
    }

    @Test func removeAllDropsWhatWasNotTaken() {
        var list = ActionList<String>()
        list += ["a", "b", "c"]
        #expect(list.popFirst() == "a")
        list.removeAll()
        #expect(list.isEmpty && list.actions.isEmpty)
        #expect(list.popFirst() == nil)
        list.append("d")
        #expect(list.popFirst() == "d", "nothing left over comes before a new action")
        #expect(list.popFirst() == nil)
    }

    @Test func aCopyKeepsItsActions() {
        var list = ActionList<String>()
        list += ["a", "b"]
        let copy = list
        #expect(list.popFirst() == "a")
        list.removeAll()
        #expect(copy.actions == ["a", "b"])
    }
}
