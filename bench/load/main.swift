import Glibc

// bench-load: the load generator of bench/run.py (see Options.usage and bench/README.md).
signal(SIGPIPE, SIG_IGN)
do {
    let options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
    exit(options.createRooms ? try RoomSetup(options: options).run() : try LoadRun(options: options).run())
} catch let error as UsageError {
    printError("bench-load: \(error.message)\n\n\(Options.usage)")
    exit(2)
} catch {
    printError("bench-load: \(error)")
    exit(1)
}
