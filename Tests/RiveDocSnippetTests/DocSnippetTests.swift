import Foundation
import RiveSyncClient
import RiveSyncTestSupport
import XCTest

/// Rive's documentation snippets compile here unchanged (the markers are checked against the
/// reference text) and run against a real daemon with Rive's meaning: values read, sets
/// applied in order, lists edited, nested instances replaced, globals rebound.
final class DocSnippetTests: XCTestCase {
    private var daemon: DaemonProcess!

    override func tearDown() async throws {
        daemon?.stop()
        if let run = testRun, run.totalFailureCount > 0, let daemon { print("rivesyncd stderr:\n\(daemon.stderr)") }
        daemon = nil
    }

    func testTheSnippetsAreRivesTextUnchanged() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let reference = URL(fileURLWithPath: DaemonProcess.packageRoot).deletingLastPathComponent().appendingPathComponent(
            "shared/reference")
        var checked = 0
        for (source, text) in [
            ("RuntimeDocSnippets.swift", "000_d55d690704db4c59.txt"), ("GuideSnippets.swift", "004_994036300760905f.txt"),
        ] {
            let lines = try String(contentsOf: reference.appendingPathComponent(text), encoding: .utf8).components(separatedBy: "\n").map(
                Self.unquoted)
            let snippets = Self.snippets(in: try String(contentsOf: here.appendingPathComponent(source), encoding: .utf8))
            XCTAssertFalse(snippets.isEmpty, source)
            for (start, body) in snippets {
                let original = Array(lines[(start - 1)...].prefix(body.count))
                XCTAssertEqual(body, original, "\(source): the snippet from \(text):\(start) differs from the reference")
                checked += body.count
            }
        }
        XCTAssertGreaterThan(checked, 200, "lines checked")
    }

    func testTheSnippetsRunWithRivesMeaning() async throws {
        daemon = try DaemonProcess([
            "--config",
            try DaemonProcess.writeConfiguration(
                DocsSchema.configuration, files: ["docs.json": DocsSchema.schema, "character.json": DocsSchema.character]),
        ])
        guideDaemonURL = daemon.url
        let worker = try await Worker(url: daemon.url)
        let errors = worker.errors()
        let file = try await File(source: .name("docs"), worker: worker)
        let artboard = try await file.createArtboard("Artboard")
        try await RuntimeDocSnippets.instances(file: file, artboard: artboard)
        try await RuntimeDocSnippets.listingProperties(file: file)

        let (rive, main) = try await RuntimeDocSnippets.binding(file: file)
        XCTAssertEqual(rive.artboard.name, "Artboard")
        let replacement = try await RuntimeDocSnippets.replacingMain(file: file, artboard: rive.artboard, stateMachine: rive.stateMachine)
        let bound = try await rive.stateMachine.mainInstance()
        XCTAssertEqual(bound, replacement)
        XCTAssertNotEqual(bound, main)

        let automatic = try await RuntimeDocSnippets.autoBinding(file: file)
        let automaticMain = try await automatic.stateMachine.mainInstance()
        let automaticName = try await automaticMain.name()
        XCTAssertEqual(automaticName, "Default", "the authored default is bound")
        _ = try await RuntimeDocSnippets.autoBindingArtboard(file: file)

        let (themed, theme) = try await RuntimeDocSnippets.globals(file: file)
        let boundTheme = try await themed.stateMachine.globalInstance(named: "Theme")
        XCTAssertEqual(boundTheme, theme)
        try await RuntimeDocSnippets.replacingGlobal(file: file, stateMachine: themed.stateMachine)
        let dark = try await themed.stateMachine.globalInstance(named: "Theme").value(of: StringProperty(path: "name"))
        XCTAssertEqual(dark, "Dark")
        try await RuntimeDocSnippets.globalsBuilder(file: file, stateMachine: themed.stateMachine, colorScheme: .light)
        let light = try await themed.stateMachine.globalInstance(named: "Theme").value(of: StringProperty(path: "name"))
        XCTAssertEqual(light, "Light")

        let instance = bound
        let stringValue = try await RuntimeDocSnippets.string(viewModelInstance: instance)
        let numberValue = try await RuntimeDocSnippets.number(viewModelInstance: instance)
        let boolValue = try await RuntimeDocSnippets.bool(viewModelInstance: instance)
        let colorValue = try await RuntimeDocSnippets.color(viewModelInstance: instance)
        let enumValue = try await RuntimeDocSnippets.enumeration(viewModelInstance: instance)
        XCTAssertEqual(
            [stringValue, "\(numberValue)", "\(boolValue)", "\(colorValue)", enumValue], ["start", "0.0", "false", "#FF000000", "other"])
        let (valueFires, triggerFires) = (
            Task { try await RuntimeDocSnippets.observingValues(viewModelInstance: instance) },
            Task {
                try await RuntimeDocSnippets.observingTriggers(viewModelInstance: instance)
            }
        )
        await RuntimeDocSnippets.trigger(viewModelInstance: instance)
        let strings = try await instance.value(of: StringProperty(path: "path/to/string"))
        let numbers = try await instance.value(of: NumberProperty(path: "path/to/number"))
        let bools = try await instance.value(of: BoolProperty(path: "path/to/bool"))
        let colors = try await instance.value(of: ColorProperty(path: "path/to/color"))
        let enums = try await instance.value(of: EnumProperty(path: "path/to/enum"))
        let fires = try await instance.fireCount(of: TriggerProperty(path: "path/to/trigger"))
        XCTAssertEqual(
            [strings, "\(numbers)", "\(bools)", "\(colors)", enums, "\(fires)"], ["value", "9001.0", "true", "#FFFFFFFF", "value", "1"])
        valueFires.cancel()
        triggerFires.cancel()
        try await valueFires.value
        try await triggerFires.value

        let (header, headerReplacement) = try await RuntimeDocSnippets.nestedPaths(file: file, viewModelInstance: instance)
        let headerTitle = try await header.value(of: StringProperty(path: "title"))
        XCTAssertEqual(headerTitle, "Welcome")
        let nowHeader = try await instance.confirmed.value(of: ViewModelInstanceProperty(path: "header"))
        XCTAssertEqual(nowHeader, headerReplacement)

        let (size, finalSize) = try await RuntimeDocSnippets.lists(file: file, viewModelInstance: instance)
        XCTAssertEqual([size, finalSize], [0, 0])
        try await RuntimeDocSnippets.artboards(file: file, viewModelInstance: instance)
        let board = try await instance.value(of: ArtboardProperty(path: "path/to/artboard"))
        XCTAssertNil(board)

        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        let imaged = try await RuntimeDocSnippets.images(url: daemon.url, imageData: png)
        let image = try await imaged.value(of: ImageProperty(path: "path/to/image"))
        XCTAssertNil(image, "set, then cleared")
        try await RuntimeDocSnippets.fonts(worker: worker, viewModelInstance: instance, fontData: Data([0x00, 0x01, 0x00, 0x00, 1, 2]))
        try await RuntimeDocSnippets.blobs(worker: worker, viewModelInstance: instance)
        let font = try await instance.value(of: FontProperty(path: "headingFont"))
        let blob = try await instance.value(of: BlobProperty(path: "payload"))
        XCTAssertNil(font)
        XCTAssertNil(blob)

        let model = await CharacterModel()
        await model.load()
        let loaded = await model.loadedInstance
        let character = try XCTUnwrap(loaded, "the guide's load() failed (see its printed error)")
        let success = Task { try await model.waitForSuccess() }
        let watching = Task { await model.watchMood() }
        await model.setMood(5)
        await model.fire("success")
        try await success.value
        let mood = try await character.value(of: NumberProperty(path: "mood"))
        XCTAssertEqual(mood, 5)
        watching.cancel()
        await watching.value

        await worker.close()
        var failures: [QueuedCallError] = []
        for await failure in errors { failures.append(failure) }
        XCTAssertEqual(failures.map(\.description), [], "no snippet call failed")
    }

    /// A reference line without its Markdown quote (`> `) and indentation.
    private static func unquoted(_ line: Substring) -> String { unquoted(String(line)) }

    private static func unquoted(_ line: String) -> String {
        var text = Substring(line)
        while text.hasPrefix(">") { text = text.dropFirst().drop { $0 == " " } }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// Each `// snippet: LINE` … `// end snippet` block: its reference line and its text as
    /// the reference has it (`// removed:` lines restored, `// was:` replacements undone).
    private static func snippets(in source: String) -> [(Int, [String])] {
        var result: [(Int, [String])] = []
        var current: (Int, [String])?
        for raw in source.components(separatedBy: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("// snippet: "), let start = Int(line.dropFirst("// snippet: ".count)) {
                current = (start, [])
            } else if line == "// end snippet", let finished = current {
                result.append(finished)
                current = nil
            } else if current != nil {
                if line.hasPrefix("// removed: ") {
                    current!.1.append(String(line.dropFirst("// removed: ".count)))
                } else if let range = line.range(of: " // was: ") {
                    current!.1.append(String(line[range.upperBound...]))
                } else {
                    current!.1.append(line)
                }
            }
        }
        return result
    }
}
