import Foundation
import RiveSyncCLI

var console: any Console = StandardConsole()
exit(RiveSyncCommandLine.run(Array(CommandLine.arguments.dropFirst()), console: &console).rawValue)
