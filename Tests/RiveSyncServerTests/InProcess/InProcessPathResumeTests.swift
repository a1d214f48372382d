import RiveSyncCore
import RiveSyncInProcess
import RiveSyncJSON
import Testing

@testable import RiveSyncServer

/// A target keeps each batch as its frame and reads the batch back only for a resume with
/// paths: that resume replays exactly the batches a subscriber to the same paths received
/// live — nested replacements and list items with their introduced states cut to the paths,
/// sets of an instance freed since, with authors recorded or not.
@Suite struct InProcessPathResumeTests {
    static let schema: JSONValue = [
        "rivesyncSchema": 1,
        "viewModels": [
            ["name": "Part", "properties": [["name": "x", "type": "number"], ["name": "label", "type": "string"]]],
            [
                "name": "Panel",
                "properties": [
                    ["name": "count", "type": "number"], ["name": "sub", "type": "viewModel", "viewModel": "Part"],
                    ["name": "items", "type": "list"],
                ],
            ],
        ],
        "artboards": [["name": "Main", "viewModel": "Panel", "stateMachines": ["sm"]]],
    ]

    static let pathSets: [[String]] = [
        ["count"], ["count", "sub"], ["count", "sub/x"], ["count", "items"], ["count", "items/1/x", "sub/x"], ["count", "items/1/label"],
        ["count", "sub/label", "items/0/x"],
    ]

    @Test(arguments: pathSets, [true, false])
    func aResumeWithPathsReplaysWhatALiveSubscriberReceived(paths: [String], authors: Bool) async throws {
        var configuration = DaemonConfiguration.demo()
        configuration.authors = authors
        let (daemon, _) = try InProcessWorkerTests.daemon(configuration: configuration)
        let writer = try await InProcessWorkerTests.greeted(daemon)
        let loaded = try await writer.request(["type": "loadFile", "name": "parts", "schema": Self.schema])
        try #require(loaded["type"] == "files", "\(loaded.jsonText)")
        let made = try await writer.request([
            "type": "createStateMachine", "file": "parts", "name": "panel", "artboard": "Main", "mode": "manual",
        ])
        try #require(made["type"] == "target", "\(made.jsonText)")
        func part() async throws -> JSONValue {
            let made = try await writer.request(["type": "createInstance", "file": "parts", "source": ["blank": ["viewModel": "Part"]]])
            return try #require(made["instance"], "\(made.jsonText)")
        }
        func commit(_ commands: [JSONValue]) async throws {
            for command in commands { writer.send(command) }
            try await InProcessWorkerTests.advance("panel", writer, acks: commands.count)
        }
        func set(_ path: String, _ value: JSONValue) -> JSONValue {
            ["type": "set", "target": "panel", "path": .string(path), "value": value]
        }
        func list(_ op: String, _ index: Int, _ item: JSONValue) -> JSONValue {
            ["type": .string(op), "target": "panel", "path": "items", "index": .number(Double(index)), "instance": item]
        }

        // Two list items before the subscriptions (the paths must resolve).
        let items = [try await part(), try await part()]
        try await commit(items.map { ["type": "listAppend", "target": "panel", "path": "items", "instance": $0] })
        let live = try await InProcessWorkerTests.greeted(daemon)
        let start = try await live.request(["type": "subscribe", "target": "panel", "paths": .array(paths.map { .string($0) })])
        let epoch = try #require(start["epoch"], "\(start.jsonText)")
        let from = try #require(start["seq"], "\(start.jsonText)")

        // A nested replacement (its state introduced), sets under it, a list item inserted
        // (introduced) and set.
        let first = try await part()
        try await commit([set("sub", ["instance": first]), set("count", 1)])
        try await commit([set("sub/x", 3), set("sub/label", "one"), list("listInsert", 1, try await part())])
        try await commit([set("items/1/x", 5), set("items/1/label", "middle"), set("items/0/x", 2), set("count", 2)])
        // An instance the panel held for a while, then freed with the target that held it.
        let held = try await part()
        let published = try await writer.request(["type": "publish", "instance": held, "name": "holder"])
        try #require(published["type"] != "error", "\(published.jsonText)")
        try await commit([set("sub", ["instance": held])])
        try await commit([set("sub/x", 8), set("sub/label", "held"), set("count", 3)])
        try await commit([set("sub", ["instance": first])])
        let deleted = try await writer.request(["type": "deleteTarget", "target": "holder"])
        try #require(deleted["type"] != "error", "\(deleted.jsonText)")
        // A list item removed and the list reordered.
        try await commit([["type": "listSwap", "target": "panel", "path": "items", "index": 0, "with": 2], set("count", 4)])
        try await commit([["type": "listRemoveAt", "target": "panel", "path": "items", "index": 1], set("count", 55)])

        let last = try await writer.request(["type": "get", "target": "panel", "path": "count"])
        try #require(last["value"] == 55, "\(last.jsonText)")
        var received: [JSONValue] = []
        while received.last?["effects"]?.arrayValue?.contains(where: { $0["value"] == 55 }) != true {
            received.append(try await live.nextBatch("panel"))
        }

        let resuming = try await InProcessWorkerTests.greeted(daemon)
        let resumed = try await resuming.request([
            "type": "subscribe", "target": "panel", "paths": .array(paths.map { .string($0) }),
            "cursor": ["epoch": epoch, "seq": from],
        ])
        try #require(resumed["type"] == "subscribed" && resumed["resumed"] == true, "\(resumed.jsonText)")
        var replayed: [JSONValue] = []
        for _ in received { replayed.append(try await resuming.nextBatch("panel")) }
        #expect(replayed.map(\.jsonText) == received.map(\.jsonText))
        #expect(resuming.takeAll { _ in true }.isEmpty, "nothing more")
        #expect(received.contains { $0["authors"] != nil } == authors)
    }
}
