import RiveSyncRedis
import Testing

/// The append window's matching on a stand-in connection: Redis's reply order is the order
/// sent, so each reply belongs to the oldest item in flight.
@Suite struct RedisWindowTests {
    /// Runs what is sent in order, as Redis does: `GET k` answers the last `SET k`, `FAIL`
    /// gets an error reply. Replies "arrive" once flushed; `breaksAfter` replies, the
    /// connection breaks (later replies never come).
    final class StandIn: RedisPipelining {
        var buffered: [[String]] = []
        var arrived: [RedisReply] = []
        var values: [String: String] = [:]
        var flushes = 0
        var replies = 0
        var breaksAfter = Int.max

        func send(_ arguments: [RedisArgument]) throws(RedisError) {
            buffered.append(arguments.map { String(decoding: $0.bytes, as: UTF8.self) })
        }

        func flush() throws(RedisError) {
            flushes += 1
            for command in buffered {
                switch command[0] {
                case "SET":
                    values[command[1]] = command[2]
                    arrived.append(.status("OK"))
                case "GET": arrived.append(values[command[1]].map { .bulk(Array($0.utf8)) } ?? .null)
                default: arrived.append(.error("ERR unknown command '\(command[0])'"))
                }
            }
            buffered = []
        }

        func receive() throws(RedisError) -> RedisReply {
            if !buffered.isEmpty { try flush() }
            guard let reply = try bufferedReply() else { throw .connectionLost("closed by the stand-in") }
            return reply
        }

        func bufferedReply() throws(RedisError) -> RedisReply? {
            guard replies < breaksAfter, !arrived.isEmpty else { return nil }
            replies += 1
            return arrived.removeFirst()
        }
    }

    @Test func eachReplyGoesToTheItemSentInItsPlaceAndAnErrorStaysWithItsOwn() throws {
        let connection = StandIn()
        var window = RedisWindow<Int>(capacity: 4)
        try window.send(["SET", "a", "1"], for: 0, on: connection)
        try window.send(["FAIL"], for: 1, on: connection)
        try window.send(["GET", "a"], for: 2, on: connection)
        try window.send(["SET", "a", "2"], for: 3, on: connection)
        #expect(window.isFull && window.count == 4)
        #expect(connection.flushes == 0, "sending only buffers")
        let answered = try window.receive(on: connection)
        #expect(answered.map(\.item) == [0, 1, 2, 3], "one wait took every reply that had arrived")
        #expect(answered[0].reply == .status("OK"))
        #expect(answered[1].reply == .error("ERR unknown command 'FAIL'"))
        #expect(answered[2].reply == .bulk(Array("1".utf8)), "the GET ran after the SET before it, not after the one behind it")
        #expect(answered[3].reply == .status("OK"))
        #expect(window.isEmpty)
        #expect(try window.receive(on: connection).isEmpty, "nothing in flight: nothing to wait for")
    }

    @Test func aWindowKeepsItsOrderAcrossManyRefillsWithinItsCapacity() throws {
        let connection = StandIn()
        var window = RedisWindow<Int>(capacity: 8)
        var next = 0
        var answered: [Int] = []
        // Sends while there is room and takes one reply at a time (each flush answers all):
        // the order survives the window filling and draining 125 times.
        while answered.count < 1000 {
            while !window.isFull, next < 1000 {
                try window.send(["SET", "k", RedisArgument("\(next)")], for: next, on: connection)
                next += 1
            }
            #expect(window.count <= 8)
            connection.breaksAfter = connection.replies + 1
            let replies = try window.receive(on: connection)
            #expect(replies.count == 1, "one reply per wait when only one has arrived")
            answered += replies.map(\.item)
            connection.breaksAfter = Int.max
            answered += try window.receive(on: connection).map(\.item)
        }
        #expect(answered == Array(0..<1000))
    }

    @Test func aConnectionThatBreaksLeavesEveryItemNotAnsweredUnknownInOrder() throws {
        let connection = StandIn()
        var window = RedisWindow<String>(capacity: 64)
        for index in 0..<10 { try window.send(["SET", RedisArgument("k\(index)"), "v"], for: "item \(index)", on: connection) }
        connection.breaksAfter = 3
        let answered = try window.receive(on: connection)
        #expect(answered.map(\.item) == ["item 0", "item 1", "item 2"])
        #expect(window.count == 7)
        #expect(throws: RedisError.connectionLost("closed by the stand-in")) { try window.receive(on: connection) }
        #expect(window.count == 7, "a failed wait answers nothing")
        #expect(window.abandon() == (3..<10).map { "item \($0)" })
        #expect(window.isEmpty && !window.isFull)
    }
}
