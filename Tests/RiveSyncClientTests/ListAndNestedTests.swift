import XCTest

@testable import RiveSyncClient

/// List edits and nested replacement on the demo's `lobby`, seen by a second connection.
final class ListAndNestedTests: ClientTestCase {
    func testListEditsInRivesOrder() async throws {
        try startDemo()
        let worker = try await connect()
        let other = try await connect()
        let file = try await File(source: .name("demo"), worker: worker)
        let lobby = try await worker.stateMachine(named: "lobby").mainInstance()
        let players = ListProperty(path: "players")
        let initialSize = try await lobby.size(of: players)
        XCTAssertEqual(initialSize, 0)

        let newInstance = try await file.createViewModelInstance(.viewModelDefault(from: .name("Player")))
        try await lobby.confirmed.appendInstance(newInstance, to: players)
        let insertedInstance = try await file.createViewModelInstance(.blank(from: .name("Player")))
        try await lobby.confirmed.insertInstance(insertedInstance, to: players, at: 0)
        try await assertEqualAsync(try await Self.ids(lobby, players), [insertedInstance.instanceID, newInstance.instanceID])
        try await lobby.confirmed.swapInstance(atIndex: 0, withIndex: 1, in: players)
        try await assertEqualAsync(try await Self.ids(lobby, players), [newInstance.instanceID, insertedInstance.instanceID])

        try await newInstance.confirmed.setValue(of: StringProperty(path: "name"), to: "Ada")
        let receipt = try await lobby.confirmed.setValue(of: NumberProperty(path: "players/1/x"), to: 7)
        let otherLobby = try await other.target(named: "lobby")
        try await within { try await otherLobby.waitForSeq(receipt.seq) }
        let seenName = try await otherLobby.value(at: "players/0/name").value
        let seenX = try await otherLobby.value(at: "players/1/x").value
        XCTAssertEqual(seenName, .string("Ada"))
        XCTAssertEqual(seenX, .number(7))

        try await lobby.confirmed.removeInstance(at: 1, from: players)
        let first = try await lobby.confirmed.value(of: players, at: 0)
        XCTAssertEqual(first, newInstance)
        try await lobby.confirmed.removeInstance(newInstance, from: players)
        let finalSize = try await lobby.size(of: players)
        XCTAssertEqual(finalSize, 0)
        do {
            _ = try await lobby.confirmed.value(of: players, at: 0)
            XCTFail("empty list")
        } catch ViewModelInstanceError.indexOutOfRange(let path, let index, let count) {
            XCTAssertEqual([path, "\(index)", "\(count)"], ["players", "0", "0"])
        }
        do {
            try await lobby.confirmed.removeInstance(at: 3, from: players)
            XCTFail("index out of range")
        } catch ViewModelInstanceError.indexOutOfRange(let path, let index, let count) {
            XCTAssertEqual([path, "\(index)", "\(count)"], ["players", "3", "0"])
        }
    }

    func testNestedReadAndReplacement() async throws {
        try startDemo()
        let worker = try await connect()
        let other = try await connect()
        let file = try await File(source: .name("demo"), worker: worker)
        let lobby = try await worker.stateMachine(named: "lobby").mainInstance()
        let hostProperty = ViewModelInstanceProperty(path: "host")
        let host = try await lobby.confirmed.value(of: hostProperty)
        let hostName = try await host.value(of: StringProperty(path: "name"))
        XCTAssertEqual(hostName, "Guest")
        try await host.confirmed.setValue(of: StringProperty(path: "name"), to: "Welcome")
        let byPath = try await lobby.value(of: StringProperty(path: "host/name"))
        XCTAssertEqual(byPath, "Welcome")

        let otherHostNames = try await other.target(named: "lobby").valueStream(at: "host/name", includingCurrent: true)
        try await assertEqualAsync(try await first(1, of: otherHostNames), [.string("Welcome")])

        let replacement = try await file.createViewModelInstance(.name("Guest", from: .name("Player")))
        try await replacement.confirmed.setValue(of: StringProperty(path: "name"), to: "Replacement")
        try await lobby.confirmed.setValue(of: hostProperty, to: replacement)
        let newHost = try await lobby.confirmed.value(of: hostProperty)
        XCTAssertEqual(newHost, replacement)
        XCTAssertNotEqual(newHost, host)
        let newName = try await lobby.value(of: StringProperty(path: "host/name"))
        XCTAssertEqual(newName, "Replacement")
        let theme = try await file.createViewModelInstance(.viewModelDefault(from: .name("Theme")))
        do {
            try await lobby.confirmed.setValue(of: hostProperty, to: theme)
            XCTFail("a Theme is not a Player")
        } catch ViewModelInstanceError.incompatibleInstance(let path, let expected, let actual) {
            XCTAssertEqual([path, expected, actual], ["host", "Player", "Theme"])
        }
    }

    private static func ids(_ instance: ViewModelInstance, _ list: ListProperty) async throws -> [UInt64] {
        var ids: [UInt64] = []
        for index in 0..<Int32(try await instance.size(of: list)) {
            ids.append(try await instance.confirmed.value(of: list, at: index).instanceID)
        }
        return ids
    }
}

/// `XCTAssertEqual` for values computed with `await`.
func assertEqualAsync<T: Equatable>(
    _ value: @autoclosure () async throws -> T, _ expected: T, _ message: String = "", file: StaticString = #filePath,
    line: UInt = #line
) async throws {
    let actual = try await value()
    XCTAssertEqual(actual, expected, message, file: file, line: line)
}
