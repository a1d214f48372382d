import RiveSyncModel
import RiveSyncTransport

/// Uploaded image, font and blob content, by content id (`sha256:<hex>`). Bounded in total
/// bytes; the oldest unreferenced upload is dropped first when full.
final class AssetStore: Sendable {
    private struct State {
        var assets: [String: AssetReference] = [:]
        var order: [String] = []
        var bytes = 0
    }

    private let state = Locked(State())
    private let capacityBytes: Int

    init(capacityBytes: Int) { self.capacityBytes = capacityBytes }

    /// Checks the bytes against the kind and stores them; returns the reference to set.
    func add(kind: String, data: [UInt8], mediaType declared: String?) throws(AssetValidationError) -> AssetReference {
        let mediaType = try AssetValidation.mediaType(of: data, kind: kind, declared: declared)
        let reference = AssetReference(id: "sha256:" + SHA256Digest.hex(data), byteCount: data.count, mediaType: mediaType)
        state.withLock { state in
            guard state.assets[reference.id] == nil else { return }
            state.assets[reference.id] = reference
            state.order.append(reference.id)
            state.bytes += data.count
            while state.bytes > capacityBytes, state.order.count > 1 {
                let oldest = state.order.removeFirst()
                state.bytes -= state.assets.removeValue(forKey: oldest)?.byteCount ?? 0
            }
        }
        return reference
    }

    /// Registers content stored in the state directory.
    func restore(id: String, mediaType: String, byteCount: Int) {
        state.withLock { state in
            guard state.assets[id] == nil else { return }
            state.assets[id] = AssetReference(id: id, byteCount: byteCount, mediaType: mediaType)
            state.order.append(id)
            state.bytes += byteCount
        }
    }

    /// Whether an uploaded asset with this id is known.
    func contains(_ id: String) -> Bool { state.withLock { $0.assets[id] != nil } }
}

/// Why uploaded bytes are not the declared kind.
struct AssetValidationError: Error {
    var reason: String
}

/// Magic-byte checks for uploads.
enum AssetValidation {
    static func mediaType(of data: [UInt8], kind: String, declared: String?) throws(AssetValidationError) -> String {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            data.count >= offset + prefix.count && Array(data[offset..<offset + prefix.count]) == prefix
        }
        switch kind {
        case "image":
            if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
            if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
            if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
            throw AssetValidationError(reason: "not a PNG, JPEG or WebP image")
        case "font":
            if starts([0x00, 0x01, 0x00, 0x00]) || starts(Array("true".utf8)) { return "font/ttf" }
            if starts(Array("OTTO".utf8)) { return "font/otf" }
            if starts(Array("wOFF".utf8)) { return "font/woff" }
            if starts(Array("wOF2".utf8)) { return "font/woff2" }
            throw AssetValidationError(reason: "not a TTF, OTF, WOFF or WOFF2 font")
        default:
            return declared ?? "application/octet-stream"
        }
    }
}
