/// The release of RiveSync, one place for every binary: `rivesyncd --version`, `rivesync
/// --version` and the daemon's `welcome` (`server: "rivesyncd/<version>"`).
public enum RiveSyncVersion {
    /// The version string, `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
