/// A core's actions in order, in storage kept from one event to the next: the core appends an
/// event's actions, the shell takes them out first to last (moved, not copied), and once the
/// last is taken the list is empty again and keeps its storage for the next event's.
///
/// An array of the actions emptied for reuse (`removeAll(keepingCapacity:)`) destroys every
/// element through a generic `replaceSubrange` (~300 instructions an event); a new array each
/// event is a `malloc`. Here a taken action leaves an empty slot behind, and emptying the list
/// is setting two counts (bench/README.md, "The set path, round ten").
///
/// Its API is inlinable so that the shells, in other modules, get code specialised for their
/// action type (a generic list's elements would be moved through their type's value witnesses).
public struct ActionList<Action> {
    /// The actions appended, from `head` up to `count`; nil elsewhere (taken, or not used yet).
    @usableFromInline var slots: [Action?] = []
    /// The next action to take.
    @usableFromInline var head = 0
    /// The end of the actions appended since the list was last empty.
    @usableFromInline var end = 0

    @inlinable public init() {}

    /// How many actions wait to be taken.
    @inlinable public var count: Int { end - head }

    /// Whether no action waits to be taken.
    @inlinable public var isEmpty: Bool { end == head }

    /// How many actions the list holds without growing.
    @inlinable public var capacity: Int { slots.count }

    /// Adds `action` after every action appended before it.
    @inlinable public mutating func append(_ action: consuming Action) {
        if end < slots.count {
            slots[end] = consume action
        } else {
            slots.append(consume action)
        }
        end += 1
    }

    /// The first action not taken yet, taken out of the list; nil once every action is taken,
    /// and the list is then empty, its storage kept.
    @inlinable public mutating func popFirst() -> Action? {
        guard head < end else {
            (head, end) = (0, 0)
            return nil
        }
        head += 1
        return slots[head - 1].take()
    }

    /// Drops the actions not taken yet: the list is empty, its storage kept.
    @inlinable public mutating func removeAll() {
        for position in head..<end { slots[position] = nil }
        (head, end) = (0, 0)
    }

    /// Appends `actions` in order, after every action appended before them.
    @inlinable public static func += (list: inout ActionList, actions: [Action]) {
        for action in actions { list.append(action) }
    }

    /// The actions waiting to be taken, in order (copies; for tests and logs).
    public var actions: [Action] { slots[head..<end].compactMap { $0 } }
}

extension ActionList: Sendable where Action: Sendable {}
