import RiveSyncCore
import RiveSyncModel
import RiveSyncTransport

/// The daemon's one `Placement` (where files and targets live; the rules are the core's),
/// shared by the dispatcher and the workers' shells: every access takes one short lock. The
/// workers' cores claim and change target names through actions (`claimTarget`,
/// `targetNames`) that their shells perform here.
final class Directory: Sendable {
    /// Instance ids of file number `n` start at `n << fileIDShift`, so an id names its file.
    static let fileIDShift = Placement.fileIDShift

    typealias FileLocation = Placement.FileLocation

    private let state = Locked(Placement())
    /// Tells every worker where a file was placed, or that its number was released, before the
    /// file's worker loads it (set once by the daemon, before any file is placed).
    private let placements = Locked<(@Sendable (WorkerEvent) -> Void)?>(nil)

    /// Where placements go from now on (the daemon, to every worker's queue).
    func tellPlacements(to deliver: @escaping @Sendable (WorkerEvent) -> Void) { placements.withLock { $0 = deliver } }

    private func tell(_ event: WorkerEvent) { placements.withLock { $0 }?(event) }

    /// Reserves a file name on a worker; nil when the name is taken.
    func reserveFile(_ name: String, worker: Int) -> FileLocation? {
        let location = state.withLock { $0.reserveFile(name, worker: worker) }
        if let location { tell(.filePlaced(name: name, location)) }
        return location
    }

    /// Registers a file restored from the state directory under its recorded number.
    func restoreFile(_ name: String, worker: Int, number: UInt64) -> Bool {
        guard state.withLock({ $0.restoreFile(name, worker: worker, number: number) }) else { return false }
        tell(.filePlaced(name: name, FileLocation(worker: worker, number: number)))
        return true
    }

    /// Forgets a reserved file whose load failed.
    func releaseFile(_ name: String) {
        let number = state.withLock { placement -> UInt64? in
            defer { placement.releaseFile(name) }
            return placement.file(name)?.number
        }
        if let number { tell(.fileReleased(number: number)) }
    }

    func file(_ name: String) -> FileLocation? { state.withLock { $0.file(name) } }

    /// File names in load order with their workers.
    func files() -> [(name: String, worker: Int)] { state.withLock { $0.fileList() } }

    /// The file an instance id belongs to.
    func file(of instance: InstanceID) -> (name: String, location: FileLocation)? { state.withLock { $0.file(of: instance) } }

    func claimTarget(_ name: String, file: String, limit: Int) -> TargetClaim {
        state.withLock { $0.claimTarget(name, file: file, limit: limit) }
    }

    /// Makes a change a worker asked for (`WorkerAction.targetNames`); false when a name the
    /// worker applied is held by a file of another worker (a restored state directory that
    /// holds one name twice).
    @discardableResult
    func apply(_ change: TargetNameChange) -> Bool {
        state.withLock { placement in
            switch change {
            case .claim(let name, let file): return placement.claimTarget(name, file: file)
            case .release(let name): placement.releaseTarget(name)
            case .retire(let name, let file): placement.retireTarget(name, file: file)
            case .rememberRetired(let names, let file): placement.rememberRetired(names, file: file)
            }
            return true
        }
    }

    func target(_ name: String) -> (file: String, worker: Int)? { state.withLock { $0.target(name) } }
}
