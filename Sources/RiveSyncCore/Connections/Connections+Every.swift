extension Connections {
    /// Every open connection, in id order (`closeAll` closes them).
    public var open: [ConnectionID] { states.keys.sorted() }

    /// Every connection that has said hello, in id order (those `freshness` tells, PROTOCOL.md
    /// §7.1).
    public var greeted: [ConnectionID] { states.filter { $0.value.value.identity != nil }.keys.sorted() }
}
