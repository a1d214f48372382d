import Foundation
import RiveSyncTestSupport
import XCTest

/// Writes a generated completion script to a temporary file named after `program` and `shell`;
/// returns its path.
func completionScriptFile(_ text: String, program: String, shell: String) throws -> String {
    let path = NSTemporaryDirectory() + "\(program)-completion-\(getpid())-\(shell)"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

/// What bash's completion function for `words[0]` (`_rivesync`, `_rivesyncd`) offers for the
/// words typed so far, the last one being completed, run in `directory`.
func bashCompletes(_ words: [String], script: String, in directory: String = "/") throws -> [String] {
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let program = """
        cd '\(directory)' && . '\(script)' && COMP_WORDS=(\(quoted)) && COMP_CWORD=\(words.count - 1) || exit 2
        _\(words[0])
        printf '%s\\n' "${COMPREPLY[@]}"
        """
    let result = try ChildProcess.run("/bin/bash", ["-c", program], seconds: 30)
    XCTAssertEqual(result.status, 0, result.stderr)
    return result.stdout.split(separator: "\n").map(String.init).sorted()
}
