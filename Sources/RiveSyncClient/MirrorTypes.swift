internal import RiveSyncModel
internal import RiveSyncProtocol

/// What the decoder needs from the mirrors: each followed target's schema, and the view model
/// of each instance its replica holds.
struct MirrorTypes: ServerMessageTypes {
    let mirrors: [String: TargetMirror]

    func schema(ofTarget target: String) -> FileSchema? { mirrors[target]?.schema }

    func viewModel(of instance: InstanceID, inTarget target: String) -> String? {
        mirrors[target]?.replica?.store[instance]?.viewModel
    }
}
