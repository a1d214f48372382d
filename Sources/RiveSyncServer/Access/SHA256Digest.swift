import CCrypto

/// SHA-256 through libcrypto, for what the daemon hashes: uploads (by content), tokens and
/// state digests. The model's own SHA-256 (portable, for clients) gives the same digests.
enum SHA256Digest {
    /// Lower-case hex SHA-256 of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let done = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(done == 1 && length == 32, "libcrypto's SHA-256 failed")
        return digest.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }
}
