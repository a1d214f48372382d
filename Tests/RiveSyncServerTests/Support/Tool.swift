import Foundation

/// Runs a command-line tool to completion (with a hang guard) and collects its output.
enum Tool {
    struct Result {
        var status: Int32
        /// stdout and stderr together.
        var output: String
    }

    struct Missing: Error, CustomStringConvertible {
        var name: String
        var hint: String
        var description: String { "\(name) is not installed (\(hint))" }
    }

    /// The absolute path of `name` on PATH, or a `Missing` error with how to install it.
    static func find(_ name: String, hint: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        throw Missing(name: name, hint: hint)
    }

    /// Runs `executable` with `arguments`, feeding `input` on stdin; SIGKILL after `seconds`.
    static func run(_ executable: String, _ arguments: [String], input: String = "", seconds: Double = 60) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin
        try process.run()
        let deadline = DispatchTime.now() + seconds
        DispatchQueue.global().asyncAfter(deadline: deadline) { [process] in
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        DispatchQueue.global().async {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
