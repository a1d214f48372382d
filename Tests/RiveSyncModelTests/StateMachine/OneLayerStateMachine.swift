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
}
