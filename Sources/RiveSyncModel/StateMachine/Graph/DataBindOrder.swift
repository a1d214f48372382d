/// How Rive numbers an artboard's data binds once they are bound: in file order, except that
/// one pass moves each to-source bind (to-source or two-way) to the front by swapping it with
/// the first bind that is not (Rive's `DataBindContainer::sortDataBinds`), which reorders the
/// others too. A trace's `setTarget` and a client's `setBindTarget` (PROTOCOL.md §8) name a bind
/// by this number.
public enum DataBindOrder {
    /// For each of Rive's numbers, the bind's position in file order; `toSource[i]` says
    /// whether the bind at file position `i` writes to its source.
    public static func filePositions(toSource: [Bool]) -> [Int] {
        var order = Array(toSource.indices)
        var front = 0
        for index in toSource.indices where toSource[order[index]] {
            order.swapAt(front, index)
            front += 1
        }
        return order
    }
}

extension StateMachineDefinition {
    /// The file positions (in `artboardBinds`) of the artboard's data binds, in Rive's order.
    public var artboardBindsInRiveOrder: [Int] {
        DataBindOrder.filePositions(toSource: artboardBinds.map { $0.toSource || $0.twoWay })
    }
}
