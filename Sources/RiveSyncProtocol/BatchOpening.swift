import RiveSyncJSON

extension ServerMessage {
    /// The bytes every `batch` of a target starts with, up to its seq:
    /// `{"type":"batch","target":…,"epoch":…,"seq":`. They stay the same while the target's name
    /// and epoch do, so a worker keeps them per target and copies them into each batch
    /// (`batchBytes(_:opening:effects:withAuthors:headroom:)`), instead of measuring the two
    /// strings and scanning them for bytes to escape every time. A class: kept and handed on
    /// with one reference counted.
    public final class BatchOpening: Sendable {
        /// The target the bytes name.
        public let target: String
        /// The epoch the bytes carry.
        public let epoch: String
        /// The bytes, `"seq":` included.
        let bytes: [UInt8]

        /// The opening of `target`'s batches in `epoch`.
        public init(target: String, epoch: String) {
            self.target = target
            self.epoch = epoch
            var bytes: [UInt8] = []
            bytes.reserveCapacity(ServerMessage.batchOpeningSize(target: target, epoch: epoch))
            ServerMessage.writeBatchOpening(target: target, epoch: epoch, into: &bytes)
            self.bytes = bytes
        }

        /// Whether these bytes open the batches of `target` in `epoch`.
        public func opens(_ target: String, epoch: String) -> Bool {
            self.epoch == epoch && self.target == target
        }

        /// Appends the bytes to `out`.
        func write(into out: inout HeadroomWriter) {
            bytes.withUnsafeBytes { out.append(contentsOf: $0) }
        }
    }
}
