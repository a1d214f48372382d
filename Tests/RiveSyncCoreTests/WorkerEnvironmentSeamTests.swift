import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// What the worker core asks of the daemon around it: its environment is the clock, values of
/// the configuration, which assets exist and SHA-256 (`WorkerEnvironment`; the double records
/// the calls). Everything else comes and goes as events and actions: send queues
/// (`sendQueues`), where files live (`filePlaced`), target names (`claimTarget` answered by
/// `targetClaimed`, `targetNames`); command numbers are its own (`CommandNumbering`).
@Suite struct WorkerEnvironmentSeamTests {
    static let alice = ConnectionID(1)
    static let bob = ConnectionID(2)

    @Test func theCommandPathAsksOnlyTheClock() throws {
        let driver = try WorkerDriver()
        driver.request(.subscribe(target: "room", paths: nil, cursor: nil), from: Self.bob)
        driver.request(.set(target: "room", path: "count", value: .number(1)), from: Self.alice)
        driver.request(.set(target: "room", path: "title", value: "Hi"), from: Self.alice)
        #expect(try WorkerDriver.types(driver.fire(.advance(target: "room")), to: Self.bob) == ["batch"])
        driver.request(.get(target: "room", path: "count"), from: Self.alice)
        // Bob lags, then drains and catches up.
        driver.shell.queued[Self.bob] = driver.environment.limits.maxSendQueueBytes
        driver.request(.set(target: "room", path: "count", value: .number(2)), from: Self.alice)
        driver.environment.clock += 200_000_000
        #expect(try WorkerDriver.types(driver.fire(.advance(target: "room")), to: Self.bob).isEmpty)
        driver.shell.queued[Self.bob] = 0
        driver.environment.clock += 20_000_000
        #expect(try WorkerDriver.types(driver.fire(.catchUpCheck), to: Self.bob) == ["snapshot"])
        driver.run(.closed(Self.bob))
        #expect(driver.environment.calls == ["now"], "no asset store, no digest: \(driver.environment.calls)")
    }

    @Test func aClientsNewTargetHasItsNameClaimedByTheShell() throws {
        let driver = try WorkerDriver()
        let request = StateMachineRequest(file: "demo", name: "stage", artboard: "Stage")
        let created = driver.request(.createStateMachine(request), from: Self.alice)
        let claims = created.compactMap { action -> String? in
            guard case .claimTarget(let name, let file, let limit, _) = action else { return nil }
            return "\(name) \(file) \(limit)"
        }
        #expect(claims == ["stage demo 10"], "a claim action, answered by the shell")
        #expect(try WorkerDriver.types(created, to: Self.alice) == ["target"])
        #expect(driver.directory.claimTarget("stage", file: "demo", limit: 10) == .taken, "the directory holds it")
        let again = driver.request(.createStateMachine(request), from: Self.alice)
        #expect(try WorkerDriver.messages(again, to: Self.alice).map { $0["code"] } == ["target_exists"])
    }

    @Test func namesTheCoreAppliesReachTheDirectoryAsActions() throws {
        let driver = try WorkerDriver()
        let instance = InstanceID(MockWorkerEnvironment.firstInstanceID)
        let others = driver.commitOthers(.publish(instance: instance, name: "hall"))
        #expect(Self.nameChanges(others) == [.claim("hall", file: "demo")], "another node's target")
        let deleted = driver.request(.deleteTarget(target: "hall"), from: Self.alice)
        #expect(Self.nameChanges(deleted) == [.retire("hall", file: "demo")])
        #expect(driver.directory.claimTarget("hall", file: "demo", limit: 10) == .claimed, "free again for its file")
    }

    @Test func whereAnInstanceLivesIsToldNotAsked() throws {
        let driver = try WorkerDriver()
        let other = InstanceID(2 << Placement.fileIDShift | 1)
        let publish = ClientRequest.publish(instance: other, name: "elsewhere")
        #expect(try WorkerDriver.messages(driver.request(publish, from: Self.alice), to: Self.alice).first?["code"] == "unknown_instance")
        driver.run(.filePlaced(name: "other", Placement.FileLocation(worker: 1, number: 2)))
        let wrong = try WorkerDriver.messages(driver.request(publish, from: Self.alice), to: Self.alice)
        #expect(wrong.first?["code"] == "wrong_worker", "the file was placed on worker 1")
        driver.run(.fileReleased(number: 2))
        #expect(try WorkerDriver.messages(driver.request(publish, from: Self.alice), to: Self.alice).first?["code"] == "unknown_instance")
    }

    static func nameChanges(_ actions: [WorkerAction]) -> [TargetNameChange] {
        actions.compactMap { action in
            guard case .targetNames(let change) = action else { return nil }
            return change
        }
    }
}
