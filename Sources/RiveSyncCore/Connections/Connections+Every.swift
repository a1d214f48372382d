extension Connections {
    /// Every open connection, in id order (a cluster node whose lease ended closes them all).
    public var open: [ConnectionID] { states.keys.sorted() }

    /// Every connection that has said hello, in id order (those a cluster node tells that its
    /// state may be behind, PROTOCOL.md §7.1).
    public var greeted: [ConnectionID] { states.filter { $0.value.identity != nil }.keys.sorted() }
}
