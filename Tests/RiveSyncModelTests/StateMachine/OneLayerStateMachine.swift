import RiveSyncModel

/// The objects of a state machine `sm` after an artboard's own: one layer `L` whose entry
/// state goes at once to an animation state playing the artboard's first animation, and its
/// any state. Type and property keys from rive-runtime's definitions.
enum OneLayerStateMachine {
    static let objects: [RiveObject] = [
        RiveObject(typeKey: 53, properties: [55: .bytes(Array("sm".utf8))]),
        RiveObject(typeKey: 57, properties: [138: .bytes(Array("L".utf8))]),
        RiveObject(typeKey: 63),
        RiveObject(typeKey: 65, properties: [151: .uint(1)]),
        RiveObject(typeKey: 61, properties: [149: .uint(0)]),
        RiveObject(typeKey: 62),
    ]

    /// A runtime of the schema `schemaJSON` whose graph is `objects` (artboard `A` ending in
    /// these objects), with its state machine `sm` created.
    static func runtime(schemaJSON: String, objects: [RiveObject]) throws -> FileRuntime {
        var schema = try FileSchema(jsonText: schemaJSON)
        schema.graph = RiveGraph(objects: objects)
        var runtime = FileRuntime(schema: schema)
        try runtime.createStateMachine(artboard: "A", stateMachine: "sm")
        return runtime
    }

    /// The number at `path` of `sm`'s view model instance.
    static func number(_ path: String, in runtime: FileRuntime) throws -> Float {
        guard case .number(let value) = try runtime.value(at: path, in: "sm") else { throw NotANumber(path: path) }
        return value
    }

    /// A path whose value is not a number.
    struct NotANumber: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path) is not a number" }
    }
}
