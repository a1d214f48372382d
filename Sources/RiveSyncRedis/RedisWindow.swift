/// A connection commands can be pipelined on: `RedisConnection`, or a stand-in in tests.
public protocol RedisPipelining: AnyObject {
    /// Buffers one command; nothing waits for its reply.
    func send(_ arguments: [RedisArgument]) throws(RedisError)
    /// Writes every buffered command.
    func flush() throws(RedisError)
    /// The reply to the oldest command not answered yet, waiting for it (`.error` for an
    /// error reply); throws when the connection broke.
    func receive() throws(RedisError) -> RedisReply
    /// That reply if it has arrived already, else nil (never waits).
    func bufferedReply() throws(RedisError) -> RedisReply?
}

extension RedisConnection: RedisPipelining {}

/// Commands in flight on one connection: up to `capacity` sent before their replies, each
/// reply matched to the oldest command not answered yet. Redis runs one connection's commands
/// in the order they arrive and answers in that order, so the items come back in the order
/// they were sent. One thread drives a window and its connection.
public struct RedisWindow<Item> {
    /// How many commands may be in flight at once.
    public let capacity: Int
    /// In flight, oldest first from `head`.
    private var items: [Item] = []
    private var head = 0

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Commands sent and not answered yet.
    public var count: Int { items.count - head }
    public var isEmpty: Bool { count == 0 }
    /// True when no command may be sent before a reply is received.
    public var isFull: Bool { count >= capacity }

    /// Buffers `arguments` on `connection` for `item` (call `flush`, or `receive`, to write
    /// it). The window must not be full. When this throws, `item` was not sent.
    public mutating func send(_ arguments: [RedisArgument], for item: Item, on connection: some RedisPipelining) throws(RedisError) {
        precondition(!isFull, "RedisWindow: send on a full window")
        try connection.send(arguments)
        items.append(item)
    }

    /// Waits for the reply to the oldest item, then takes every further reply that has
    /// arrived with it, without waiting: each with its item, oldest first. A failure while
    /// taking the further ones leaves them in flight (the connection is broken, so the next
    /// `receive` throws). Throws when the connection broke before the first reply (then
    /// `abandon`).
    public mutating func receive(on connection: some RedisPipelining) throws(RedisError) -> [(item: Item, reply: RedisReply)] {
        guard !isEmpty else { return [] }
        var answered = [(item: Item, reply: RedisReply)]()
        let first = try connection.receive()
        answered.append((takeOldest(), first))
        while !isEmpty {
            let reply: RedisReply?
            do { reply = try connection.bufferedReply() } catch { break }
            guard let reply else { break }
            answered.append((takeOldest(), reply))
        }
        return answered
    }

    /// The connection broke: every item in flight, oldest first, whose command Redis may or
    /// may not have run. The window is empty after.
    public mutating func abandon() -> [Item] {
        defer {
            items = []
            head = 0
        }
        return Array(items[head...])
    }

    private mutating func takeOldest() -> Item {
        let item = items[head]
        head += 1
        // Answered items go once there are as many as the window holds: memory stays bounded.
        if head >= capacity || head == items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }
}
