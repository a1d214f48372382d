import Foundation

/// Where a command writes: standard output for results, standard error for diagnostics.
public protocol Console {
    /// Writes results to standard output.
    mutating func write(_ text: String)
    /// Writes diagnostics to standard error.
    mutating func writeError(_ text: String)
}

/// The process's real standard output and standard error.
public struct StandardConsole: Console {
    public init() {}

    public mutating func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    public mutating func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
