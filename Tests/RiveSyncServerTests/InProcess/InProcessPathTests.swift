import RiveSyncCore
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncModel
import Testing

@testable import RiveSyncServer

/// A request's path is parsed when the request is decoded and resolved once, when its command
/// is checked; the command carries where it led into the record and applying uses it while the
/// state is unchanged (issue 26 item 5). Escaped names, nested view models, list items and
/// globals reach the same properties, and bad paths get the same errors, as before.
@Suite struct InProcessPathTests {
    static let schema: JSONValue = [
        "rivesyncSchema": 1,
        "viewModels": [
            [
                "name": "Look/Feel", "global": true, "properties": [["name": "tone~1", "type": "string"]],
                "instances": [["name": "Default", "values": ["tone~1": "warm"]]],
            ],
            ["name": "Part", "properties": [["name": "x/y", "type": "number"]]],
            [
                "name": "Panel",
                "properties": [
                    ["name": "BG On/Off", "type": "boolean"], ["name": "a~b", "type": "number"],
                    ["name": "Sub/Part", "type": "viewModel", "viewModel": "Part"], ["name": "items/all", "type": "list"],
                ],
            ],
        ],
        "artboards": [["name": "Main", "viewModel": "Panel", "stateMachines": ["sm"]]],
    ]

    /// A daemon with the schema loaded as `paths` and a manual state machine `panel` on it, two
    /// `Part`s in its list; its worker's log is kept.
    static func panel() async throws -> (InProcessDaemon, MemoryChangeLog, InProcessClient, [JSONValue]) {
        let (daemon, log) = try InProcessWorkerTests.daemon()
        let client = try await InProcessWorkerTests.greeted(daemon)
        let loaded = try await client.request(["type": "loadFile", "name": "paths", "schema": Self.schema])
        try #require(loaded["type"] == "files", "\(loaded.jsonText)")
        let made = try await client.request([
            "type": "createStateMachine", "file": "paths", "name": "panel", "artboard": "Main", "mode": "manual",
        ])
        try #require(made["type"] == "target", "\(made.jsonText)")
        var parts: [JSONValue] = []
        for _ in 0..<2 {
            let part = try await client.request(["type": "createInstance", "file": "paths", "source": ["blank": ["viewModel": "Part"]]])
            parts.append(try #require(part["instance"], "\(part.jsonText)"))
            client.send(["type": "listAppend", "target": "panel", "path": "items~1all", "instance": parts.last!])
        }
        try await InProcessWorkerTests.advance("panel", client, acks: 2)
        return (daemon, log, client, parts)
    }

    static func get(_ path: String, _ client: InProcessClient, target: String = "panel") async throws -> JSONValue {
        try await client.request(["type": "get", "target": .string(target), "path": .string(path)])
    }

    @Test func escapedNestedListedAndGlobalPathsAreSetAndRead() async throws {
        let (_, _, client, _) = try await Self.panel()
        let writes: [(String, JSONValue)] = [
            ("BG On~1Off", true), ("a~0b", 3), ("Sub~1Part/x~1y", 4), ("items~1all/1/x~1y", 5), ("@Look~1Feel/tone~01", "cool"),
        ]
        for (path, value) in writes {
            client.send(["type": "set", "target": "panel", "path": .string(path), "value": value])
        }
        try await InProcessWorkerTests.advance("panel", client, acks: writes.count)
        for (path, value) in writes {
            let read = try await Self.get(path, client)
            #expect(read["value"] == value && read["path"] == .string(path), "\(path): \(read.jsonText)")
        }
        let other = try await Self.get("items~1all/0/x~1y", client)
        #expect(other["value"] == 0, "the other item is untouched: \(other.jsonText)")
    }

    @Test func theDemosGlobalThemeIsSetThroughTheCharactersSlot() async throws {
        let (daemon, _) = try InProcessWorkerTests.daemon()
        let client = try await InProcessWorkerTests.greeted(daemon)
        let set = try await client.request(["type": "set", "target": "character", "path": "@Theme/mode", "value": "dark"])
        #expect(set["type"] == "ack", "\(set.jsonText)")
        let read = try await Self.get("mode", client, target: "theme")
        #expect(read["value"] == "dark", "the published instance bound as @Theme: \(read.jsonText)")
    }

    /// Each bad path gets, from `set` and `get` alike, the model's error for it and its wire
    /// code, with the path where resolution stopped.
    @Test func badPathsGetTheirErrorAndCode() async throws {
        let (_, _, client, _) = try await Self.panel()
        let cases: [(path: String, code: String, at: JSONValue)] = [
            ("a//b", "invalid_path", "a//b"), ("a~2b", "invalid_path", "a~2b"), ("", "invalid_path", ""),
            ("nothing", "no_such_property", "nothing"), ("BG On/Off", "no_such_property", "BG On"),
            ("items~1all/7/x~1y", "index_out_of_range", "items~1all"), ("items~1all/first/x~1y", "type_mismatch", "items~1all/first"),
            ("a~0b/deeper", "type_mismatch", "a~0b"), ("items~1all", "type_mismatch", "items~1all"),
            ("@Nope/x", "no_such_slot", "@Nope"), ("#999999/x~1y", "unknown_instance", .null),
        ]
        for (path, code, at) in cases {
            let set = try await client.request(["type": "set", "target": "panel", "path": .string(path), "value": 1])
            #expect(set["type"] == "error" && set["code"] == .string(code), "set \(path): \(set.jsonText)")
            #expect(set["details"]?["path"] == (at.isNull ? nil : at), "set \(path): \(set.jsonText)")
            guard path != "items~1all" else { continue }  // a list reads, and is not set
            let get = try await Self.get(path, client)
            #expect(get["code"] == .string(code), "get \(path): \(get.jsonText)")
        }
    }

    /// The record of the advance carries where each set's path led, resolved when the set was
    /// checked; a set queued behind a swap is applied where the swap left its path, not where
    /// it led when it was checked.
    @Test func aSetCarriesItsResolutionAndIsResolvedAgainOnlyAfterAChange() async throws {
        let (daemon, log, client, parts) = try await Self.panel()
        client.send(["type": "set", "target": "panel", "path": "items~1all/0/x~1y", "value": 1])
        client.send(["type": "listSwap", "target": "panel", "path": "items~1all", "index": 0, "with": 1])
        client.send(["type": "set", "target": "panel", "path": "items~1all/0/x~1y", "value": 2])
        try await InProcessWorkerTests.advance("panel", client, acks: 3)
        let worker = daemon.daemon.workers[0]
        let record = try #require(worker.host.sync { log.records["paths"]?.last })
        guard case .advance(_, let commands, _) = record else {
            Issue.record("the last record is not the advance: \(record)")
            return
        }
        let first = try #require(parts[0].intValue.map { InstanceID(UInt64($0)) })
        #expect(commands.map { $0.resolved?.instance } == [first, nil, first], "both sets resolved when checked, at item 0")
        #expect(commands.compactMap { $0.resolved?.property.name } == ["x/y", "x/y"])
        let swapped = try await Self.get("items~1all/0/x~1y", client)
        let moved = try await Self.get("items~1all/1/x~1y", client)
        #expect(swapped["value"] == 2 && moved["value"] == 1, "\(swapped.jsonText) \(moved.jsonText)")
    }

    /// A transaction's sets are resolved in its trial, each after the commands before it: the
    /// ones that still hold when it applies are kept (a property of the main instance), the
    /// others resolved again (an item behind the transaction's own swap).
    @Test func aTransactionsSetsLeadWhereTheCommandsBeforeThemLeftThem() async throws {
        let (_, _, client, _) = try await Self.panel()
        client.send([
            "type": "transaction", "target": "panel",
            "commands": [
                ["type": "set", "path": "items~1all/0/x~1y", "value": 1], ["type": "set", "path": "a~0b", "value": 2],
                ["type": "listSwap", "path": "items~1all", "index": 0, "with": 1],
                ["type": "set", "path": "items~1all/0/x~1y", "value": 3], ["type": "set", "path": "BG On~1Off", "value": true],
            ],
        ])
        try await InProcessWorkerTests.advance("panel", client, acks: 1)
        let expected: [(String, JSONValue)] = [("items~1all/0/x~1y", 3), ("items~1all/1/x~1y", 1), ("a~0b", 2), ("BG On~1Off", true)]
        for (path, value) in expected {
            let read = try await Self.get(path, client)
            #expect(read["value"] == value, "\(path): \(read.jsonText)")
        }
    }

    /// Any command checked against the applied state has its path resolved once, there, and
    /// carries it (a list append); one queued behind another is checked when it applies.
    @Test func aListCommandCheckedAtOnceCarriesItsResolution() async throws {
        let (daemon, log, _, _) = try await Self.panel()
        let record = try #require(daemon.daemon.workers[0].host.sync { log.records["paths"]?.last })
        guard case .advance(_, let commands, _) = record else {
            Issue.record("the last record is not the advance: \(record)")
            return
        }
        #expect(commands.map { $0.resolved?.property.name } == ["items/all", nil], "\(commands)")
        #expect(commands.first?.resolved?.isDirect == true)
    }
}
