import Foundation
import RiveSyncTestSupport
import XCTest

/// `rivesync who` against a demo daemon with members joined on raw sockets.
final class WhoCommandTests: DaemonCLITestCase {
    /// A connection that joined `target`'s presence with `state` (JSON text); it stays a member
    /// while the socket is open.
    func member(of target: String, key: String, state: String) throws -> RawSocket {
        let socket = try RawSocket.webSocket(port: daemon.port)
        try socket.send(text: #"{"type":"hello","id":1,"protocol":[1]}"#)
        _ = try socket.readMessage()
        try socket.send(text: #"{"type":"presenceJoin","id":2,"target":"\#(target)","key":"\#(key)","state":\#(state)}"#)
        let joined = String(decoding: try socket.readMessage(), as: UTF8.self)
        XCTAssertTrue(joined.contains(#""type":"presenceJoined""#), joined)
        return socket
    }

    func testWhoListsTheMembersAndTheirStates() throws {
        XCTAssertEqual(try rivesync("who", "character"), .init(status: 0, stdout: "(no members)\n", stderr: ""))
        XCTAssertEqual(
            try rivesync("who", "character", "--json"), .init(status: 0, stdout: #"{"target":"character","members":[]}"# + "\n", stderr: "")
        )
        let ana = try member(of: "character", key: "ana-key-0123456789", state: #"{"name":"Ana"}"#)
        let bo = try member(of: "character", key: "bo-key-0123456789ab", state: #"{"name":"Bo","cursor":[1,2]}"#)
        defer {
            ana.close()
            bo.close()
        }
        XCTAssertEqual(
            try rivesync("who", "character"),
            .init(status: 0, stdout: "p-1 {\"name\":\"Ana\"}\np-2 {\"name\":\"Bo\",\"cursor\":[1,2]}\n", stderr: ""))
        XCTAssertEqual(
            try rivesync("who", "character", "--json"),
            .init(
                status: 0,
                stdout:
                    #"{"target":"character","members":[{"member":"p-1","state":{"name":"Ana"}},{"member":"p-2","state":{"name":"Bo","cursor":[1,2]}}]}"#
                    + "\n", stderr: ""))
        let watched = try rivesync("who", "character", "--watch", "--count", "1")
        XCTAssertEqual(watched.status, 0, watched.stderr)
        XCTAssertTrue(
            watched.stdout.hasPrefix(#"{"members":[{"member":"p-1","state":{"name":"Ana"}},{"member":"p-2","#), watched.stdout)
        let missing = try rivesync("who", "nowhere")
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("nowhere"), missing.stderr)
    }
}
