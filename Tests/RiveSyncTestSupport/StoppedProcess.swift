import Foundation

/// Stops a process with `SIGSTOP` and waits until every one of its threads is stopped
/// (`/proc/PID/task/*/stat` state `T`). `kill` returns before that: the kernel wakes one
/// thread to carry out the stop, and until it runs the others go on, so a request sent right
/// after `kill` can still be served by a process that is "frozen".
public func stopProcess(_ pid: pid_t) async throws {
    kill(pid, SIGSTOP)
    try await waitUntil("every thread of process \(pid) stopped") { allThreadsStopped(pid) }
}

/// True when every thread of `pid` is in state `T` (stopped by a signal).
func allThreadsStopped(_ pid: pid_t) -> Bool {
    let tasks = "/proc/\(pid)/task"
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks), !threads.isEmpty else { return false }
    return threads.allSatisfy { thread in
        guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        // After "pid (comm) ": the state letter.
        return stat[stat.index(after: end)...].dropFirst().first == "T"
    }
}
