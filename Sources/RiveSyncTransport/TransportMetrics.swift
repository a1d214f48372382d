import Synchronization

/// Counters and gauges of one server or client, updated on its service thread and readable
/// from any thread.
///
/// All values use relaxed atomics: each is exact on its own, but a set of reads is not a
/// consistent snapshot. The counters written on every message are kept per service thread
/// (`TransportStripe`) and summed when read.
public final class TransportMetrics: Sendable {
    /// WebSocket sessions opened since start (counter).
    public let connectionsOpened = Atomic<Int>(0)
    /// WebSocket sessions open now (gauge).
    public let connectionsCurrent = Atomic<Int>(0)
    /// Handshakes refused because of `maxConnections` or shutdown (counter).
    public let connectionsRejected = Atomic<Int>(0)
    /// Whole messages received (counter).
    public var messagesIn: Int { sum { $0.messagesIn.load(ordering: .relaxed) } }
    /// Message bytes received (counter).
    public var bytesIn: Int { sum { $0.bytesIn.load(ordering: .relaxed) } }
    /// Whole messages written to sockets, one per session per message (counter).
    public var messagesOut: Int { sum { $0.messagesOut.load(ordering: .relaxed) } }
    /// Message bytes written, without frame headers (counter).
    public var bytesOut: Int { sum { $0.bytesOut.load(ordering: .relaxed) } }
    /// `lws_write` calls (counter); below `messagesOut` when writes are coalesced.
    public var writes: Int { sum { $0.writes.load(ordering: .relaxed) } }
    /// Writes made as soon as a batch was queued, without waiting for a `WRITEABLE` (counter;
    /// part of `writes`).
    public var directWrites: Int { sum { $0.directWrites.load(ordering: .relaxed) } }
    /// `WRITEABLE`s brought on at once by telling the loop a socket is writable, or, from the
    /// hosted timer, by running lws' writable handling at once.
    public var fedWrites: Int { sum { $0.fedWrites.load(ordering: .relaxed) } }
    /// Message bytes queued in all sessions, not yet written (gauge).
    public var queuedBytes: Int { sum { $0.queuedBytes.load(ordering: .relaxed) } }
    /// Bytes of sends submitted (`payload × sessions`) that the service thread has not applied
    /// yet: with `queuedBytes`, what `WebSocketServer.totalQueuedBytes` reports.
    var bytesInTransit: Int { sum { $0.bytesInTransit.load(ordering: .relaxed) } }
    /// Messages queued in all sessions, not yet written (gauge).
    public var queuedMessages: Int { sum { $0.queuedMessages.load(ordering: .relaxed) } }
    /// Send-queue overflows (counter).
    public let queueOverflows = Atomic<Int>(0)
    /// Messages dropped: to overflowed, closing or discarded queues (counter).
    public let messagesDropped = Atomic<Int>(0)
    /// Messages closed with 1009 for exceeding `maxMessageBytes` (counter).
    public let messagesTooLarge = Atomic<Int>(0)
    /// Times a session stopped being read for back-pressure (counter).
    public let readPauses = Atomic<Int>(0)
    /// Plain HTTP requests served (counter).
    public let httpRequests = Atomic<Int>(0)
    /// Times a service thread handed commands or hosted work to another service thread
    /// (counter; with one thread, or a room's connections on its worker's thread, none).
    public let threadHops = Atomic<Int>(0)
    /// Connections the listening thread placed by their request target (`steering`; counter).
    public let connectionsSteered = Atomic<Int>(0)

    /// One per service thread (one for a client): the counters written on every message.
    let stripes: [TransportStripe]

    /// Creates zeroed metrics for one service thread.
    public convenience init() { self.init(serviceThreads: 1) }

    /// Creates zeroed metrics for `serviceThreads` service threads, a stripe each.
    init(serviceThreads: Int) {
        stripes = (0..<max(serviceThreads, 1)).map { _ in TransportStripe() }
    }

    /// The sum of one counter over the stripes.
    private func sum(_ counter: (TransportStripe) -> Int) -> Int {
        stripes.reduce(0) { $0 + counter($1) }
    }

    /// The metrics in Prometheus text exposition format, names prefixed by `prefix`.
    public func prometheusText(prefix: String = "rivesync_transport") -> String {
        let rows: [(String, String, String, Int)] = [
            ("connections_opened_total", "counter", "WebSocket sessions opened.", connectionsOpened.load(ordering: .relaxed)),
            ("connections", "gauge", "WebSocket sessions open now.", connectionsCurrent.load(ordering: .relaxed)),
            ("connections_rejected_total", "counter", "Handshakes refused.", connectionsRejected.load(ordering: .relaxed)),
            ("messages_in_total", "counter", "Whole messages received.", messagesIn),
            ("bytes_in_total", "counter", "Message bytes received.", bytesIn),
            ("messages_out_total", "counter", "Messages written, one per session per message.", messagesOut),
            ("bytes_out_total", "counter", "Message bytes written, without frame headers.", bytesOut),
            ("writes_total", "counter", "Socket writes (lws_write calls).", writes),
            ("direct_writes_total", "counter", "Writes made as soon as a message was queued.", directWrites),
            ("fed_writes_total", "counter", "Writable events raised at once, not awaited.", fedWrites),
            ("queued_bytes", "gauge", "Message bytes queued in all sessions, not yet written.", queuedBytes),
            ("queued_messages", "gauge", "Messages queued in all sessions, not yet written.", queuedMessages),
            ("queue_overflows_total", "counter", "Send-queue overflows.", queueOverflows.load(ordering: .relaxed)),
            ("messages_dropped_total", "counter", "Messages dropped (overflow, closing).", messagesDropped.load(ordering: .relaxed)),
            ("messages_too_large_total", "counter", "Messages over the size limit (1009).", messagesTooLarge.load(ordering: .relaxed)),
            ("read_pauses_total", "counter", "Times a session stopped being read (back-pressure).", readPauses.load(ordering: .relaxed)),
            ("http_requests_total", "counter", "Plain HTTP requests served.", httpRequests.load(ordering: .relaxed)),
            (
                "thread_hops_total", "counter", "Commands or work handed from one service thread to another.",
                threadHops.load(ordering: .relaxed)
            ),
            (
                "connections_steered_total", "counter", "Connections placed on a thread by their request target.",
                connectionsSteered.load(ordering: .relaxed)
            ),
        ]
        var text = ""
        for (name, type, help, value) in rows {
            text += "# HELP \(prefix)_\(name) \(help)\n# TYPE \(prefix)_\(name) \(type)\n\(prefix)_\(name) \(value)\n"
        }
        return text
    }
}
