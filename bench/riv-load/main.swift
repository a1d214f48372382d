// Benchmark (not a test): load time of a .riv file into a FileSchema, against two baselines
// measured in the same run on the same bytes:
//   copy     — copying the file's bytes into a fresh [UInt8] (the floor of any reader);
//   leb128   — decoding every byte of the file as a run of LEB128 varuints (touching every byte
//              once, with no object structure and no resolution).
// Usage: bench-riv-load [FILE] [RUNS]; build with -c release.
import Foundation
import RiveFile

let arguments = CommandLine.arguments
let path = arguments.count > 1 ? arguments[1] : "../shared/fixtures/riv/inventory_demo_test_v2.riv"
let runs = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 51) : 51
guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("bench-riv-load: cannot read \(path)\n".utf8))
    exit(1)
}
let bytes = [UInt8](data)

/// Median, min and max of `runs` timings of `body`, in milliseconds.
func measure(_ body: () throws -> Int) rethrows -> (median: Double, min: Double, max: Double, check: Int) {
    var samples: [Double] = []
    var check = 0
    let clock = ContinuousClock()
    for _ in 0..<runs {
        var result = 0
        let elapsed = try clock.measure { result = try body() }
        check &+= result
        samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
    }
    samples.sort()
    return (samples[samples.count / 2], samples[0], samples[samples.count - 1], check)
}

let copy = measure { bytes.withUnsafeBufferPointer { Array($0) }.last.map(Int.init) ?? 0 }
let leb128 = measure {
    var sum: UInt64 = 0
    var value: UInt64 = 0
    var shift: UInt64 = 0
    for byte in bytes {
        value |= UInt64(byte & 0x7F) << (shift & 63)
        if byte & 0x80 == 0 {
            sum &+= value
            value = 0
            shift = 0
        } else {
            shift += 7
        }
    }
    return Int(truncatingIfNeeded: sum)
}
let load = try measure {
    let schema = try RiveFileReader.read(bytes)
    return schema.viewModels.reduce(0) { $0 + $1.instances.count }
}

func row(_ name: String, _ m: (median: Double, min: Double, max: Double, check: Int)) -> String {
    name.padding(toLength: 18, withPad: " ", startingAt: 0)
        + String(format: "median %8.3f ms   min %8.3f ms   max %8.3f ms", m.median, m.min, m.max)
}

print("file: \(path) (\(bytes.count) bytes), \(runs) runs each")
print(row("baseline copy", copy))
print(row("baseline leb128", leb128))
print(row("RiveFileReader", load) + "   (\(load.check / runs) instances)")
print(String(format: "load / leb128 = %.1fx; goal < 50 ms: %@", load.median / leb128.median, load.median < 50 ? "met" : "NOT met"))
