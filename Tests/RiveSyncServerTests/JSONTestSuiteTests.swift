import Dispatch
import Foundation
import RiveSyncJSON
import RiveSyncProtocol
import RiveSyncServer
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

/// nst/JSONTestSuite (`../shared/fixtures/JSONTestSuite/`, read in place) through the daemon's
/// decoding path for one incoming message: `JSONParser` with the default `Limits`, then
/// `Request.decode`. Every `y_` file is accepted, every `n_` file rejected except the documented
/// deviations (protocol/JSON-CONFORMANCE.md), and no file (`i_` and `test_transform/` included)
/// crashes or hangs.
@Suite struct JSONTestSuiteTests {
    static let root = DaemonProcess.packageRoot + "/../shared/fixtures/JSONTestSuite"

    /// `n_` files the protocol's parser accepts, each explained in protocol/JSON-CONFORMANCE.md.
    /// Kept exact: a deviation that disappears fails the test too, so the document stays true.
    static let acceptedInvalid: Set<String> = []

    /// What the decoding path made of one file.
    enum Verdict: Equatable {
        case accepted
        case rejected
    }

    /// Parses and decodes like `Dispatcher` does for one text message.
    static func decode(_ bytes: [UInt8]) -> Verdict {
        let limits = Limits()
        // A parse error is the verdict being tested (the suite's n_ files must be rejected).
        guard let json = try? JSONParser(maxDepth: limits.maxJSONDepth, maxBytes: limits.maxMessageBytes).parse(bytes) else {
            return .rejected
        }
        _ = Request.decode(json)
        return .accepted
    }

    /// The files of one suite directory.
    static func files(_ directory: String) throws -> [(name: String, bytes: [UInt8])] {
        let path = root + "/" + directory
        let names = try FileManager.default.contentsOfDirectory(atPath: path)
        return try names.sorted().map { name in
            (name, [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))))
        }
    }

    /// Runs `decode` over `files` on another thread; nil if it did not finish within the hang guard.
    static func verdicts(_ files: [(name: String, bytes: [UInt8])]) async -> [String: Verdict]? {
        await withCheckedContinuation { continuation in
            let result = Locked<[String: Verdict]?>(nil)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                var verdicts: [String: Verdict] = [:]
                for file in files { verdicts[file.name] = decode(file.bytes) }
                result.withLock { $0 = verdicts }
                done.signal()
            }
            DispatchQueue.global().async {
                _ = done.wait(timeout: .now() + 120)
                continuation.resume(returning: result.withLock { $0 })
            }
        }
    }

    @Test func parsingCasesGetTheirVerdicts() async throws {
        let files = try Self.files("test_parsing")
        #expect(files.count >= 318)
        let verdicts = try #require(await Self.verdicts(files), "decoding hung (hang guard: 120 s)")
        var acceptedInvalid: Set<String> = []
        for (name, verdict) in verdicts.sorted(by: { $0.key < $1.key }) {
            if name.hasPrefix("y_") {
                #expect(verdict == .accepted, "\(name) must be accepted")
            } else if name.hasPrefix("n_"), verdict == .accepted {
                acceptedInvalid.insert(name)
            }
        }
        #expect(acceptedInvalid == Self.acceptedInvalid, "n_ files accepted, compared with the documented deviations")
    }

    @Test func transformCasesNeitherCrashNorHang() async throws {
        let files = try Self.files("test_transform")
        #expect(files.count >= 22)
        let verdicts = try #require(await Self.verdicts(files), "decoding hung (hang guard: 120 s)")
        #expect(verdicts.count == files.count)
    }
}
