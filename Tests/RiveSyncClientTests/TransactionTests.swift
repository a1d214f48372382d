import XCTest

@testable import RiveSyncClient

/// `ViewModelInstance.transaction { … }` (PROTOCOL.md §16) against the demo daemon: the calls
/// apply in one batch (a second connection sees them together, with their author), and a
/// failing call applies nothing and is named by its index.
final class TransactionTests: ClientTestCase {
    func testAThemeSwitchAppliesInOneBatchWithItsAuthor() async throws {
        try startDemo()
        let worker = try await connect()
        let other = try await connect()
        let theme = try await worker.stateMachine(named: "character").globalInstance(named: "Theme")
        let (title, background) = (StringProperty(path: "name"), ColorProperty(path: "background"))
        let otherTheme = try await other.target(named: "character")
        // The starting point first, so the stream is registered before the transaction.
        var batches = otherTheme.batches(includingCurrent: true).makeAsyncIterator()
        let first = try await batches.next()
        XCTAssertEqual(first?.isResync, true)
        let receipt = try await theme.transaction { theme in
            theme.setValue(of: title, to: "Dark")
            theme.setValue(of: background, to: Color(0xFF12_1212))
        }
        XCTAssertEqual(receipt.commands.count, 2)
        try await within { try await otherTheme.waitForSeq(receipt.seq) }
        var seen: Batch?
        while seen == nil {
            guard let batch = try await batches.next() else { break }
            if batch.commands == receipt.commands { seen = batch }
        }
        let batch = try XCTUnwrap(seen, "no batch with the transaction's commands")
        let author = Batch.Author(client: name, token: nil)
        XCTAssertEqual(batch.authors, [author, author], "the worker's client name, no token (anonymous)")
        let value = try await theme.value(of: title)
        XCTAssertEqual(value, "Dark")
    }

    func testAFailingCallAppliesNothingAndIsNamed() async throws {
        try startDemo()
        let worker = try await connect()
        let theme = try await worker.stateMachine(named: "character").globalInstance(named: "Theme")
        do {
            try await theme.transaction { theme in
                theme.setValue(of: StringProperty(path: "name"), to: "Half")
                theme.fire(trigger: TriggerProperty(path: "background"))
            }
            XCTFail("a trigger call on a color applied")
        } catch let failure as TransactionFailure {
            XCTAssertEqual(failure.commandIndex, 1)
            XCTAssertTrue(failure.error is ViewModelInstanceError, "\(failure.error)")
        }
        let value = try await theme.value(of: StringProperty(path: "name"))
        XCTAssertEqual(value, "Light", "the first call did not apply")
    }
}
