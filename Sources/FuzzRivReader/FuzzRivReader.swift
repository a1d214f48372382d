import RiveFile

/// libFuzzer entry point: any bytes must give a schema or a typed error, never a crash, hang or
/// runaway allocation. Built only by `.ci/fuzz-riv.sh` (`RIVESYNC_FUZZ=1`, `--sanitize=fuzzer`),
/// whose fuzzer runtime supplies `main`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRivReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = try? RiveFileReader.read(bytes)  // a typed refusal is a pass; only a crash or a hang fails
    return 0
}
