import Foundation

/// The shell blocks of a Markdown document and what their `docs-test` markers say
/// (docs/DOCS-TESTS.md): a ```sh, ```bash or ```console block runs as written, after the
/// marker on the last non-blank line before it.
struct DocsBlock: Equatable {
    /// What the marker before a block asks for.
    enum Marker: Equatable {
        /// Start `rivesyncd` with these arguments, then run the block against it.
        case daemon([String])
        /// Do not run the block; the reason is printed.
        case skip(String)
        /// Run the block without a daemon.
        case plain
        /// The line before the block is no marker, or a marker this parser does not know.
        case missing(String)
    }

    /// The 1-based line of the opening fence.
    var line: Int
    /// `sh`, `bash` or `console`.
    var language: String
    var marker: Marker
    /// The block's text, as written; for `console`, its `$ ` lines without the prompt.
    var script: String

    /// The shell that runs the block.
    var shell: String { language == "bash" ? "/bin/bash" : "/bin/sh" }

    /// The fence languages whose blocks run.
    static let languages: Set<String> = ["sh", "bash", "console"]

    /// Every shell block of `markdown`, in order.
    static func blocks(in markdown: String) -> [DocsBlock] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [DocsBlock] = []
        var index = 0
        var lastText = ""
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("```") else {
                if !line.trimmingCharacters(in: .whitespaces).isEmpty { lastText = line }
                index += 1
                continue
            }
            let language = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            let opening = index
            index += 1
            var body: [String] = []
            while index < lines.count, !lines[index].hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            index += 1
            if languages.contains(language) {
                let script =
                    language == "console"
                    ? body.filter { $0.hasPrefix("$ ") }.map { String($0.dropFirst(2)) } : body
                blocks.append(
                    DocsBlock(
                        line: opening + 1, language: language, marker: marker(lastText),
                        script: script.joined(separator: "\n") + "\n"))
            }
            lastText = ""
        }
        return blocks
    }

    /// The marker `line` holds.
    static func marker(_ line: String) -> Marker {
        let text = line.trimmingCharacters(in: .whitespaces)
        let prefix = "<!-- docs-test:"
        guard text.hasPrefix(prefix), text.hasSuffix("-->") else { return .missing(text) }
        let words = text.dropFirst(prefix.count).dropLast(3).split(separator: " ").map(String.init)
        switch words.first {
        case "daemon": return .daemon(Array(words.dropFirst()))
        case "skip" where words.count > 1: return .skip(words.dropFirst().joined(separator: " "))
        case "plain" where words.count == 1: return .plain
        default: return .missing(text)
        }
    }
}
