import RiveSyncCore
import RiveSyncModel
import RiveSyncTransport

/// Where files and targets live: which worker owns each file, which file each target belongs
/// to. Shared by the dispatcher and the workers; every access takes one short lock.
final class Directory: TargetDirectory {
    /// Instance ids of file number `n` start at `n << fileIDShift`, so an id names its file.
    static let fileIDShift: UInt64 = 40

    struct FileLocation: Sendable {
        var worker: Int
        var number: UInt64
    }

    private struct State {
        var files: [String: FileLocation] = [:]
        var fileOrder: [String] = []
        var fileNames: [UInt64: String] = [:]
        var targets: [String: String] = [:]
        /// Names of deleted targets → their file, the only one that may use the name again.
        var retiredTargets: [String: String] = [:]
        var nextFileNumber: UInt64 = 1
    }

    private let state = Locked(State())

    /// Reserves a file name on a worker; nil when the name is taken.
    func reserveFile(_ name: String, worker: Int) -> FileLocation? {
        state.withLock { state in
            guard state.files[name] == nil else { return nil }
            let location = FileLocation(worker: worker, number: state.nextFileNumber)
            state.nextFileNumber += 1
            state.files[name] = location
            state.fileOrder.append(name)
            state.fileNames[location.number] = name
            return location
        }
    }

    /// Registers a file restored from the state directory under its recorded number.
    func restoreFile(_ name: String, worker: Int, number: UInt64) -> Bool {
        state.withLock { state in
            guard state.files[name] == nil, state.fileNames[number] == nil else { return false }
            state.files[name] = FileLocation(worker: worker, number: number)
            state.fileOrder.append(name)
            state.fileNames[number] = name
            state.nextFileNumber = max(state.nextFileNumber, number + 1)
            return true
        }
    }

    /// Forgets a reserved file whose load failed.
    func releaseFile(_ name: String) {
        state.withLock { state in
            guard let location = state.files.removeValue(forKey: name) else { return }
            state.fileOrder.removeAll { $0 == name }
            state.fileNames[location.number] = nil
        }
    }

    func file(_ name: String) -> FileLocation? { state.withLock { $0.files[name] } }

    /// File names in load order with their workers.
    func files() -> [(name: String, worker: Int)] {
        state.withLock { state in state.fileOrder.map { ($0, state.files[$0]!.worker) } }
    }

    /// The file an instance id belongs to.
    func file(of instance: InstanceID) -> (name: String, location: FileLocation)? {
        state.withLock { state in
            guard let name = state.fileNames[instance.rawValue >> Self.fileIDShift], let location = state.files[name] else { return nil }
            return (name, location)
        }
    }

    /// The file an instance id belongs to, and its worker.
    func owner(of instance: InstanceID) -> (name: String, worker: Int)? {
        file(of: instance).map { ($0.name, $0.location.worker) }
    }

    /// Claims a target name for a file; false when taken, or when it was the name of a
    /// deleted target of another file (each file's journal then holds every generation of a
    /// name, so replaying the files one by one never finds it taken).
    func claimTarget(_ name: String, file: String) -> Bool {
        state.withLock { state in
            guard state.targets[name] == nil, (state.retiredTargets[name] ?? file) == file else { return false }
            state.targets[name] = file
            return true
        }
    }

    /// Claims a target name for a client's request: like `claimTarget(_:file:)`, and only
    /// while fewer than `limit` targets exist (`maxTargets`; configured and restored targets
    /// count, and are never refused).
    func claimTarget(_ name: String, file: String, limit: Int) -> TargetClaim {
        state.withLock { state in
            guard state.targets[name] == nil, (state.retiredTargets[name] ?? file) == file else { return .taken }
            guard state.targets.count < limit else { return .full }
            state.targets[name] = file
            return .claimed
        }
    }

    /// Records names a restored file's deleted targets had (their claims were never made).
    func rememberRetired(_ names: [String], file: String) {
        state.withLock { state in
            for name in names { state.retiredTargets[name] = file }
        }
    }

    /// Frees a deleted target's name for its file.
    func retireTarget(_ name: String, file: String) {
        state.withLock { state in
            state.targets[name] = nil
            state.retiredTargets[name] = file
        }
    }

    /// Gives a claimed target name back (its creation failed).
    func releaseTarget(_ name: String) {
        state.withLock { _ = $0.targets.removeValue(forKey: name) }
    }

    /// Number of targets in the daemon.
    var targetCount: Int { state.withLock { $0.targets.count } }

    /// The file and worker of a target.
    func target(_ name: String) -> (file: String, worker: Int)? {
        state.withLock { state in
            guard let file = state.targets[name], let location = state.files[file] else { return nil }
            return (file, location.worker)
        }
    }
}
