/// The `.riv` header: magic, version, file id and the property table of contents.
struct RuntimeHeader {
    /// The only major version Rive's runtime reads.
    static let supportedMajorVersion: UInt64 = 7
    static let magic: [UInt8] = Array("RIVE".utf8)

    var majorVersion: UInt64
    var minorVersion: UInt64
    var fileId: UInt64
    /// Field types the ToC lists, indexed by property key (up to the largest key listed).
    var tocFieldTypes: [FieldType?]

    /// Reads the header; `reader` is left at the first object.
    init(reading reader: inout ByteReader) throws(RiveFileError) {
        let head = reader.bytes.prefix(4)
        guard head.elementsEqual(Self.magic.prefix(head.count)) else { throw .notRiv }
        guard head.count == 4 else { throw .truncated(offset: 0, what: "magic") }
        reader.skip(4)
        majorVersion = try reader.readVarUInt("major version")
        minorVersion = try reader.readVarUInt("minor version")
        guard majorVersion == Self.supportedMajorVersion else {
            throw .unsupportedVersion(major: majorVersion, minor: minorVersion)
        }
        fileId = try reader.readVarUInt("file id")

        var keys: [Int] = []
        while true {
            let offset = reader.offset
            let key = try reader.readVarUInt("table of contents key")
            if key == 0 { break }
            guard key <= UInt64(UInt16.max) else {
                throw .invalid(offset: reader.position(offset), reason: "table of contents key \(key) does not fit in 16 bits")
            }
            keys.append(Int(key))
        }
        tocFieldTypes = [FieldType?](repeating: nil, count: (keys.max() ?? 0) + 1)
        var word: UInt32 = 0
        for (i, key) in keys.enumerated() {
            if i % 4 == 0 { word = try reader.readUInt32("table of contents field types") }
            tocFieldTypes[key] = FieldType(tocCode: word >> (2 * UInt32(i % 4)))
        }
    }

    /// The field type of a property key: the ToC's entry where it has one (a key's type may
    /// have changed since this file was written), else the built-in table's; nil if neither
    /// knows it.
    func fieldType(of key: Int) -> FieldType? {
        (key < tocFieldTypes.count ? tocFieldTypes[key] : nil) ?? BuiltInFieldTypes.table[key]
    }
}
