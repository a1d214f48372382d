/// The connections a frame is sent to: one held inline (an answer to the client that asked: no
/// array allocated), or a list. The shell hands their raw values to the transport as they are
/// (`rawValues`), with no array made per send.
public struct Recipients: Sendable, Equatable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// The connections' raw values (the transport's session ids).
    public enum RawValues: Sendable {
        case one(UInt64)
        case list([UInt64])
    }

    public private(set) var rawValues: RawValues

    /// No connection.
    public init() { rawValues = .list([]) }

    /// One connection.
    public init(_ connection: ConnectionID) { rawValues = .one(connection.rawValue) }

    /// `connections`, in their order.
    public init(_ connections: some Sequence<ConnectionID>) { rawValues = .list(connections.map(\.rawValue)) }

    public init(arrayLiteral connections: ConnectionID...) { self.init(connections) }

    /// Adds a connection at the end.
    public mutating func append(_ connection: ConnectionID) {
        switch rawValues {
        case .one(let first): rawValues = .list([first, connection.rawValue])
        case .list(let list) where list.capacity == 0:
            rawValues = .one(connection.rawValue)
        case .list(var list):
            rawValues = .list([])  // `list` the only reference: appended in place
            list.append(connection.rawValue)
            rawValues = .list(list)
        }
    }

    /// Makes room for `count` connections in all.
    public mutating func reserveCapacity(_ count: Int) {
        guard case .list(var list) = rawValues else { return }
        rawValues = .list([])
        list.reserveCapacity(count)
        rawValues = .list(list)
    }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch rawValues {
        case .one: 1
        case .list(let list): list.count
        }
    }

    public subscript(position: Int) -> ConnectionID {
        switch rawValues {
        case .one(let id):
            precondition(position == 0, "index out of range")
            return ConnectionID(id)
        case .list(let list): return ConnectionID(list[position])
        }
    }

    /// The same connections in the same order.
    public static func == (a: Recipients, b: Recipients) -> Bool { a.elementsEqual(b) }
}
