import BenchLoadKit
import Glibc
import RiveSyncTransport

/// One generator process: opens the connections, waits for the start signal, paces the
/// writers, then reports.
struct LoadRun {
    let options: Options
    let collector = Collector()
    /// The lws client context: writers, and subscribers with `--engine lws`.
    let client: WebSocketClient?
    /// The epoll engine of subscribers with `--engine raw`.
    let raw: RawSubscriberEngine?

    /// Connections are opened in groups of this size, each waiting for the previous ones.
    static let connectGroup = 250
    static let readyTimeout: UInt64 = 180_000_000_000

    /// Starts the engines the options need.
    init(options: Options) throws {
        self.options = options
        if options.engine == .raw, options.subscribers > 0 {
            guard let url = WebSocketURL(options.url) else { throw RawEngineError("not a ws:// URL: \(options.url)") }
            raw = try RawSubscriberEngine(url: url, subprotocol: options.peer.subprotocol, collector: collector)
        } else {
            raw = nil
        }
        client = options.writers > 0 || raw == nil ? try WebSocketClient() : nil
    }

    /// Runs the whole process; returns the exit status.
    func run() -> Int32 {
        var writers: [ClientConnection] = []
        let total = options.subscribers + options.writers
        for index in 0..<total {
            let subscriber = index < options.subscribers
            let name = "bench-\(getpid())-\(index)"
            let decoder = ReceiveDecoder(peer: options.peer, subscriber: subscriber)
            if subscriber, let raw {
                let target = options.rooms > 0 ? options.layout.target(ofConnection: index) : options.target
                // A room's client says its room in its URL: a daemon with several transport
                // threads serves it on the room's worker's thread (the rooms floor ignores it).
                let path = options.rooms > 0 && options.roomHint ? RoomLayout.hinted(raw.target.path, room: target) : nil
                raw.connect(
                    index: collector.add(decoder), greeting: options.peer.greeting(subscriber: true, name: name, target: target), path: path
                )
            } else {
                guard let connection = open(decoder, name: name) else { return 1 }
                if !subscriber { writers.append(connection) }
            }
            if (index + 1) % Self.connectGroup == 0 { waitReady(upTo: index + 1) }
        }
        let ready = waitReady(upTo: total)
        print("READY \(ready)/\(total)")
        fflush(nil)
        if options.idle {
            while readLine() != nil {}
            return 0
        }
        let start = options.standalone ? Clock.now() + 200_000_000 : Self.readStart()
        let end = start + UInt64(options.duration * 1e9)
        collector.setWindowEnd(end)
        if options.rooms > 0 { startRoomClients(from: start, to: end) }
        Clock.sleep(until: start)
        let cpuStart = Clock.cpuSeconds()
        var sent = writers.isEmpty ? 0 : pace(writers, from: start, to: end)
        Clock.sleep(until: end)
        let cpu = Clock.cpuSeconds() - cpuStart
        Clock.sleep(until: end + UInt64(options.drain * 1e9))
        if options.rooms > 0 { sent = roomClientsSent() }
        print("RESULT " + Report(options: options, ready: ready, sent: sent, cpuSeconds: cpu, tally: collector.snapshot()).json)
        fflush(nil)
        return 0
    }

    /// Connects on the lws client and queues the greeting; nil (after a message) if the URL is unusable.
    private func open(_ decoder: ReceiveDecoder, name: String) -> ClientConnection? {
        guard let client else {
            printError("bench-load: no libwebsockets client in this process")
            return nil
        }
        let index = collector.add(decoder)
        let collector = collector
        do {
            let connection = try client.connect(to: options.url, subprotocol: options.peer.subprotocol) { event in
                switch event {
                case .opened: collector.handle(.opened, index: index)
                case .message(let bytes, _): collector.handle(.message(bytes, receivedAt: Clock.now()), index: index)
                case .closed(let code, let reason):
                    collector.handle(.closed("closed \(code.map(String.init) ?? "-") \(reason)"), index: index)
                case .failed(let reason): collector.handle(.closed("failed: \(reason)"), index: index)
                }
            }
            for payload in options.peer.greeting(subscriber: decoder.subscriber, name: name, target: options.target) {
                connection.send(payload)
            }
            return connection
        } catch {
            printError("bench-load: cannot connect to \(options.url): \(error)")
            return nil
        }
    }

    /// Waits until `count` connections are ready or ended (or the timeout); returns the ready count.
    @discardableResult
    private func waitReady(upTo count: Int) -> Int {
        let deadline = Clock.now() + Self.readyTimeout
        while true {
            let (ready, closed) = collector.readiness()
            if ready + closed >= count || Clock.now() > deadline { return ready }
            Clock.sleep(until: Clock.now() + 10_000_000)
        }
    }

    /// Sends updates round-robin over `writers` at the fixed rate (open loop: late sends go
    /// out at once, never skipped); returns how many were sent.
    private func pace(_ writers: [ClientConnection], from start: UInt64, to end: UInt64) -> Int {
        let pathsPerWriter = max(1, options.paths / max(1, options.writers))
        var encoders = writers.indices.map { local in
            let global = options.firstWriter + local
            let paths = (0..<pathsPerWriter).map { "s\((global * pathsPerWriter + $0) % options.paths)" }
            return UpdateEncoder(peer: options.peer, writer: global, paths: paths, target: options.target, processID: Int(getpid()))
        }
        var pacer = RoundRobinPacer(writers: writers.count, rate: options.rate, start: start, end: end)
        while let due = pacer.nextDue {
            Clock.sleep(until: due)
            let (local, seq) = pacer.take()
            let record = Record(writer: options.firstWriter + local, seq: seq, sentNanoseconds: Clock.now())
            writers[local].send(encoders[local].encode(record))
        }
        return pacer.sent
    }

    /// Has the raw engine's loop send the room clients' updates at `--rate` in total, in a
    /// shuffled order: each client sends at its own fixed phase of the period, so the clients
    /// of a room write at unrelated times, as independent users would (in connection order a
    /// room's clients would send back to back and their sets share one advance).
    private func startRoomClients(from start: UInt64, to end: UInt64) {
        let layout = options.layout
        let processID = Int(getpid())
        let encoders = (0..<options.subscribers).map { layout.encoder(ofConnection: $0, processID: processID) }
        let order = SeededShuffle.permutation(of: options.subscribers, seed: UInt64(options.firstRoom))
        let pacer = RoundRobinPacer(writers: options.subscribers, rate: options.rate, start: start, end: end)
        raw?.startWriting(RawSubscriberEngine.WritePlan(encoders: encoders, order: order, pacer: pacer))
    }

    /// The room clients' updates sent, once the loop has made the last one (waits for it: a
    /// loop that fell behind still sends every update that was due, late).
    private func roomClientsSent() -> Int {
        while true {
            if let sent = raw?.sentCount() { return sent }
            Clock.sleep(until: Clock.now() + 10_000_000)
        }
    }

    /// Reads `GO <ns>` from stdin; exits if stdin ends first.
    private static func readStart() -> UInt64 {
        while let line = readLine() {
            let parts = line.split(separator: " ")
            if parts.count == 2, parts[0] == "GO", let start = UInt64(parts[1]) { return start }
        }
        exit(0)
    }
}

/// Writes a line to stderr without touching C globals.
func printError(_ text: String) {
    let line = text + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
}
