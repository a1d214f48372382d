import XCTest

@testable import RiveSyncClient

/// State machine creation and binding: Rive's error cases, nothing applied on failure.
final class BindingErrorTests: ClientTestCase {
    func testGlobalsBindingErrorsArriveAsRivesEnumCases() async throws {
        try startDemo()
        let worker = try await connect()
        let file = try await File(source: .name("demo"), worker: worker)
        let artboard = try await file.createArtboard("Character")
        let main = try await file.createViewModelInstance(.viewModelDefault(from: .artboardDefault(artboard)))
        let light = try await file.createViewModelInstance(.name("Light", from: .name("Theme")))
        let dark = try await file.createViewModelInstance(.name("Dark", from: .name("Theme")))

        await assertThrowsAsync(StateMachineError.invalidGlobalViewModelName("Player")) {
            _ = try await artboard.createStateMachine(binding: main) { ("Player", light) }
        }
        await assertThrowsAsync(StateMachineError.duplicateGlobalViewModelInstance("Theme")) {
            _ = try await artboard.createStateMachine(binding: main) {
                ("Theme", light)
                ("Theme", dark)
            }
        }
        await assertThrowsAsync(ArtboardError.invalidStateMachine("nope")) {
            _ = try await artboard.createStateMachine("nope", binding: main)
        }
        await assertThrowsAsync(FileError.invalidArtboard("Nope")) { _ = try await file.createArtboard("Nope") }
        await assertThrowsAsync(StateMachineError.targetExists("character")) {
            _ = try await artboard.createStateMachine(binding: main, targetName: "character")
        }

        let useDark = true
        let machine = try await artboard.createStateMachine(binding: main) {
            if useDark { ("Theme", dark) } else { ("Theme", light) }
        }
        let boundTheme = try await machine.globalInstance(named: "Theme")
        XCTAssertEqual(boundTheme, dark)
        try await assertEqualAsync(try await machine.mainInstance(), main)

        await assertThrowsAsync(StateMachineError.invalidGlobalViewModelName("Lobby")) {
            try await machine.bindViewModelInstances(main: main) {
                ("Theme", light)
                ("Lobby", light)
            }
        }
        let unchanged = try await machine.globalInstance(named: "Theme")
        XCTAssertEqual(unchanged, dark, "a rejected call leaves the bindings as they were")
        await assertThrowsAsync(StateMachineError.incompatibleInstance(slot: "main", expected: "Character", actual: "Theme")) {
            try await machine.bindViewModelInstances(main: light)
        }

        let background = ColorProperty(path: "background")
        try await machine.bindViewModelInstances { ("Theme", light) }
        let rebound = try await machine.globalInstance(named: "Theme")
        XCTAssertEqual(rebound, light)
        let lightBackground = try await rebound.value(of: background)
        XCTAssertEqual(lightBackground, Color(0xFFFF_FFFF))
        await assertThrowsAsync(StateMachineError.notManual(machine.name)) { try await machine.advance() }
    }

    func testManualStateMachineAppliesOnAdvance() async throws {
        try startDemo()
        let worker = try await connect()
        let file = try await File(source: .name("demo"), worker: worker)
        let artboard = try await file.createArtboard("Character")
        let main = try await file.createViewModelInstance(.name("Loading", from: .name("Character")))
        let machine = try await artboard.createStateMachine(binding: main, targetName: "manual-character", manual: true)
        let mood = NumberProperty(path: "mood")
        let before = try await main.value(of: mood)
        XCTAssertEqual(before, 5)
        async let receipt = main.confirmed.setValue(of: mood, to: 8)
        let target = try await worker.target(named: "manual-character")
        var advancedSeq: UInt64 = 0
        while advancedSeq == 0 { advancedSeq = try await machine.advance().seq }
        let applied = try await receipt
        XCTAssertEqual(applied.seq, advancedSeq)
        let seq = try await target.seq()
        XCTAssertEqual(seq, advancedSeq)
        let after = try await main.value(of: mood)
        XCTAssertEqual(after, 8)
    }
}

/// Asserts that `body` throws exactly `expected`.
func assertThrowsAsync<E: Error & Equatable>(
    _ expected: E, file: StaticString = #filePath, line: UInt = #line, _ body: () async throws -> Void
) async {
    do {
        try await body()
        XCTFail("expected \(expected), nothing was thrown", file: file, line: line)
    } catch let error as E {
        XCTAssertEqual(error, expected, file: file, line: line)
    } catch {
        XCTFail("expected \(expected), got \(error)", file: file, line: line)
    }
}
