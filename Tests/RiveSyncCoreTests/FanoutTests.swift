import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// The fan-out of one batch as a pure plan: whole-target subscribers share the caller's one
/// frame, each distinct set of paths gets one filtered frame for all its subscribers, paths
/// that see nothing get nothing, and subscribers over half their queue lag.
@Suite struct FanoutTests {
    static let mood = Effect(paths: ["mood"], change: .set(instance: InstanceID(1), property: "mood", value: .number(4), introduced: []))
    static let title = Effect(
        paths: ["title"], change: .set(instance: InstanceID(1), property: "title", value: .string("hi"), introduced: []))
    static let batch = ChangeBatch(target: "room", seq: 3, effects: [mood, title], applied: [7], rejected: [])

    static func subscriber(_ id: UInt64, _ paths: [String]? = nil) -> Fanout.Subscriber {
        Fanout.Subscriber(connection: ConnectionID(id), paths: paths)
    }

    static let openings = ServerMessage.TargetOpenings(target: "room", epoch: "e-1")

    @Test func eachDistinctSetOfPathsIsEncodedOnce() throws {
        let subscribers = [
            Self.subscriber(1), Self.subscriber(2, ["mood"]), Self.subscriber(3), Self.subscriber(4, ["mood"]),
            Self.subscriber(5, ["title"]), Self.subscriber(6, ["nothing"]),
        ]
        let audience = Fanout.Audience(subscribers)
        #expect(audience.byPaths.map(\.paths) == [["mood"], ["title"], ["nothing"]], "in the order first given")
        let plan = Fanout.plan(Self.batch, openings: Self.openings, to: audience)
        #expect(plan.wholeTarget == [ConnectionID(1), ConnectionID(3)])
        #expect(plan.filtered.map(\.1) == [[ConnectionID(2), ConnectionID(4)], [ConnectionID(5)]], "nothing for 'nothing'")
        let mood = try JSONParser().parse(plan.filtered[0].0.bytes)
        #expect(mood["type"] == "batch" && mood["target"] == "room" && mood["epoch"] == "e-1" && mood["seq"] == 3)
        #expect(mood["effects"]?.arrayValue?.count == 1)
        #expect(mood["effects"]?.arrayValue?.first?["property"] == "mood" && mood["commands"] == [7])
        #expect(plan.lagging.isEmpty)
    }

    @Test func subscribersOverHalfTheirQueueLag() {
        let subscribers = [Self.subscriber(1), Self.subscriber(2, ["mood"]), Self.subscriber(3)]
        var asked: [ConnectionID] = []
        let audience = Fanout.Audience(subscribers) { connection in
            asked.append(connection)
            return Backlog.lags(
                queuedBytes: connection == ConnectionID(1) || connection == ConnectionID(2) ? 513 : 512, maxSendQueueBytes: 1024)
        }
        #expect(asked == [ConnectionID(1), ConnectionID(2), ConnectionID(3)])
        let plan = Fanout.plan(Self.batch, openings: Self.openings, to: audience)
        #expect(plan.lagging == [ConnectionID(1), ConnectionID(2)])
        #expect(plan.wholeTarget == [ConnectionID(3)] && plan.filtered.isEmpty)
    }
}
