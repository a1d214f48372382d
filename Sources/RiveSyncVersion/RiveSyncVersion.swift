/// The release of RiveSync that this build is: one string for `rivesyncd --version`,
/// `rivesync --version`, the `welcome` message, `rivesync_build_info` and the Debian package
/// (`packaging/build-deb.sh` reads it from `rivesyncd --version`). Bump it with CHANGELOG.md.
public enum RiveSyncVersion {
    /// The release number, `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
