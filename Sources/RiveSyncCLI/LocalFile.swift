import RiveSyncToolSupport

/// Files on this machine that a command reads: a `.riv` or schema, a script, a token, a CA
/// bundle. A file that cannot be read is a failure (exit 1) that names it once with the OS's
/// reason: `x.riv: no such file (ENOENT)`.
enum LocalFile {
    /// Files larger than this are refused before reading (no real `.riv` comes close).
    static let maxBytes = 256 << 20

    /// The bytes of the file at `path`.
    static func bytes(_ path: String) throws(CommandError) -> [UInt8] {
        do { return try FileContents.bytes(atPath: path, maxBytes: maxBytes) } catch { throw .failure("\(path): \(error)") }
    }
}
