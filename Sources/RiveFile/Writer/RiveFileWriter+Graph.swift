import RiveSyncModel

extension RiveFileWriter {
    /// A file holding exactly `graph`'s objects, in order (what `RiveFileReader` read from a
    /// `.riv`: every object of its stream), so that reading it gives the same schema and the
    /// same graph. Properties are written by key; every key is listed in the table of
    /// contents with its field type, since the objects may use keys no built-in table knows.
    /// Embedded asset bytes, which the graph does not keep, are not written.
    public static func write(_ graph: RiveGraph) -> [UInt8] {
        encode(graph.objects.map(object), listing: { _ in true })
    }

    /// A graph object as the writer takes it, its properties by key.
    static func object(_ object: RiveObject) -> RiveFileObject {
        RiveFileObject(
            UInt64(object.typeKey),
            object.properties.sorted { $0.key < $1.key }.map { key, value in
                switch value {
                case .uint(let number): return .init(UInt64(key), .uint(number))
                case .float(let number): return .init(UInt64(key), .float(number))
                case .color(let argb): return .init(UInt64(key), .color(argb))
                case .bytes(let data): return .init(UInt64(key), .bytes(data))
                }
            })
    }
}
