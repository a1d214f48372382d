import RiveSyncModel

/// A small deterministic PRNG (SplitMix64) so randomized tests repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Makes random operations (valid and invalid) for the kitchen runtime's `sm` target.
struct RandomCommands {
    var rng: SeededGenerator

    mutating func next(in runtime: inout FileRuntime) throws -> Command {
        let listPaths = ["lis", "chi/items"]
        switch Int.random(in: 0..<14, using: &rng) {
        case 0: return .set(path: "num", value: .number(Float(Int.random(in: -50...50, using: &rng))))
        case 1: return .set(path: "str", value: .string(["a", "b", "c", ""].randomElement(using: &rng)!))
        case 2: return .set(path: "boo", value: .boolean(Bool.random(using: &rng)))
        case 3: return .set(path: "enu", value: .enumValue(["small", "medium", "large", "bad"].randomElement(using: &rng)!))
        case 4: return .fire(path: ["tri", "chi/ping", "lis/0/ping"].randomElement(using: &rng)!)
        case 5: return .set(path: "@Theme/background", value: .color(UInt32.random(in: 0...UInt32.max, using: &rng)))
        case 6:
            let item = try runtime.createInstance(.blank(from: .name(["Child", "Other"].randomElement(using: &rng)!)))
            return .listAppend(path: listPaths.randomElement(using: &rng)!, instance: item)
        case 7:
            let item = try runtime.createInstance(.name("First", from: .name("Child")))
            return .listInsert(path: listPaths.randomElement(using: &rng)!, index: Int.random(in: -1...4, using: &rng), instance: item)
        case 8: return .listRemoveAt(path: listPaths.randomElement(using: &rng)!, index: Int.random(in: 0...3, using: &rng))
        case 9:
            return .listSwap(
                path: listPaths.randomElement(using: &rng)!, index: Int.random(in: 0...3, using: &rng),
                with: Int.random(in: 0...3, using: &rng))
        case 10: return .set(path: "lis/\(Int.random(in: 0...3, using: &rng))/label", value: .string("item"))
        case 11:
            let child = try runtime.createInstance(.blank(from: .name("Child")))
            return .set(path: ["chi", "chi/next"].randomElement(using: &rng)!, value: .viewModel(child))
        case 12: return .set(path: "chi/count", value: .number(Float(Int.random(in: 0...9, using: &rng))))
        default: return .set(path: "nope", value: .number(0))
        }
    }
}
