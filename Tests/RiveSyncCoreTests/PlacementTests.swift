import RiveSyncCore
import RiveSyncModel
import Testing

/// Where files and targets live (`Placement`), as a value: file numbers and the instance ids
/// they name, unique target names, retired names, `maxTargets`.
@Suite struct PlacementTests {
    @Test func filesAreNumberedInLoadOrderAndTheirInstanceIDsNameThem() {
        var placement = Placement()
        let demo = placement.reserveFile("demo", worker: 1)
        #expect(demo == Placement.FileLocation(worker: 1, number: 1))
        let again = placement.reserveFile("demo", worker: 0)
        #expect(again == nil, "a name is reserved once")
        let old = placement.restoreFile("old", worker: 0, number: 7)
        let sameNumber = placement.restoreFile("other", worker: 0, number: 7)
        #expect(old && !sameNumber, "a number is taken once")
        let next = placement.reserveFile("next", worker: 0)
        #expect(next?.number == 8, "numbers go on above restored ones")
        #expect(placement.file(of: InstanceID(7 << Placement.fileIDShift | 3))?.name == "old")
        #expect(placement.file(of: InstanceID(9 << Placement.fileIDShift | 1)) == nil)
        placement.releaseFile("next")
        #expect(placement.fileList().map(\.name) == ["demo", "old"])
    }

    @Test func aTargetNameIsUniqueAndARetiredNameComesBackOnlyToItsFile() {
        var placement = Placement()
        _ = placement.reserveFile("a", worker: 0)
        _ = placement.reserveFile("b", worker: 1)
        let first = placement.claimTarget("room", file: "a")
        let taken = placement.claimTarget("room", file: "b")
        #expect(first && !taken)
        #expect(placement.target("room")?.file == "a" && placement.target("room")?.worker == 0)
        placement.retireTarget("room", file: "a")
        #expect(placement.target("room") == nil)
        let otherFile = placement.claimTarget("room", file: "b")
        let ownFile = placement.claimTarget("room", file: "a")
        #expect(!otherFile, "retired by another file")
        #expect(ownFile, "back to its own file")
        placement.rememberRetired(["hall"], file: "b")
        let hall = placement.claimTarget("hall", file: "a", limit: 10)
        #expect(hall == .taken)
    }

    @Test func aClientsClaimStopsAtTheLimitAndAReleasedNameIsFreeAgain() {
        var placement = Placement()
        let one = placement.claimTarget("one", file: "a", limit: 2)
        let two = placement.claimTarget("two", file: "a")
        let three = placement.claimTarget("three", file: "a", limit: 2)
        #expect(one == .claimed && two, "the configuration's claims are never refused")
        #expect(three == .full)
        placement.releaseTarget("two")
        #expect(placement.targetCount == 1)
        let again = placement.claimTarget("three", file: "a", limit: 2)
        #expect(again == .claimed)
    }

    /// A target's worker is kept with its name (routing hashes the name once): a name claimed
    /// before its file is placed is routed once the file is, and nowhere once the file is
    /// released; the target keeps its file throughout.
    @Test func aTargetIsRoutedOnlyWhileItsFileIsPlaced() {
        var placement = Placement()
        let early = placement.claimTarget("room", file: "scene")
        #expect(early)
        #expect(placement.target("room") == nil, "its file is not placed yet")
        _ = placement.reserveFile("other", worker: 0)
        _ = placement.reserveFile("scene", worker: 1)
        #expect(placement.target("room")?.file == "scene" && placement.target("room")?.worker == 1)
        let late = placement.claimTarget("hall", file: "scene")
        #expect(late && placement.target("hall")?.worker == 1)
        placement.releaseFile("scene")
        #expect(placement.target("room") == nil && placement.target("hall") == nil)
        #expect(placement.targetFiles == ["room": "scene", "hall": "scene"], "the names stay claimed")
        let restored = placement.restoreFile("scene", worker: 0, number: 9)
        #expect(restored && placement.target("room")?.worker == 0)
    }
}
