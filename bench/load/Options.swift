import BenchLoadKit
import RiveSyncTransport

/// The command line of `bench-load` (see `usage`).
struct Options: Sendable {
    var peer = Peer.rivesync
    var url = ""
    var subscribers = 0
    var writers = 0
    /// First writer's global index (several writer processes number their writers apart).
    var firstWriter = 0
    /// Updates per second over all writers of this process.
    var rate = 1000.0
    var duration = 20.0
    /// Seconds to keep receiving after the last send.
    var drain = 2.0
    /// Distinct rivesync paths (`s0`…) the writers cycle through; 1 = "latest state" mode.
    var paths = 256
    var target = "bench"
    /// Hold connections open until stdin closes instead of running a timed workload.
    var idle = false
    /// Start at once instead of waiting for `GO <monotonic ns>` on stdin.
    var standalone = false
    /// What runs the subscriber connections (writers always use the lws client).
    var engine = SubscriberEngine.raw
    /// Rooms (rivesync state machines `room-<i>`) of this process; each has `clientsPerRoom`
    /// connections that subscribe to it and write to it. 0 = the fan-out shape above.
    var rooms = 0
    var firstRoom = 0
    var clientsPerRoom = 8
    /// Create the rooms (over the protocol) instead of running clients in them.
    var createRooms = false
    /// The files the rooms are created on, round-robin (`--create-rooms`).
    var files: [String] = []
    /// Advances per second of the rooms created (`rate` of `createStateMachine`).
    var roomRate = 60
    /// Whether a room's clients name their room in their URL (`?target=`; `--no-room-hint`
    /// leaves it out).
    var roomHint = true

    /// The room layout of a `--rooms` process.
    var layout: RoomLayout { RoomLayout(firstRoom: firstRoom, rooms: rooms, clientsPerRoom: clientsPerRoom) }

    static let usage = """
        usage: bench-load --peer rivesync|mqtt|yjs|mirror --url ws://HOST:PORT[/PATH]
                          [--subscribers N] [--writers W] [--first-writer I] [--rate R]
                          [--duration S] [--drain S] [--paths K] [--target NAME] [--idle] [--standalone]
                          [--engine raw|lws]
                          [--rooms N [--first-room I] [--clients-per-room K] [--no-room-hint]]
                          [--create-rooms --rooms N [--first-room I] --files A,B… [--room-rate R]]

        Opens N subscriber and W writer connections, prints READY when all are subscribed,
        waits for 'GO <CLOCK_MONOTONIC ns>' on stdin (or starts at once with --standalone),
        sends R updates/s round-robin over the writers for S seconds, receives for --drain more
        seconds and prints one 'RESULT {json}' line. With --idle it prints READY and holds the
        connections until stdin closes.

        Writers run on one libwebsockets client context. Subscribers run on the engine chosen
        with --engine: 'raw' (default) is non-blocking sockets served by one epoll thread with
        a minimal WebSocket client (ws:// only); 'lws' puts them on the libwebsockets context.

        With --rooms (rivesync, raw engine) the process runs N rooms instead: K clients per room
        (default 8), each subscribed to its room 'room-<i>' and writing its own property
        'client<k>'; --rate is then the updates/s of all its clients together. Each client's URL
        names its room ('?target=room-<i>', so that a daemon with several transport threads
        serves it on its room's thread) unless --no-room-hint is given. --create-rooms
        creates those rooms as auto state machines of the bench rooms schema (artboard Room,
        state machine room) on the given files, prints 'CREATED <count> <seconds>' and exits.
        """

    init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        func value(_ flag: String) throws(UsageError) -> String {
            guard let next = rest.popFirst() else { throw UsageError("\(flag) needs a value") }
            return next
        }
        func number(_ flag: String) throws(UsageError) -> Double {
            let text = try value(flag)
            guard let parsed = Double(text), parsed >= 0 else { throw UsageError("\(flag): expected a number ≥ 0") }
            return parsed
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--peer":
                let name = try value(flag)
                guard let parsed = Peer(rawValue: name) else { throw UsageError("--peer: unknown peer '\(name)'") }
                peer = parsed
            case "--url": url = try value(flag)
            case "--subscribers": subscribers = Int(try number(flag))
            case "--writers": writers = Int(try number(flag))
            case "--first-writer": firstWriter = Int(try number(flag))
            case "--rate": rate = try number(flag)
            case "--duration": duration = try number(flag)
            case "--drain": drain = try number(flag)
            case "--paths": paths = max(1, Int(try number(flag)))
            case "--target": target = try value(flag)
            case "--idle": idle = true
            case "--standalone": standalone = true
            case "--engine":
                let name = try value(flag)
                guard let parsed = SubscriberEngine(rawValue: name) else {
                    throw UsageError("--engine: expected raw or lws, got '\(name)'")
                }
                engine = parsed
            case "--rooms": rooms = Int(try number(flag))
            case "--first-room": firstRoom = Int(try number(flag))
            case "--clients-per-room": clientsPerRoom = max(1, Int(try number(flag)))
            case "--no-room-hint": roomHint = false
            case "--create-rooms": createRooms = true
            case "--files": files = try value(flag).split(separator: ",").map(String.init)
            case "--room-rate": roomRate = Int(try number(flag))
            default: throw UsageError("unknown argument '\(flag)'")
            }
        }
        guard !url.isEmpty else { throw UsageError("--url is required") }
        if rooms > 0 {
            guard subscribers == 0, writers == 0 else { throw UsageError("--rooms replaces --subscribers and --writers") }
            guard peer == .rivesync, engine == .raw else { throw UsageError("--rooms needs --peer rivesync and --engine raw") }
            guard !createRooms || !files.isEmpty else { throw UsageError("--create-rooms needs --files") }
            if !createRooms { subscribers = rooms * clientsPerRoom }
        } else if createRooms {
            throw UsageError("--create-rooms needs --rooms")
        }
        guard subscribers + writers > 0 || createRooms else { throw UsageError("give --subscribers and/or --writers") }
        guard writers == 0 || rate > 0 else { throw UsageError("--rate must be > 0 with writers") }
        guard rooms == 0 || createRooms || idle || rate > 0 else { throw UsageError("--rate must be > 0 with --rooms") }
        if engine == .raw, subscribers > 0 {
            guard let parsed = WebSocketURL(url), !parsed.isSecure else {
                throw UsageError("--engine raw needs a ws:// URL (use --engine lws for wss://)")
            }
        }
    }
}

/// The two ways of running subscriber connections.
enum SubscriberEngine: String, Sendable {
    /// `RawSubscriberEngine`: raw sockets and one epoll thread.
    case raw
    /// `RiveSyncTransport.WebSocketClient`: the libwebsockets client context.
    case lws
}

/// A command-line mistake, printed with the usage.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
