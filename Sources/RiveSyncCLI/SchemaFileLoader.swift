import Foundation
import RiveFile
import RiveSyncModel

/// Loads a `FileSchema` from a file: a `.riv` when it starts with the magic `RIVE`, otherwise
/// the RiveSync JSON schema format.
enum SchemaFileLoader {
    /// Files larger than this are refused before reading (no real `.riv` comes close).
    static let maxFileBytes = 256 << 20

    static func load(path: String) throws(CommandError) -> FileSchema {
        let bytes = try readBytes(path)
        if RiveFileReader.hasRivMagic(bytes) {
            do {
                return try RiveFileReader.read(bytes)
            } catch {
                throw .failure("\(path): \(error)")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .failure("\(path): neither a .riv file nor UTF-8 JSON")
        }
        do {
            return try FileSchema(jsonText: text)
        } catch {
            throw .failure("\(path): \(Self.describe(error))")
        }
    }

    /// The bytes of the file at `path`, refused when it is missing, a directory or too large.
    static func readBytes(_ path: String) throws(CommandError) -> [UInt8] {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let attributes else { throw .failure("\(path): no such file") }
        if attributes[.type] as? FileAttributeType == .typeDirectory {
            throw .failure("\(path): is a directory")
        }
        if let size = attributes[.size] as? Int, size > maxFileBytes {
            throw .failure("\(path): larger than \(maxFileBytes) bytes")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .failure("\(path): cannot be read")
        }
        return [UInt8](data)
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
