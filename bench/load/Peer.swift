import BenchLoadKit
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
        bytes.count >= prefix.count && bytes.prefix(prefix.count).elementsEqual(prefix)
    }
}

/// Turns records into one writer's update messages. Owned by the pacing thread.
struct UpdateEncoder: Sendable {
    let peer: Peer
    let writer: Int
    /// rivesync: the paths this writer cycles through (`s<i>`).
    let paths: [String]
    let target: String
    /// Yjs client id (unique per writer and process) and next clock.
    private let client: UInt
    private var clock: UInt = 0
    private var requestID = 10

    init(peer: Peer, writer: Int, paths: [String], target: String, processID: Int) {
        self.peer = peer
        self.writer = writer
        self.paths = paths
        self.target = target
        client = UInt(truncatingIfNeeded: processID &* 64 &+ writer) & 0x3FFF_FFFF
    }

    /// The message carrying `record`.
    mutating func encode(_ record: Record) -> Payload {
        let text = String(decoding: record.bytes, as: UTF8.self)
        switch peer {
        case .rivesync:
            requestID += 1
            let path = paths[record.seq % paths.count]
            return Payload(text: #"{"type":"set","id":\#(requestID),"target":"\#(target)","path":"\#(path)","value":"\#(text)"}"#)
        case .mqtt:
            return Payload(bytes: MQTTFraming.publish(topic: "bench/\(writer)", payload: record.bytes), isText: false)
        case .yjs:
            defer { clock += 1 }
            let update = YjsFraming.mapSetUpdate(client: client, clock: clock, root: "bench", key: "w\(writer)", value: text)
            return Payload(bytes: YjsFraming.updateMessage(update), isText: false)
        case .mirror:
            return Payload(text: text)
        }
    }
}
