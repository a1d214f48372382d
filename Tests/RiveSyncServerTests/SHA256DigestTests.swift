import RiveSyncModel
import Testing

@testable import RiveSyncServer

/// The daemon's libcrypto SHA-256 against FIPS 180-4's examples and the model's own.
@Suite struct SHA256DigestTests {
    @Test func libcryptoAgreesWithTheStandardAndTheModel() {
        #expect(SHA256Digest.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Digest.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = [UInt8]((0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        #expect(SHA256Digest.hex(long) == ContentDigest.sha256Hex(long))
    }
}
