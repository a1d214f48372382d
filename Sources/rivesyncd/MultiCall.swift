import Foundation
import RiveSyncCLI

/// One binary, two programs: the Debian package installs `rivesync` as a symbolic link to
/// `rivesyncd` (packaging/build-deb.sh), so that the Swift runtime and Foundation, which both
/// link statically, are shipped once. Called as `rivesync` (by the name it was started under),
/// this runs the command line and exits with its status; under any other name it returns and
/// the daemon starts.
func runTheCommandLineWhenCalledRivesync() {
    guard let name = CommandLine.arguments.first, URL(fileURLWithPath: name).lastPathComponent == "rivesync" else { return }
    var console: any Console = StandardConsole()
    exit(RiveSyncCommandLine.run(Array(CommandLine.arguments.dropFirst()), console: &console).rawValue)
}
