/// The sessions a `send` goes to: one held inline (an answer to one client: no array
/// allocated), or a list.
public struct SessionIDs: Sendable, RandomAccessCollection, ExpressibleByArrayLiteral {
    enum Storage: Sendable {
        case one(SessionID)
        case list([SessionID])
    }

    let storage: Storage

    /// One session.
    public init(_ id: SessionID) { storage = .one(id) }

    /// `ids`, in their order.
    public init(_ ids: [SessionID]) { storage = .list(ids) }

    public init(arrayLiteral ids: SessionID...) { self.init(ids) }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch storage {
        case .one: 1
        case .list(let ids): ids.count
        }
    }

    /// Calls `body` with each id in order, reading the list where it lies (a `for … in` holds a
    /// copy of the ids in its iterator: a retain and a release of the list per send).
    @inline(__always)
    func forEachID(_ body: (SessionID) -> Void) {
        switch storage {
        case .one(let id): body(id)
        case .list(let ids): ids.withUnsafeBufferPointer { for id in $0 { body(id) } }
        }
    }

    public subscript(position: Int) -> SessionID {
        switch storage {
        case .one(let id):
            precondition(position == 0, "index out of range")
            return id
        case .list(let ids): return ids[position]
        }
    }
}
