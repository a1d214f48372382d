import Foundation
import Testing

/// The core is pure: no Foundation, Dispatch, Glibc or transport import anywhere in it, so it
/// cannot read a clock, a file or a socket (issue 11: the core/shell cut).
@Suite struct CorePurityTests {
    static let forbidden = [
        "Foundation", "FoundationEssentials", "Dispatch", "Glibc", "Musl", "Darwin", "RiveSyncTransport", "CWebSockets",
    ]

    @Test func theCoreImportsNothingWithIO() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let core = root.appendingPathComponent("Sources/RiveSyncCore").path
        let files = try FileManager.default.subpathsOfDirectory(atPath: core).filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 5, "the core's sources are where this test looks: \(core)")
        for file in files {
            let text = try String(contentsOfFile: core + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { continue }
                let module = words[at + 1]
                #expect(!Self.forbidden.contains(module), "\(file): \(line)")
            }
        }
    }
}
