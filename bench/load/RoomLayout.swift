/// Which room each connection of a `--rooms` process is in, and what it writes: connection i
/// is client `i % clientsPerRoom` of room `firstRoom + i / clientsPerRoom`. Each client writes
/// its own property, so no two clients' updates can coalesce in an advance.
struct RoomLayout: Sendable {
    let firstRoom: Int
    let rooms: Int
    let clientsPerRoom: Int

    /// The target name of room `room`.
    static func name(_ room: Int) -> String { "room-\(room)" }

    /// `path` with the room's hint added to its query (`?target=NAME`, protocol/PROTOCOL.md §2;
    /// room names need no percent-encoding).
    static func hinted(_ path: String, room: String) -> String {
        path + (path.contains("?") ? "&" : "?") + "target=" + room
    }

    /// The property client `client` of a room writes (`rooms.schema.json` has `client0`…`client7`).
    static func property(_ client: Int) -> String { "client\(client)" }

    /// The room target that connection `index` subscribes to and writes to.
    func target(ofConnection index: Int) -> String { Self.name(firstRoom + index / clientsPerRoom) }

    /// The encoder of connection `index`'s updates: its records carry the client's index in
    /// the room as their writer, so every subscriber of a room checks its 8 writers' sequences.
    func encoder(ofConnection index: Int, processID: Int) -> UpdateEncoder {
        let client = index % clientsPerRoom
        return UpdateEncoder(
            peer: .rivesync, writer: client, paths: [Self.property(client)], target: target(ofConnection: index), processID: processID)
    }
}
