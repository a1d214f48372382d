import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// A `createInstance` that publishes holds its target name from the request on: a taken name
/// or a full daemon fails before the instance is made, and nothing takes the name before the
/// publish.
@Suite struct WorkerTargetNameTests {
    static let alice = ConnectionID(1)

    static func create(publishing name: String) -> ClientRequest {
        .createInstance(file: "demo", source: .blank(from: .name("Room")), publish: name)
    }

    static func appends(_ actions: [WorkerAction]) -> Int {
        actions.filter { if case .append = $0 { true } else { false } }.count
    }

    @Test func aTakenNameFailsBeforeTheInstanceIsMade() throws {
        let driver = try WorkerDriver()
        let taken = driver.request(Self.create(publishing: "room"), from: Self.alice)
        #expect(try WorkerDriver.messages(taken, to: Self.alice).map { $0["code"] } == ["target_exists"])
        #expect(Self.appends(taken) == 0, "nothing proposed")
        let made = driver.request(Self.create(publishing: "hall"), from: Self.alice)
        #expect(try WorkerDriver.types(made, to: Self.alice) == ["instance"])
        #expect(Self.appends(made) == 2, "the instance, then its publish")
        #expect(driver.core.targets["hall"] != nil)
    }

    @Test func aFullDaemonFailsBeforeTheInstanceIsMadeAndTheNameIsNotKept() throws {
        let driver = try WorkerDriver()
        driver.environment.limits.maxTargets = 1
        let full = driver.request(Self.create(publishing: "hall"), from: Self.alice)
        #expect(try WorkerDriver.messages(full, to: Self.alice).map { $0["code"] } == ["limit_exceeded"])
        #expect(Self.appends(full) == 0)
        driver.environment.limits.maxTargets = 2
        #expect(try WorkerDriver.types(driver.request(Self.create(publishing: "hall"), from: Self.alice), to: Self.alice) == ["instance"])
    }
}
