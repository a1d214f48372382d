import BenchLoadKit
import Glibc
import RiveSyncTransport

/// The servers the generator can drive, each with its thin protocol adapter.
enum Peer: String, Sendable {
    /// rivesyncd, protocol v1 (PROTOCOL.md): hello, subscribe, set.
    case rivesync
    /// MQTT 3.1.1 over WebSocket (Mosquitto's websockets listener), QoS 0.
    case mqtt
    /// y-websocket: Yjs update messages in one room.
    case yjs
    /// The libwebsockets test server's `lws-mirror-protocol`: every message to every client.
    case mirror

    /// The WebSocket subprotocol to offer.
    var subprotocol: String? {
        switch self {
        case .rivesync: "rivesync.v1"
        case .mqtt: "mqtt"
        case .yjs: nil
        case .mirror: "lws-mirror-protocol"
        }
    }

    /// MQTT topic filter of subscribers; writers publish to `bench/<writer>`.
    static let mqttFilter = "bench/#"

    /// What a connection sends right after connecting (sends queue until it opens; both
    /// rivesync and MQTT allow requests right behind the hello/CONNECT).
    func greeting(subscriber: Bool, name: String, target: String) -> [Payload] {
        switch self {
        case .rivesync:
            let hello = #"{"type":"hello","id":1,"protocol":[1],"client":"bench-load"}"#
            let subscribe = #"{"type":"subscribe","id":2,"target":"\#(target)"}"#
            return [Payload(text: hello)] + (subscriber ? [Payload(text: subscribe)] : [])
        case .mqtt:
            let connect = Payload(bytes: MQTTFraming.connect(clientID: name), isText: false)
            let subscribe = Payload(bytes: MQTTFraming.subscribe(packetID: 1, filter: Self.mqttFilter), isText: false)
            return [connect] + (subscriber ? [subscribe] : [])
        case .yjs, .mirror:
            return []
        }
    }
}

/// The receive side of one connection: tells when it is ready (subscribed, or able to write)
/// and hands the bytes that can hold records to a `RecordScanner`. Used on the client's
/// service thread only.
struct ReceiveDecoder: Sendable {
    let peer: Peer
    let subscriber: Bool
    private(set) var ready = false
    /// The first error message a rivesync connection received, for the report.
    private(set) var firstError: String?
    private var mqtt = MQTTPacketSplitter()

    init(peer: Peer, subscriber: Bool) {
        self.peer = peer
        self.subscriber = subscriber
    }

    /// Marks the connection open (the mirror protocol has no handshake of its own).
    mutating func opened() {
        if peer == .mirror { ready = true }
    }

    /// Handles one message; calls `records` with the bytes that may hold records.
    mutating func receive(_ bytes: UnsafeRawBufferPointer, records: (UnsafeRawBufferPointer) -> Void) {
        switch peer {
        case .rivesync:
            if Self.starts(bytes, with: Self.batchPrefix) {
                records(bytes)
            } else if Self.starts(bytes, with: subscriber ? Self.snapshotPrefix : Self.welcomePrefix) {
                ready = true
            } else if firstError == nil, Self.starts(bytes, with: Self.errorPrefix) {
                firstError = String(decoding: bytes.prefix(300), as: UTF8.self)
            }
        case .mqtt:
            let wanted: UInt8 = subscriber ? MQTTFraming.PacketType.suback.rawValue : MQTTFraming.PacketType.connack.rawValue
            var readyNow = ready
            mqtt.feed(bytes) { type, body in
                if type == MQTTFraming.PacketType.publish.rawValue, body.count >= 2 {
                    let topicLength = Int(body[body.startIndex]) << 8 | Int(body[body.startIndex + 1])
                    body.dropFirst(2 + topicLength).withUnsafeBytes(records)
                } else if type == wanted {
                    readyNow = true
                }
            }
            ready = readyNow
        case .yjs:
            ready = true  // the server greets every connection with its sync step 1
            if bytes.count > 2, bytes[0] == UInt8(YjsFraming.messageSync), bytes[1] == UInt8(YjsFraming.syncUpdate) {
                records(bytes)
            }
        case .mirror:
            records(bytes)
        }
    }

    /// `{"type":"<type>"`: how the rivesync messages the decoder looks at start.
    private static let batchPrefix = typePrefix("batch"), snapshotPrefix = typePrefix("snapshot"),
        welcomePrefix = typePrefix("welcome"), errorPrefix = typePrefix("error")

    private static func typePrefix(_ type: String) -> [UInt8] { Array(#"{"type":"\#(type)""#.utf8) }

    private static func starts(_ bytes: UnsafeRawBufferPointer, with prefix: [UInt8]) -> Bool {
        bytes.count >= prefix.count && prefix.withUnsafeBytes { memcmp(bytes.baseAddress!, $0.baseAddress!, $0.count) == 0 }
    }
}

/// Turns records into one writer's update messages. Owned by the pacing thread.
struct UpdateEncoder: Sendable {
    let peer: Peer
    let writer: Int
    let target: String
    /// rivesync: its `set` requests, over the paths this writer cycles through (`s<i>`).
    private var sets: SetRequestEncoder
    /// Yjs client id (unique per writer and process) and next clock.
    private let client: UInt
    private var clock: UInt = 0

    init(peer: Peer, writer: Int, paths: [String], target: String, processID: Int) {
        self.peer = peer
        self.writer = writer
        self.target = target
        sets = SetRequestEncoder(target: target, paths: paths, firstID: 11)
        client = UInt(truncatingIfNeeded: processID &* 64 &+ writer) & 0x3FFF_FFFF
    }

    /// The message carrying `record`.
    mutating func encode(_ record: Record) -> Payload {
        switch peer {
        case .rivesync:
            var bytes: [UInt8] = []
            sets.appendPayload(record, to: &bytes)
            return Payload(bytes: bytes, isText: true)
        case .mqtt:
            return Payload(bytes: MQTTFraming.publish(topic: "bench/\(writer)", payload: record.bytes), isText: false)
        case .yjs:
            defer { clock += 1 }
            let text = String(decoding: record.bytes, as: UTF8.self)
            let update = YjsFraming.mapSetUpdate(client: client, clock: clock, root: "bench", key: "w\(writer)", value: text)
            return Payload(bytes: YjsFraming.updateMessage(update), isText: false)
        case .mirror:
            return Payload(bytes: record.bytes, isText: true)
        }
    }

    /// Appends the `set` carrying `record` to `out` as one masked client frame, written in
    /// place with no string or payload made: the raw engine's writers, which only `--rooms`
    /// has, and only with `--peer rivesync` (`Options`).
    mutating func appendFrame(_ record: Record, maskKey: UInt32, to out: inout [UInt8]) {
        precondition(peer == .rivesync, "the raw engine writes rivesync sets only")
        sets.appendMaskedFrame(record, maskKey: maskKey, to: &out)
    }
}
