/// One change the daemon's directory made to where files and targets live, as a copy of the
/// placement (the dispatcher core's) is told it: applied in the order the directory made
/// them, the copy stays the directory's.
public enum PlacementChange: Sendable, Equatable {
    /// A file was reserved or restored on a worker under a number.
    case filePlaced(name: String, Placement.FileLocation)
    /// A reserved file's load failed: its name and number are free again.
    case fileReleased(name: String)
    /// A target name was claimed, released or retired (a claim is recorded only once made).
    case targetNames(TargetNameChange)
}

extension Placement {
    /// Makes a change the daemon's directory made.
    public mutating func apply(_ change: PlacementChange) {
        switch change {
        case .filePlaced(let name, let location): _ = restoreFile(name, worker: location.worker, number: location.number)
        case .fileReleased(let name): releaseFile(name)
        case .targetNames(let change): apply(change)
        }
    }

    /// Makes a target name change; false when a claimed name is held by another file.
    @discardableResult
    public mutating func apply(_ change: TargetNameChange) -> Bool {
        switch change {
        case .claim(let name, let file): return claimTarget(name, file: file)
        case .release(let name): releaseTarget(name)
        case .retire(let name, let file): retireTarget(name, file: file)
        case .rememberRetired(let names, let file): rememberRetired(names, file: file)
        }
        return true
    }
}
