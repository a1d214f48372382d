import Foundation
import XCTest

@testable import RiveSyncClient

/// Every property type written by one connection reads back the same on another.
final class PropertyTypeTests: ClientTestCase {
    func testEveryPropertyTypeRoundTrips() async throws {
        try startDaemon(configuration: TypesSchema.configuration, files: ["types.json": TypesSchema.schema])
        let writer = try await connect()
        let reader = try await connect()
        let mine = try await writer.publishedInstance(named: "all")
        let theirs = try await reader.publishedInstance(named: "all")
        let file = try await File(source: .name("types"), worker: writer)

        try await mine.confirmed.setValue(of: StringProperty(path: "text"), to: "héllo")
        try await mine.confirmed.setValue(of: NumberProperty(path: "count"), to: 0.25)
        try await mine.confirmed.setValue(of: BoolProperty(path: "on"), to: true)
        try await mine.confirmed.setValue(of: ColorProperty(path: "tint"), to: Color(red: 0x12, green: 0x34, blue: 0x56, alpha: 0x78))
        try await mine.confirmed.setValue(of: EnumProperty(path: "size"), to: "large")
        try await mine.confirmed.fire(trigger: TriggerProperty(path: "ping"))
        let image = try await writer.decodeImage(from: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]))
        let font = try await writer.decodeFont(from: Data([0x00, 0x01, 0x00, 0x00, 9, 9]))
        let blob = try await writer.decodeBlob(from: Data([1, 2, 3]))
        try await mine.confirmed.setValue(of: ImageProperty(path: "picture"), to: image)
        try await mine.confirmed.setValue(of: FontProperty(path: "typeface"), to: font)
        try await mine.confirmed.setValue(of: BlobProperty(path: "payload"), to: blob)
        try await mine.confirmed.setValue(of: ArtboardProperty(path: "board"), to: try await file.createArtboard("Other"))
        let item = try await file.createViewModelInstance(.name("One", from: .name("Item")))
        try await mine.confirmed.appendInstance(item, to: ListProperty(path: "items"))
        let child = try await file.createViewModelInstance(.blank(from: .name("Item")))
        let receipt = try await mine.confirmed.setValue(of: ViewModelInstanceProperty(path: "child"), to: child)

        try await within { try await reader.target(named: "all").waitForSeq(receipt.seq) }
        let text = try await theirs.value(of: StringProperty(path: "text"))
        let count = try await theirs.value(of: NumberProperty(path: "count"))
        let on = try await theirs.value(of: BoolProperty(path: "on"))
        let tint = try await theirs.value(of: ColorProperty(path: "tint"))
        let size = try await theirs.value(of: EnumProperty(path: "size"))
        let fires = try await theirs.fireCount(of: TriggerProperty(path: "ping"))
        let picture = try await theirs.value(of: ImageProperty(path: "picture"))
        let typeface = try await theirs.value(of: FontProperty(path: "typeface"))
        let payload = try await theirs.value(of: BlobProperty(path: "payload"))
        let board = try await theirs.value(of: ArtboardProperty(path: "board"))
        let listed = try await theirs.confirmed.value(of: ListProperty(path: "items"), at: 0)
        let nested = try await theirs.confirmed.value(of: ViewModelInstanceProperty(path: "child"))
        XCTAssertEqual(text, "héllo")
        XCTAssertEqual(count, 0.25)
        XCTAssertEqual(on, true)
        XCTAssertEqual(tint.argbValue, 0x7812_3456)
        XCTAssertEqual(size, "large")
        XCTAssertEqual(fires, 1)
        XCTAssertEqual(picture, image)
        XCTAssertEqual(picture?.reference.mediaType, "image/png")
        XCTAssertEqual(typeface, font)
        XCTAssertEqual(payload, blob)
        XCTAssertEqual(board, "Other")
        XCTAssertEqual(listed, item)
        try await assertEqualAsync(try await listed.value(of: StringProperty(path: "label")), "one")
        XCTAssertEqual(nested, child)

        try await mine.confirmed.setValue(of: ImageProperty(path: "picture"), to: nil)
        try await mine.confirmed.setValue(of: ArtboardProperty(path: "board"), to: nil)
        let cleared = try await mine.value(of: ImageProperty(path: "picture"))
        let noBoard = try await mine.value(of: ArtboardProperty(path: "board"))
        XCTAssertNil(cleared)
        XCTAssertNil(noBoard)
    }

    func testListingsMirrorRivesFileAPI() async throws {
        try startDaemon(configuration: TypesSchema.configuration, files: ["types.json": TypesSchema.schema])
        let worker = try await connect()
        let file = try await File(source: .name("types"), worker: worker)
        let artboards = try await file.getArtboardNames()
        let viewModels = try await file.getViewModelNames()
        let globals = try await file.getGlobalViewModelNames()
        let instances = try await file.getInstanceNames(of: "Item")
        let properties = try await file.getProperties(of: "All")
        let enums = try await file.getViewModelEnums()
        let info = try await file.getDefaultViewModelInfo(for: try await file.createArtboard())
        XCTAssertEqual(artboards, ["Main", "Other"])
        XCTAssertEqual(viewModels, ["Item", "All"])
        XCTAssertEqual(globals, [])
        XCTAssertEqual(instances, ["One"])
        XCTAssertEqual(properties.prefix(6).map(\.type), [.string, .number, .boolean, .color, .enum, .trigger])
        XCTAssertEqual(properties[4], ViewModelProperty(type: .enum, name: "size", metaData: "Size"))
        XCTAssertEqual(properties[7], ViewModelProperty(type: .viewModel, name: "child", metaData: "Item"))
        XCTAssertEqual(enums, [ViewModelEnum(name: "Size", values: ["small", "large"])])
        XCTAssertEqual(info.viewModelName, "All")
        XCTAssertEqual(info.instanceName, "Default")
        do {
            _ = try await file.getDefaultViewModelInfo(for: try await file.createArtboard("Other"))
            XCTFail("an artboard without a view model has no default")
        } catch FileError.invalidViewModel {}
        do {
            _ = try await File(source: .name("nope"), worker: worker)
            XCTFail("unknown file")
        } catch FileError.missingFile(let name) {
            XCTAssertEqual(name, "nope")
        }
    }
}
