import XCTest

@testable import RiveSyncClient

/// A bad path or a wrong type fails at once: reads, writes and streams (Rive's streams hang).
final class BadPathTests: ClientTestCase {
    func testBadPathsFailFast() async throws {
        try startDemo()
        let worker = try await connect()
        let character = try await worker.stateMachine(named: "character").mainInstance()

        do {
            for try await _ in character.valueStream(of: NumberProperty(path: "mod")) { XCTFail("no value expected") }
            XCTFail("the stream must throw")
        } catch ViewModelInstanceError.noSuchProperty(let path) {
            XCTAssertEqual(path, "mod")
        }
        do {
            for try await _ in character.stream(of: TriggerProperty(path: "mood")) { XCTFail("no fire expected") }
            XCTFail("the stream must throw")
        } catch ViewModelInstanceError.valueMismatch(let expected, let actual) {
            XCTAssertEqual([expected, actual], ["trigger", "number"])
        }
        await assertThrowsAsync(ViewModelInstanceError.noSuchProperty(path: "mod")) {
            _ = try await character.value(of: NumberProperty(path: "mod"))
        }
        // A write names the property's type as expected and the value's as actual, wherever it
        // is checked (here or in the daemon).
        await assertThrowsAsync(ViewModelInstanceError.valueMismatch("number", "string")) {
            try await character.confirmed.setValue(of: StringProperty(path: "mood"), to: "happy")
        }
        await assertThrowsAsync(ViewModelInstanceError.invalidPath("mood//x")) {
            _ = try await character.value(of: NumberProperty(path: "mood//x"))
        }
        let theme = try await worker.publishedInstance(named: "theme")
        await assertThrowsAsync(ViewModelInstanceError.invalidEnumValue(path: "mode", value: "sepia", allowed: ["light", "dark"])) {
            try await theme.confirmed.setValue(of: EnumProperty(path: "mode"), to: "sepia")
        }
        await assertThrowsAsync(ViewModelInstanceError.invalidValue(path: "mood", reason: "numbers must be finite 32-bit floats")) {
            try await character.confirmed.setValue(of: NumberProperty(path: "mood"), to: .infinity)
        }
        do {
            for try await _ in try await worker.target(named: "lobby").valueStream(at: "players/3/x") { XCTFail("no value expected") }
            XCTFail("the stream must throw")
        } catch ViewModelInstanceError.indexOutOfRange(let path, let index, let count) {
            XCTAssertEqual([path, "\(index)", "\(count)"], ["players", "3", "0"])
        }
        await assertThrowsAsync(StateMachineError.unknownTarget("nobody")) { _ = try await worker.stateMachine(named: "nobody") }
    }
}
