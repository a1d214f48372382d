import RiveSyncModel

/// Reads the data-binding metadata of a `.riv` file (major version 7) into a `FileSchema`:
/// view models with their properties and authored instances, enums, artboards with their
/// default view model and state machines, and file assets.
///
/// Pure Swift, no I/O: the caller supplies the bytes. Any input gives either a schema or a
/// `RiveFileError`; memory use is bounded by a small multiple of the input size.
public enum RiveFileReader {
    /// Reads a whole `.riv` file.
    public static func read(_ bytes: [UInt8]) throws(RiveFileError) -> FileSchema {
        try read(bytes[...])
    }

    /// Reads a whole `.riv` file held in a slice; error offsets count from the slice's start.
    public static func read(_ bytes: ArraySlice<UInt8>) throws(RiveFileError) -> FileSchema {
        var reader = ByteReader(bytes)
        let header = try RuntimeHeader(reading: &reader)
        var collector = ObjectCollector(bytes: bytes)
        try readObjects(&reader, header: header, into: &collector)
        return SchemaResolver(raw: collector.file, bytes: bytes).resolve()
    }

    /// Whether the bytes start like a `.riv` file (the magic `RIVE`).
    public static func hasRivMagic(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.prefix(4).elementsEqual(RuntimeHeader.magic)
    }

    /// `FileAssetContents.bytes`: an embedded asset's content.
    private static let fileAssetContentsBytes: UInt64 = 212

    /// Walks the object stream: type key, (property key, value) pairs, terminator 0.
    private static func readObjects(
        _ reader: inout ByteReader, header: RuntimeHeader, into collector: inout ObjectCollector
    ) throws(RiveFileError) {
        while !reader.isAtEnd {
            let typeOffset = reader.offset
            let typeKey = try reader.readVarUInt("object type key")
            guard typeKey <= UInt64(UInt16.max) else {
                throw .invalid(offset: reader.position(typeOffset), reason: "type key \(typeKey) does not fit in 16 bits")
            }
            let kept = collector.begin(typeKey: Int(typeKey))
            var object = RiveObject(typeKey: Int(typeKey))
            while true {
                let keyOffset = reader.offset
                let key = try reader.readVarUInt("property key")
                if key == 0 { break }
                guard key <= UInt64(UInt16.max), let fieldType = header.fieldType(of: Int(key)) else {
                    throw .unknownPropertyKey(key: key, offset: reader.position(keyOffset))
                }
                let value: FieldValue
                switch fieldType {
                case .uint: value = .uint(try reader.readVarUInt("uint property value"))
                case .string: value = .bytes(try reader.readLengthPrefixed("string property value"))
                case .float: value = .float(try reader.readFloat32("float property value"))
                case .color: value = .color(try reader.readUInt32("color property value"))
                case .bool: value = .uint(UInt64(try reader.readByte("bool property value")))
                }
                if kept { collector.add(key: Int(key), value: value) }
                // An embedded asset's bytes (an image, a font) are nothing a headless state
                // machine reads; the graph keeps the object without them.
                if key != Self.fileAssetContentsBytes { object.properties[Int(key)] = value.graphValue(in: reader.bytes) }
            }
            if kept { collector.end() }
            collector.file.graph.objects.append(object)
        }
    }
}

extension FieldValue {
    /// The value as the graph keeps it (string payloads copied out of the input).
    fileprivate func graphValue(in bytes: ArraySlice<UInt8>) -> RiveFieldValue {
        switch self {
        case .uint(let value): return .uint(value)
        case .float(let value): return .float(value)
        case .color(let value): return .color(value)
        case .bytes(let range): return .bytes(Array(bytes[range]))
        }
    }
}

extension FileSchema {
    /// Reads the schema of a `.riv` file (see `RiveFileReader.read(_:)`).
    public init(rivBytes: [UInt8]) throws(RiveFileError) {
        self = try RiveFileReader.read(rivBytes)
    }
}
