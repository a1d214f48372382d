import Foundation
import RiveFile
import RiveSyncModel

/// `.riv` fixtures from `../shared/fixtures/riv/`, read in place; a missing one throws.
enum AnimationFixtures {
    /// `<package root>/../shared/fixtures/riv`.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/riv")

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The graph of `name.riv`.
    static func graph(_ name: String) throws -> RiveGraph {
        let url = directory.appendingPathComponent(name + ".riv")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Missing(description: "fixture \(url.path) is missing (the ../shared checkout is absent)")
        }
        return try RiveFileReader.read([UInt8](data)).graph
    }

    /// Every artboard of `name.riv` with its animations.
    static func artboards(_ name: String) throws -> [(artboard: ArtboardObjects, animations: [LinearAnimation])] {
        try ArtboardObjects.artboards(in: graph(name)).map { ($0, LinearAnimation.animations(in: $0)) }
    }
}
