import RiveSyncCore
import RiveSyncTransport

/// The daemon's one `Placement` (where files and targets live; the rules are the core's),
/// shared by the workers' shells and the dispatcher's background work: every access takes one
/// short lock. The workers' cores claim and change target names through actions
/// (`claimTarget`, `targetNames`) that their shells perform here. Each dispatcher core keeps a
/// copy: every change is handed to every follower under the lock, so in the order made and
/// before the reply of the worker that made it.
final class Directory: Sendable {
    /// Instance ids of file number `n` start at `n << fileIDShift`, so an id names its file.
    static let fileIDShift = Placement.fileIDShift

    typealias FileLocation = Placement.FileLocation

    private let state = Locked(Placement())
    /// Tells every worker where a file was placed, or that its number was released, before the
    /// file's worker loads it (set once by the daemon, before any file is placed).
    private let placements = Locked<(@Sendable (WorkerEvent) -> Void)?>(nil)
    /// Where every change goes, under the lock (each dispatcher, to its queue).
    private let followers = Locked<[@Sendable (PlacementChange) -> Void]>([])

    /// Where placements go from now on (the daemon, to every worker's queue).
    func tellPlacements(to deliver: @escaping @Sendable (WorkerEvent) -> Void) { placements.withLock { $0 = deliver } }

    private func tell(_ event: WorkerEvent) { placements.withLock { $0 }?(event) }

    /// Hands every change from now on to `deliver` (as well as to the followers before it),
    /// which must not block (it runs under the lock); returns the placement as it is now, the
    /// one the changes apply to.
    func follow(_ deliver: @escaping @Sendable (PlacementChange) -> Void) -> Placement {
        state.withLock { placement in
            followers.withLock { $0.append(deliver) }
            return placement
        }
    }

    /// Changes the placement, and tells the followers what `change` returns (nil: nothing changed).
    private func change<Result>(_ body: (inout Placement) -> (Result, PlacementChange?)) -> Result {
        state.withLock { placement in
            let (result, change) = body(&placement)
            if let change { for deliver in followers.withLock({ $0 }) { deliver(change) } }
            return result
        }
    }

    /// Reserves a file name on a worker; nil when the name is taken.
    func reserveFile(_ name: String, worker: Int) -> FileLocation? {
        let location = change { placement in
            let location = placement.reserveFile(name, worker: worker)
            return (location, location.map { .filePlaced(name: name, $0) })
        }
        if let location { tell(.filePlaced(name: name, location)) }
        return location
    }

    /// Registers a file restored from the state directory under its recorded number.
    func restoreFile(_ name: String, worker: Int, number: UInt64) -> Bool {
        let restored = change { placement in
            let restored = placement.restoreFile(name, worker: worker, number: number)
            return (restored, restored ? .filePlaced(name: name, FileLocation(worker: worker, number: number)) : nil)
        }
        guard restored else { return false }
        tell(.filePlaced(name: name, FileLocation(worker: worker, number: number)))
        return true
    }

    /// Forgets a reserved file whose load failed.
    func releaseFile(_ name: String) {
        let number = change { placement -> (UInt64?, PlacementChange?) in
            guard let number = placement.file(name)?.number else { return (nil, nil) }
            placement.releaseFile(name)
            return (number, .fileReleased(name: name))
        }
        if let number { tell(.fileReleased(number: number)) }
    }

    func file(_ name: String) -> FileLocation? { state.withLock { $0.file(name) } }

    /// Every target's file, by target name.
    func targetFiles() -> [String: String] { state.withLock { $0.targetFiles } }

    /// The number of every placed file.
    func fileNumbers() -> [UInt64] {
        state.withLock { placement in placement.fileList().compactMap { placement.file($0.name)?.number } }
    }

    func claimTarget(_ name: String, file: String, limit: Int) -> TargetClaim {
        change { placement in
            let claim = placement.claimTarget(name, file: file, limit: limit)
            return (claim, claim == .claimed ? .targetNames(.claim(name, file: file)) : nil)
        }
    }

    /// Makes a change a worker asked for (`WorkerAction.targetNames`); false when a name the
    /// worker applied is held by a file of another worker (a restored state directory that
    /// holds one name twice).
    @discardableResult
    func apply(_ change: TargetNameChange) -> Bool {
        self.change { placement in
            let made = placement.apply(change)
            return (made, made ? .targetNames(change) : nil)
        }
    }

    func target(_ name: String) -> (file: String, worker: Int)? { state.withLock { $0.target(name) } }
}
