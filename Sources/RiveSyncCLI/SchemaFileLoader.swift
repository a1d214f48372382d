import RiveFile
import RiveSyncJSON
import RiveSyncModel

/// Loads a `FileSchema` from a file: a `.riv` when it starts with the magic `RIVE`, otherwise
/// the RiveSync JSON schema format.
enum SchemaFileLoader {
    static func load(path: String) throws(CommandError) -> FileSchema {
        let bytes = try LocalFile.bytes(path)
        if RiveFileReader.hasRivMagic(bytes) {
            do {
                return try RiveFileReader.read(bytes)
            } catch {
                throw .failure("\(path): \(error)")
            }
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw .failure("\(path): neither a .riv file nor UTF-8 JSON")
        }
        let json: JSONValue
        do {
            json = try JSONParser(maxDepth: 64).parse(bytes)
        } catch {
            throw .failure(notJSON(path, error, bytes))
        }
        do {
            return try FileSchema(json: json)
        } catch {
            throw .failure("\(path): \(Self.describe(error))")
        }
    }

    /// `FILE:3:42: not JSON: unexpected character` (the line and column of a syntax error).
    static func notJSON(_ path: String, _ error: JSONParseError, _ bytes: [UInt8]) -> String {
        guard case .syntax(_, let reason) = error, let (line, column) = error.location(in: bytes) else {
            return "\(path): not JSON: \(error)"
        }
        return "\(path):\(line):\(column): not JSON: \(reason)"
    }

    private static func describe(_ error: FileError) -> String {
        switch error {
        case .invalidFile(let reason), .invalidData(let reason): return reason
        case .invalidArtboard(let name): return "invalid artboard \(name)"
        case .invalidViewModel(let name): return "invalid view model \(name)"
        case .invalidViewModelInstance(let name): return "invalid view model instance \(name)"
        case .invalidAsset(let name): return "invalid asset \(name)"
        case .limitExceeded(let limit, let value): return "limit \(limit) (\(value)) exceeded"
        }
    }
}
