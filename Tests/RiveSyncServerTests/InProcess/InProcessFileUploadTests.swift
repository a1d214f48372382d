import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import Testing

@testable import RiveSyncServer

/// A daemon that accepts no files from clients (`allowFileUploads` false) refuses a `loadFile`
/// at once, also the first part of a `.riv` file: it keeps no bytes of it.
@Suite struct InProcessFileUploadTests {
    @Test func aDaemonWithoutFileUploadsRefusesEveryLoadFileAtOnce() async throws {
        var configuration = DaemonConfiguration.demo()
        configuration.allowFileUploads = false
        let daemon = try InProcessDaemon(configuration: configuration)
        let client = try await daemon.connected()
        let part: JSONValue = [
            "type": "loadFile", "name": "scene", "riv": .string(Data([1, 2, 3]).base64EncodedString()), "offset": 0, "size": 6,
        ]
        let refused = try await client.request(part)
        #expect(refused["code"] == "forbidden", "\(refused.jsonText)")
        let schema = try await client.request(["type": "loadFile", "name": "other", "schema": ["viewModels": []]])
        #expect(schema["code"] == "forbidden", "\(schema.jsonText)")
        let files = try await client.request(["type": "listFiles"])
        #expect(files["files"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["demo"], "\(files.jsonText)")
    }
}
