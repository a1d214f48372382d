import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// Transactions and authors in the worker core (PROTOCOL.md §16, §17), with the mock clock
/// and the in-memory log: queued as one unit with consecutive numbers and acked with all of
/// them, refused whole with the failing index, replayed alike from the log; authors recorded
/// per command unless `authors` is off.
@Suite struct WorkerTransactionTests {
    static let alice = ConnectionID(1)
    static let author = Author(client: "suite/1", token: "qa")

    static func transaction(_ commands: [ClientRequest]) -> ClientRequest {
        .transaction(TransactionRequest(target: "room", commands: commands))
    }

    static func request(_ driver: WorkerDriver, _ body: ClientRequest, id: Int) -> [WorkerAction] {
        driver.run(
            .request(alice, Request(id: .number(Double(id)), body: body), sender: RequestSender(grants: AllGrants(), author: author)))
    }

    @Test func aTransactionIsQueuedAsOneUnitAndAckedWithEveryNumber() throws {
        let driver = try WorkerDriver()
        _ = driver.request(.subscribe(target: "room", paths: nil, cursor: nil), from: Self.alice)
        let queued = Self.request(
            driver,
            Self.transaction([
                .set(target: "room", path: "title", value: "Dark"), .set(target: "room", path: "count", value: 3),
                .set(target: "room", path: "count", value: 4),
            ]), id: 1)
        #expect(try WorkerDriver.types(queued, to: Self.alice).isEmpty, "the ack waits for the advance")
        let numbers = try #require(driver.core.targets["room"]?.queued.map(\.id))
        #expect(numbers.count == 3 && numbers == Array(numbers[0]...numbers[0] + 2), "consecutive numbers")
        #expect(driver.core.targets["room"]?.queued.allSatisfy { $0.transaction == numbers[0] && $0.author == Self.author } == true)
        let messages = try WorkerDriver.messages(driver.fire(.advance(target: "room")), to: Self.alice)
        #expect(messages.map { $0["type"] } == ["batch", "ack"])
        #expect(messages[0]["commands"] == .array(numbers.map { .number(Double($0)) }))
        #expect(messages[0]["authors"] == .array(Array(repeating: ["client": "suite/1", "token": "qa"], count: 3)))
        #expect(messages[1]["command"] == .number(Double(numbers[0])) && messages[1]["commands"] == messages[0]["commands"])
    }

    @Test func theFirstBadCommandRefusesTheWholeTransaction() throws {
        let driver = try WorkerDriver()
        let refused = try WorkerDriver.messages(
            Self.request(
                driver,
                Self.transaction([
                    .set(target: "room", path: "title", value: "Dark"), .set(target: "room", path: "count", value: "four"),
                    .set(target: "room", path: "nope", value: 1),
                ]), id: 2), to: Self.alice)
        #expect(refused.map { $0["code"] } == ["type_mismatch"], "\(refused.map(\.jsonText))")
        #expect(refused.first?["details"]?["commandIndex"] == 1)
        #expect(driver.core.targets["room"]?.queued.isEmpty == true, "nothing queued")
        #expect(try driver.core.files["demo"]!.value(at: "title", in: "room") == .string(""), "the trial left nothing behind")
    }

    @Test func aReplayAppliesTransactionsAndAuthorsAlike() throws {
        let driver = try WorkerDriver()
        _ = Self.request(
            driver,
            Self.transaction([.set(target: "room", path: "title", value: "Dark"), .set(target: "room", path: "count", value: 2)]), id: 3)
        _ = driver.fire(.advance(target: "room"))
        let records = try #require(driver.log.records["demo"])
        #expect(records.contains { if case .advance(_, let commands, _) = $0 { commands.count == 2 } else { false } })
        let replica = try WorkerDriver(publish: false)
        _ = try replica.core.restore(
            WorkerDriver.schema, as: "demo", firstInstanceID: MockWorkerEnvironment.firstInstanceID, snapshot: nil,
            records: records.enumerated().map { (line: $0.offset + 1, record: $0.element) })
        let original = try #require(try driver.history(of: "room").last)
        let replayed = try #require(try replica.history(of: "room").last)
        #expect(replayed == original && replayed.authors.dictionary.values.allSatisfy { $0 == Self.author } && replayed.authors.count == 2)
    }

    @Test func authorsOffRecordsNone() throws {
        let driver = try WorkerDriver()
        driver.configure { $0.recordsAuthors = false }
        _ = driver.request(.subscribe(target: "room", paths: nil, cursor: nil), from: Self.alice)
        _ = Self.request(driver, .set(target: "room", path: "count", value: 1), id: 4)
        #expect(driver.core.targets["room"]?.queued.first?.author == nil)
        let batch = try #require(try WorkerDriver.messages(driver.fire(.advance(target: "room")), to: Self.alice).first)
        #expect(batch["type"] == "batch" && batch["authors"] == nil, "\(batch.jsonText)")
    }
}
