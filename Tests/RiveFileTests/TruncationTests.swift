import Foundation
import RiveFile
import RiveSyncModel
import Synchronization
import XCTest

/// Every fixture cut at every 97th byte offset, and each of the big ones (over 64 KiB: the ten of
/// 200–900 KiB, whose cuts are nearly all of this test's time, as each read starts again from
/// byte 0) at every 397th.
///
/// A `.riv` has no length or end marker: objects simply follow one another until the data ends.
/// A cut that falls exactly between two objects therefore leaves a shorter but well-formed file,
/// which Rive's runtime accepts too. Such a cut must read as a prefix of the whole file (and the
/// byte before it must be an object terminator, 0); every other cut must be `truncated`.
final class TruncationTests: XCTestCase {
    func testEveryFixtureCutEvery97Or397BytesGivesATypedErrorOrAWellFormedPrefix() throws {
        let fixtures = try Fixtures.names.map { name in (name, try Fixtures.bytes(name)) }
        // The fixtures are cut side by side (about 10^5 reads, most of the time in the ten big
        // files); each records what it found, and the assertions run here.
        let outcomes = Mutex([Outcome](repeating: Outcome(), count: fixtures.count))
        DispatchQueue.concurrentPerform(iterations: fixtures.count) { index in
            let outcome = Self.cut(fixtures[index].1, name: fixtures[index].0)
            outcomes.withLock { $0[index] = outcome }
        }
        let all = outcomes.withLock { $0 }
        for failure in all.flatMap(\.failures) { XCTFail(failure) }
        let cuts = all.reduce(0) { $0 + $1.cuts }
        let prefixes = all.reduce(0) { $0 + $1.prefixes }
        XCTAssertGreaterThan(cuts, 17_000)
        XCTAssertLessThan(prefixes * 50, cuts, "implausibly many cuts (\(prefixes) of \(cuts)) parsed")
    }

    private struct Outcome: Sendable {
        var cuts = 0
        var prefixes = 0
        var failures: [String] = []
    }

    /// Reads `bytes` cut at every 97th offset (397th past 64 KiB of file): each cut must be `truncated`, or parse as a prefix
    /// of the whole file ending at an object terminator.
    private static func cut(_ bytes: [UInt8], name: String) -> Outcome {
        var outcome = Outcome()
        let whole: FileSchema
        do { whole = try RiveFileReader.read(bytes) } catch {
            outcome.failures.append("\(name) does not read whole: \(error)")
            return outcome
        }
        for length in stride(from: 0, to: bytes.count, by: bytes.count > 65_536 ? 397 : 97) {
            outcome.cuts += 1
            do throws(RiveFileError) {
                let part = try RiveFileReader.read(bytes[..<length])
                outcome.prefixes += 1
                if bytes[length - 1] != 0 { outcome.failures.append("\(name) cut at \(length) parsed but is not at an object end") }
                if !part.isPrefix(of: whole) { outcome.failures.append("\(name) cut at \(length) is not a prefix of the whole file") }
            } catch {
                guard case .truncated = error else {
                    outcome.failures.append("\(name) cut at \(length): expected truncated, got \(error)")
                    return outcome
                }
            }
        }
        return outcome
    }

    func testEveryByteOfASmallFixtureIsCheckedEitherWay() throws {
        let bytes = try Fixtures.bytes("vm_listener_fire_event")
        let whole = try RiveFileReader.read(bytes)
        for length in 0..<bytes.count {
            // A refused cut is the expected outcome; an accepted one is checked.
            if let part = try? RiveFileReader.read(bytes[..<length]) {
                XCTAssertEqual(bytes[length - 1], 0, "cut at \(length)")
                XCTAssert(part.isPrefix(of: whole), "cut at \(length)")
            }
        }
    }
}

extension FileSchema {
    /// Whether this schema could be what the first objects of `whole` hold: each list is a
    /// prefix of the whole file's, and every view model and artboard is a prefix of its
    /// counterpart (values may differ where a reference pointed past the cut).
    func isPrefix(of whole: FileSchema) -> Bool {
        func prefix<T>(_ part: [T], _ all: [T], _ same: (T, T) -> Bool) -> Bool {
            part.count <= all.count && zip(part, all).allSatisfy(same)
        }
        return prefix(enums, whole.enums) { $0.name == $1.name && $1.values.starts(with: $0.values) }
            && prefix(assets, whole.assets, ==)
            && prefix(viewModels, whole.viewModels) { part, all in
                part.name == all.name && part.isGlobal == all.isGlobal
                    && prefix(part.properties, all.properties) { $0.name == $1.name && $0.type == $1.type }
                    && prefix(part.instances, all.instances) { $0.name == $1.name }
            }
            && prefix(artboards, whole.artboards) { $0.name == $1.name && $1.stateMachines.starts(with: $0.stateMachines) }
    }
}
