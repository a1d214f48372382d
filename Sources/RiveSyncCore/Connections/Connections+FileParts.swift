import RiveSyncJSON
import RiveSyncProtocol

extension Connections {
    /// The parts of a `.riv` file received so far: the first `bytes.count` of `size`.
    struct FileInParts {
        var name: String
        var size: Int
        var bytes: [UInt8]
    }

    /// A `.riv` file's `loadFile`: whole, or one part of it (PROTOCOL.md §9). Parts come in
    /// order on one connection; the last one loads the file, the others answer `filePart`.
    /// A part at offset 0 starts a file anew; one at another offset must follow the bytes
    /// received so far (else `invalid_file`, and the unfinished file is dropped).
    mutating func loadRiv(
        _ connection: ConnectionID, name: String, bytes: [UInt8], part: FilePart?, id: JSONValue?,
        into out: inout ActionList<ConnectionAction>
    ) -> Outcome {
        let maxFileBytes = settings.limits.maxFileBytes
        guard let part else {
            guard bytes.count <= maxFileBytes else { return fail(connection, .limit("maxFileBytes", maxFileBytes), id: id, into: &out) }
            out.append(.startBackground(connection, .loadFile(name: name, content: .riv(bytes), worker: nextFileWorker()), id: id))
            return .background
        }
        guard part.size <= maxFileBytes else {
            states[connection]!.value.fileInParts = nil
            return fail(connection, .limit("maxFileBytes", maxFileBytes), id: id, into: &out)
        }
        var file = states[connection]!.value.fileInParts ?? FileInParts(name: name, size: part.size, bytes: [])
        if part.offset == 0 { file = FileInParts(name: name, size: part.size, bytes: []) }
        guard file.name == name, file.size == part.size, file.bytes.count == part.offset, part.offset + bytes.count <= part.size else {
            states[connection]!.value.fileInParts = nil
            let follows = file.name == name && file.size == part.size
            let expected = follows ? "offset \(file.bytes.count) and at most size bytes" : "offset 0 (the start of the file)"
            let error = WireError(
                code: .invalidFile,
                message: "a part of '\(name)' that does not follow the bytes received (expected \(expected)); "
                    + "send the file again from offset 0", details: [("file", .string(name))])
            return fail(connection, error, id: id, into: &out)
        }
        file.bytes += bytes
        guard file.bytes.count == file.size else {
            states[connection]!.value.fileInParts = file
            out.append(.send(frame(.filePart(name: name, received: file.bytes.count, size: file.size, id: id)), to: Recipients(connection)))
            return .answered
        }
        states[connection]!.value.fileInParts = nil
        out.append(.startBackground(connection, .loadFile(name: name, content: .riv(file.bytes), worker: nextFileWorker()), id: id))
        return .background
    }
}
