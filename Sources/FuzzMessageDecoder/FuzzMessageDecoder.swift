import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// libFuzzer entry point for one incoming protocol message, decoded as the daemon does:
/// `JSONParser` with the default limits, `Request.decode`, then the value and binding codecs on
/// the message's `value` / `bindings` members (or the whole message) for every property type.
/// Any bytes must give a value or a typed error, never a crash, hang or runaway allocation.
/// Built only by `.ci/fuzz-messages.sh` (`RIVESYNC_FUZZ=1`, `--sanitize=fuzzer`), whose fuzzer
/// runtime supplies `main`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessageDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // Typed refusals are passes here (the `try?`s below): only a crash or a hang fails a fuzz run.
    guard let json = try? JSONParser(maxDepth: 32, maxBytes: 1 << 20).parse(bytes) else { return 0 }
    _ = Request.decode(json)
    let value = json["value"] ?? json
    for type in DataType.allCases { _ = try? ValueCodec.decode(value, as: type, path: "fuzz") }  // a refusal is a pass
    _ = try? StateCodec.decodeBindings(json["bindings"] ?? json)  // a refusal is a pass
    return 0
}
