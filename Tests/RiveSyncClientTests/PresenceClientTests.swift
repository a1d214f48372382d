import XCTest

@testable import RiveSyncClient

/// `Worker.presence(of:)` against the real daemon (PROTOCOL.md §15): join, update, leave,
/// list, the member stream, typed errors, and a member that survives a reconnect.
final class PresenceClientTests: ClientTestCase {
    struct Cursor: Codable, Hashable {
        var name: String
        var x: Int?
    }

    /// Reads `stream` until a list satisfies `done`; returns it (hang-guarded).
    func members(
        _ stream: AsyncStream<[PresenceMember]>, until done: @escaping @Sendable ([PresenceMember]) -> Bool
    ) async throws -> [PresenceMember] {
        try await within {
            for await members in stream where done(members) { return members }
            throw WorkerError.disconnected
        }
    }

    func testASubscriberSeesMembersJoinUpdateAndLeave() async throws {
        try startDemo()
        let ana = try await connect().presence(of: "character")
        let bo = try await connect().presence(of: "character")
        let watcher = try await connect().presence(of: "character")
        let stream = try await watcher.members()
        let anaMember = try await ana.join(Cursor(name: "Ana"))
        let boMember = try await bo.join(Cursor(name: "Bo"))
        XCTAssertNotEqual(anaMember, boMember)
        let both = try await members(stream) { $0.count == 2 }
        XCTAssertEqual(both.map(\.member), [anaMember, boMember], "join order")
        try await ana.update(Cursor(name: "Ana", x: 12))
        try await bo.leave()
        let after = try await members(stream) { $0.count == 1 && $0.first?.stateJSON.contains("12") == true }
        XCTAssertEqual(try after.map { try $0.state(as: Cursor.self) }, [Cursor(name: "Ana", x: 12)])
        XCTAssertEqual(watcher.currentMembers, after)
        let listed = try await bo.list()
        XCTAssertEqual(listed, after, "the daemon's list agrees")
    }

    func testUpdatingWithoutJoiningIsNotJoinedAndAStateMustBeAnObject() async throws {
        try startDemo()
        let presence = try await connect().presence(of: "character")
        do {
            try await presence.update(Cursor(name: "nobody"))
            XCTFail("an update without a join was accepted")
        } catch let error as StateMachineError {
            XCTAssertEqual(error, .notJoined("character"))
        }
        do {
            try await presence.join("just a string")
            XCTFail("a state that is not an object was sent")
        } catch let error as StateMachineError {
            guard case .error = error else { return XCTFail("\(error)") }
        }
        do {
            try await connect().presence(of: "nowhere").join(Cursor(name: "x"))
            XCTFail("joined a target that does not exist")
        } catch let error as StateMachineError {
            XCTAssertEqual(error, .unknownTarget("nowhere"))
        }
    }

    func testAReconnectedClientResumesItsMember() async throws {
        try startDemo()
        let worker = try await connect()
        let ana = worker.presence(of: "character")
        let watcher = try await connect().presence(of: "character")
        let stream = try await watcher.members()
        let member = try await ana.join(Cursor(name: "Ana"))
        _ = try await members(stream) { $0.map(\.member) == [member] }
        await worker.dropConnection(holdingReconnect: true)
        await worker.releaseReconnect()
        try await ana.update(Cursor(name: "Ana", x: 1))
        let moved = try await members(stream) { $0.first?.stateJSON.contains("1") == true }
        XCTAssertEqual(moved.map(\.member), [member], "the same member, not a new one")
        let listed = try await watcher.list()
        XCTAssertEqual(listed.map(\.member), [member])
    }
}
