import RiveSyncModel

/// A small file with a state machine described by a graph, as a `.riv` reader would keep it:
/// view model `V` (number `n`, trigger `t`), artboard `A` with state machine `sm`. Layer `L`
/// goes entry → `idle` at once, and `idle` → `fired` when `t` fires; a view-model listener on
/// `t` writes `n := 5` through a to-source bind.
enum StateMachineGraphFixture {
    static let schemaJSON = """
        {
          "rivesyncSchema": 1,
          "viewModels": [ { "name": "V", "properties": [ { "name": "n", "type": "number" }, { "name": "t", "type": "trigger" } ] } ],
          "artboards": [ { "name": "A", "viewModel": "V", "stateMachines": ["sm"], "defaultStateMachine": "sm" } ]
        }
        """

    /// Type keys and property keys from rive-runtime's definitions.
    static let objects: [RiveObject] = [
        RiveObject(typeKey: 1, properties: [4: text("A")]),
        RiveObject(typeKey: 31, properties: [55: text("idle"), 56: .uint(60), 57: .uint(60), 59: .uint(1)]),
        RiveObject(typeKey: 53, properties: [55: text("sm")]),
        RiveObject(typeKey: 57, properties: [138: text("L")]),
        RiveObject(typeKey: 63),  // 0 EntryState
        RiveObject(typeKey: 65, properties: [151: .uint(1)]),
        RiveObject(typeKey: 61, properties: [149: .uint(0)]),  // 1 idle
        RiveObject(typeKey: 65, properties: [151: .uint(2)]),
        RiveObject(typeKey: 482, properties: [650: .uint(1)]),
        RiveObject(typeKey: 503),
        RiveObject(typeKey: 447, properties: [586: .uint(686), 588: .bytes([0, 1])]),
        RiveObject(typeKey: 479),
        RiveObject(typeKey: 505),
        RiveObject(typeKey: 61, properties: [149: .uint(0)]),  // 2 fired
        RiveObject(typeKey: 62),  // 3 AnyState
        RiveObject(typeKey: 114, properties: [138: text("on t"), 225: .uint(11), 868: .bytes([0, 1])]),
        RiveObject(typeKey: 473, properties: [636: .float(5)]),
        RiveObject(typeKey: 447, properties: [586: .uint(636), 587: .uint(1), 588: .bytes([0, 0])]),
        RiveObject(typeKey: 487),
    ]

    static func schema() throws -> FileSchema {
        var schema = try FileSchema(jsonText: schemaJSON)
        schema.graph = RiveGraph(objects: objects)
        return schema
    }

    static func text(_ string: String) -> RiveFieldValue { .bytes(Array(string.utf8)) }
}
