/// Field types for property keys a file's table of contents may leave out.
///
/// Real exports never list keys below 160 in their ToC (and list 212 only sometimes), so a
/// reader must know them. The data-binding and artboard keys this reader interprets are here
/// too, so that a file whose ToC omits them still reads. Source: `RIV-FORMAT.md` §2 and §5.
enum BuiltInFieldTypes {
    /// Field type per 16-bit property key; `nil` where the key is unknown.
    static let table: [FieldType?] = {
        var table = [FieldType?](repeating: nil, count: 1 << 16)
        for key in strings { table[key] = .string }
        for key in colors { table[key] = .color }
        for key in bools { table[key] = .bool }
        for key in floats { table[key] = .float }
        for key in uints { table[key] = .uint }
        return table
    }()

    /// Strings and bytes.
    static let strings: [Int] = [4, 55, 138, 203, 212, 359, 362, 557, 561, 572, 578, 579, 588, 911]

    static let colors: [Int] = [37, 38, 88, 555]

    static let bools: [Int] =
        [32, 41, 50, 62, 94, 141, 164, 174, 181] + Array(188...194) + [196, 201, 376, 593]

    static let floats: [Int] =
        Array(7...18) + [20, 21, 24, 25, 26, 31, 33, 34, 35, 39, 42, 46, 47, 58] + Array(63...66)
        + [70] + Array(79...87) + [89, 90, 91] + Array(96...101) + Array(104...109)
        + [114, 115, 116, 123, 124, 126, 127, 140, 157, 161, 162, 163, 166, 172, 177]
        + Array(182...187) + [199, 200, 202, 207, 208, 575, 706, 707]

    static let uints: [Int] =
        [5, 23, 40, 48, 49, 51, 53, 56, 57, 59, 60, 61, 67, 68, 69, 92, 93, 95, 102, 103]
        + Array(110...113) + Array(117...122)
        + [125, 128, 129, 136, 149, 151, 152, 155, 156, 158, 160, 165, 167, 168, 171, 173, 175]
        + [178, 179, 180, 195, 197, 198, 204, 206, 210]
        + [236, 494, 549, 550, 554, 560, 565, 566, 574, 577, 583, 586, 587, 660, 687, 708, 709]
        + [814, 824, 846, 875, 957, 966, 981, 1073, 1074, 1075, 1087]
}
