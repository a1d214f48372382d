import RiveSyncModel
import Testing

/// A path is split and unescaped once (`ParsedPath`), and resolving the parsed path is
/// resolving the text: same property, same errors.
@Suite struct ParsedPathTests {
    @Test func aPathIsSplitAtEverySlashAndItsNamesUnescaped() {
        let nested = ParsedPath("Sub~1Part/x~1y")
        #expect(nested.segments == ["Sub~1Part", "x~1y"])
        #expect(nested.names == ["Sub/Part", "x/y"])
        #expect(ParsedPath("mood").segments == ["mood"] && ParsedPath("mood").names == ["mood"])
    }

    @Test func itsSegmentsAndNamesAreReadOneByOneAsFromItsArrays() {
        for text in ["mood", "", "a//b", "a~2b", "Sub~1Part/x~1y", "@Theme/name", "#17/x", "players/0/name", "a~0b"] {
            let path = ParsedPath(text)
            #expect(path.segmentCount == path.segments.count, "\(text)")
            #expect((0..<path.segmentCount).map { path.segment($0) } == path.segments, "\(text)")
            #expect(path.hasNames == (path.names != nil), "\(text)")
            if let names = path.names { #expect((0..<path.segmentCount).map { path.name($0) } == names, "\(text)") }
        }
    }

    @Test func anEmptySegmentOrABadEscapeHasNoNames() {
        for text in ["", "a//b", "a/", "/a", "a~2b"] {
            #expect(ParsedPath(text).names == nil, "\(text)")
        }
        #expect(ParsedPath("").segments == [""], "the empty path is one empty segment")
    }

    @Test func resolvingTheParsedPathIsResolvingItsText() throws {
        let runtime = try PathEscapeTests.runtime()
        let target = "sm"
        for text in ["BG On~1Off", "a~0b", "@Look~1Feel/tone~01", "Sub~1Part", "Sub~1Part/x~1y", "a//b", "nothing", "items~1all/0"] {
            let direct = Result { try runtime.property(at: text, in: target) }
            let parsed = Result { try runtime.resolve(ParsedPath(text), inTarget: target).property }
            switch (direct, parsed) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(text)")
            case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)", "\(text)")
            default: Issue.record("\(text): \(direct) / \(parsed)")
            }
        }
    }
}
