import RiveSyncModel

extension FileSchema {
    /// The schema without its object graph: what the metadata reader and the JSON schema
    /// format describe (the graph has tests of its own).
    var metadata: FileSchema {
        var schema = self
        schema.graph = RiveGraph()
        return schema
    }
}
