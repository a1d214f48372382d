import Foundation
import RiveSyncCore
import RiveSyncJSON
import RiveSyncProtocol
import Testing

/// A `.riv` file's `loadFile` in parts (PROTOCOL.md §9), in the connection core: the parts are
/// put together in order, per connection, and only the complete file becomes background work.
@Suite struct FilePartsTests {
    /// `loadFile` of `bytes` as the part at `offset` of a file of `size` bytes.
    static func part(_ bytes: [UInt8], offset: Int, size: Int, name: String = "scene") -> JSONValue {
        [
            "type": "loadFile", "id": .number(Double(offset)), "name": .string(name), "riv": .string(Data(bytes).base64EncodedString()),
            "offset": .number(Double(offset)), "size": .number(Double(size)),
        ]
    }

    /// The `.riv` bytes of the background work's `loadFile`, if that is what `out` starts.
    static func loaded(_ out: [ConnectionAction]) -> [UInt8]? {
        guard case .loadFile(_, .riv(let bytes), _) = out.background.first else { return nil }
        return bytes
    }

    @Test func partsInOrderLoadTheWholeFileOnce() {
        var driver = ConnectionDriver()
        driver.greeted()
        let file: [UInt8] = Array(0..<10)
        let first = driver.send(Self.part(Array(file[0..<4]), offset: 0, size: 10))
        #expect(first.background.isEmpty)
        #expect(first.sent.first == ["type": "filePart", "id": 0, "name": "scene", "received": 4, "size": 10], "\(first.sent)")
        #expect(driver.send(Self.part(Array(file[4..<8]), offset: 4, size: 10)).sent.first?["received"] == 8)
        #expect(Self.loaded(driver.send(Self.part(Array(file[8..<10]), offset: 8, size: 10))) == file)
    }

    @Test func aPartThatDoesNotFollowDropsTheUnfinishedFile() {
        var driver = ConnectionDriver()
        driver.greeted()
        _ = driver.send(Self.part([1, 2], offset: 0, size: 6))
        let skipped = driver.send(Self.part([5, 6], offset: 4, size: 6))
        #expect(skipped.sent.first?["code"] == "invalid_file" && skipped.background.isEmpty, "\(skipped.sent)")
        let after = driver.send(Self.part([3, 4], offset: 2, size: 6))
        #expect(after.sent.first?["code"] == "invalid_file", "the file was dropped: \(after.sent)")
        let otherName = driver.send(Self.part([1, 2], offset: 0, size: 6, name: "a"))
        #expect(otherName.sent.first?["received"] == 2)
        #expect(driver.send(Self.part([3, 4], offset: 2, size: 6, name: "b")).sent.first?["code"] == "invalid_file")
        _ = driver.send(Self.part([1, 2], offset: 0, size: 4))
        #expect(driver.send(Self.part([3, 4, 5], offset: 2, size: 4)).sent.first?["code"] == "invalid_file", "past size")
    }

    @Test func eachConnectionHasItsOwnParts() {
        var driver = ConnectionDriver()
        driver.greeted(1)
        driver.greeted(2)
        _ = driver.send(Self.part([1, 2], offset: 0, size: 4), from: 1)
        #expect(driver.send(Self.part([3, 4], offset: 2, size: 4), from: 2).sent.first?["code"] == "invalid_file")
        #expect(Self.loaded(driver.send(Self.part([3, 4], offset: 2, size: 4), from: 1)) == [1, 2, 3, 4])
    }

    @Test func aFileOverMaxFileBytesIsRefusedAtItsFirstPart() {
        var driver = ConnectionDriver()
        driver.environment.configuredLimits.maxFileBytes = 8
        driver.greeted()
        let refused = driver.send(Self.part([1], offset: 0, size: 9))
        #expect(refused.sent.first?["code"] == "limit_exceeded" && refused.sent.first?["details"]?["limit"] == "maxFileBytes")
        let whole: JSONValue = ["type": "loadFile", "name": "w", "riv": .string(Data(Array(repeating: 1, count: 9)).base64EncodedString())]
        #expect(driver.send(whole).sent.first?["code"] == "limit_exceeded", "a whole file too")
    }
}
