import RiveSyncModel
import RiveSyncProtocol

/// What a resume with paths replays of the kept batches: each batch read back, its effects
/// filtered to the paths (`PathFilter`) and encoded again; a batch with nothing on the paths is
/// left out.
public enum PathReplay {
    /// The frames for a subscription to `paths` of `kept` (oldest first), each after `headroom`
    /// free bytes (the shell's); `batch` reads a kept batch back. Throws `batch`'s error when one cannot be read: the caller resumes with a
    /// snapshot instead, never with a part of the batches.
    public static func frames<Kept>(
        _ kept: [Kept], paths: [String], epoch: String, withAuthors: Bool, headroom: Int, batch: (Kept) throws -> ChangeBatch
    ) throws -> [Frame] {
        var frames: [Frame] = []
        for entry in kept {
            let batch = try batch(entry)
            let effects = PathFilter.effects(batch.effects, visibleTo: paths)
            guard !effects.isEmpty else { continue }
            let bytes = ServerMessage.batchBytes(batch, epoch: epoch, effects: effects, withAuthors: withAuthors, headroom: headroom)
            frames.append(Frame(written: bytes))
        }
        return frames
    }
}
