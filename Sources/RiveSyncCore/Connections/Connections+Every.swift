extension Connections {
    /// Every open connection, in id order (a cluster node whose lease ended closes them all).
    public var open: [ConnectionID] { states.keys.sorted() }
}
