import RiveSyncModel

/// Where files and targets live, as a value: which worker owns each file and the file's
/// number (its instance ids start at `number << fileIDShift`, so an id names its file), which
/// file each target belongs to, and the names deleted targets had. The rules (names unique in
/// the daemon, a retired name only for its own file, `maxTargets` for clients' requests) are
/// here. The daemon keeps its one placement behind a lock (its `Directory`, which the
/// workers' shells change for their cores), the dispatcher core a copy kept by the
/// directory's changes (`PlacementChange`), and each worker core one of its own files' target
/// names (`WorkerCore.names`).
public struct Placement: Sendable {
    /// Instance ids of file number `n` start at `n << fileIDShift`.
    public static let fileIDShift: UInt64 = 40

    /// A file's worker and number.
    public struct FileLocation: Sendable, Equatable {
        public var worker: Int
        public var number: UInt64

        public init(worker: Int, number: UInt64) {
            self.worker = worker
            self.number = number
        }
    }

    /// A claimed target's file, and that file's worker once the file is placed (a name may be
    /// claimed before its file is, and a worker's own `names` place no files at all): routing
    /// a request finds its target's worker with one hash of the target's name, not a second
    /// one of its file's.
    private struct TargetPlace {
        var file: String
        var worker: Int?
    }

    private var files: [String: FileLocation] = [:]
    private var fileOrder: [String] = []
    private var fileNames: [UInt64: String] = [:]
    private var targets: [String: TargetPlace] = [:]
    /// Names of deleted targets → their file, the only one that may use the name again.
    private var retiredTargets: [String: String] = [:]
    private var nextFileNumber: UInt64 = 1

    public init() {}

    // MARK: Files

    /// Reserves a file name on a worker under the next number; nil when the name is taken.
    public mutating func reserveFile(_ name: String, worker: Int) -> FileLocation? {
        guard files[name] == nil else { return nil }
        let location = FileLocation(worker: worker, number: nextFileNumber)
        nextFileNumber += 1
        add(name, at: location)
        return location
    }

    /// Places a file restored from its log under its recorded number; false when the name or
    /// the number is taken.
    public mutating func restoreFile(_ name: String, worker: Int, number: UInt64) -> Bool {
        guard files[name] == nil, fileNames[number] == nil else { return false }
        add(name, at: FileLocation(worker: worker, number: number))
        nextFileNumber = max(nextFileNumber, number + 1)
        return true
    }

    private mutating func add(_ name: String, at location: FileLocation) {
        files[name] = location
        fileOrder.append(name)
        fileNames[location.number] = name
        placeTargets(of: name, on: location.worker)
    }

    /// Forgets a reserved file whose load failed.
    public mutating func releaseFile(_ name: String) {
        guard let location = files.removeValue(forKey: name) else { return }
        fileOrder.removeAll { $0 == name }
        fileNames[location.number] = nil
        placeTargets(of: name, on: nil)
    }

    /// Notes the worker of a file's claimed targets (nil: the file is gone). Files come and go
    /// rarely (loads), targets are routed on every request.
    private mutating func placeTargets(of file: String, on worker: Int?) {
        var index = targets.startIndex
        while index != targets.endIndex {
            if targets.values[index].file == file { targets.values[index].worker = worker }
            targets.formIndex(after: &index)
        }
    }

    /// Where a file lives.
    public func file(_ name: String) -> FileLocation? { files[name] }

    /// File names in load order with their workers.
    public func fileList() -> [(name: String, worker: Int)] { fileOrder.map { ($0, files[$0]!.worker) } }

    /// The file an instance id belongs to.
    public func file(of instance: InstanceID) -> (name: String, location: FileLocation)? {
        guard let name = fileNames[instance.rawValue >> Self.fileIDShift], let location = files[name] else { return nil }
        return (name, location)
    }

    // MARK: Targets

    /// Claims a target name for a file; false when taken, or when it was the name of a
    /// deleted target of another file (each file's log then holds every generation of a name,
    /// so replaying the files one by one never finds it taken).
    public mutating func claimTarget(_ name: String, file: String) -> Bool {
        guard targets[name] == nil, (retiredTargets[name] ?? file) == file else { return false }
        targets[name] = TargetPlace(file: file, worker: files[file]?.worker)
        return true
    }

    /// Claims a target name for a client's request: like `claimTarget(_:file:)`, and only
    /// while fewer than `limit` targets exist (`maxTargets`; configured and restored targets
    /// count, and are never refused).
    public mutating func claimTarget(_ name: String, file: String, limit: Int) -> TargetClaim {
        guard targets[name] == nil, (retiredTargets[name] ?? file) == file else { return .taken }
        guard targets.count < limit else { return .full }
        targets[name] = TargetPlace(file: file, worker: files[file]?.worker)
        return .claimed
    }

    /// Records names a restored file's deleted targets had (their claims were never made).
    public mutating func rememberRetired(_ names: [String], file: String) {
        for name in names { retiredTargets[name] = file }
    }

    /// Frees a deleted target's name for its file.
    public mutating func retireTarget(_ name: String, file: String) {
        targets[name] = nil
        retiredTargets[name] = file
    }

    /// Gives a claimed target name back (its creation failed).
    public mutating func releaseTarget(_ name: String) { targets[name] = nil }

    /// Number of targets in the daemon.
    public var targetCount: Int { targets.count }

    /// Every target's file, by target name.
    public var targetFiles: [String: String] { targets.mapValues(\.file) }

    /// The file and worker of a target (nil too while its file is not placed).
    public func target(_ name: String) -> (file: String, worker: Int)? {
        guard let place = targets[name], let worker = place.worker else { return nil }
        return (place.file, worker)
    }
}
