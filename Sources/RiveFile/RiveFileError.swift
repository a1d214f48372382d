import RiveSyncModel

/// Why a `.riv` file could not be read.
///
/// Every failure of `RiveFileReader` is one of these cases; none of them is ever a crash.
/// Offsets are byte positions in the input.
public enum RiveFileError: Error, Sendable, Hashable {
    /// The data does not start with the magic bytes `RIVE`.
    case notRiv
    /// The header names a major version other than 7 (the only one Rive's runtime reads).
    case unsupportedVersion(major: UInt64, minor: UInt64)
    /// The data ends in the middle of something (`what` names it).
    case truncated(offset: Int, what: String)
    /// A property key that neither the file's table of contents nor the built-in table types,
    /// so its value cannot be skipped.
    case unknownPropertyKey(key: UInt64, offset: Int)
    /// Something no valid file holds: a varuint past 64 bits, a key past 16 bits, an absurd
    /// length.
    case invalid(offset: Int, reason: String)
}

extension RiveFileError: CustomStringConvertible {
    /// A one-line message for logs and command-line errors.
    public var description: String {
        switch self {
        case .notRiv:
            return "not a Rive file (missing RIVE magic)"
        case .unsupportedVersion(let major, let minor):
            return "unsupported .riv version \(major).\(minor) (only major version 7 is supported)"
        case .truncated(let offset, let what):
            return "truncated .riv file: \(what) at byte \(offset) runs past the end"
        case .unknownPropertyKey(let key, let offset):
            return "malformed .riv file: property key \(key) at byte \(offset) has no known type"
        case .invalid(let offset, let reason):
            return "malformed .riv file at byte \(offset): \(reason)"
        }
    }

    /// The same failure as the core's `FileError.invalidFile`, for callers that report those.
    public var fileError: FileError { .invalidFile(description) }
}
