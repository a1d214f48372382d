import RiveSyncJSON

extension ServerMessage {
    /// The bytes a target's `batch` and `ack` messages carry that stay the same while its name
    /// and epoch do: a batch's opening up to its seq (`{"type":"batch","target":…,"epoch":…,"seq":`)
    /// and an ack's target up to its seq (`,"target":…,"seq":`). A worker keeps them per target
    /// and copies them into each message (`batchBytes(_:openings:…)`, `ackBytes(openings:…)`),
    /// instead of measuring the two strings and scanning them for bytes to escape every time. A
    /// class: kept and handed on with one reference counted.
    public final class TargetOpenings: Sendable {
        /// The target the bytes name.
        public let target: String
        /// The epoch the batch's bytes carry.
        public let epoch: String
        /// A batch's bytes up to its seq, `"seq":` included.
        let batch: [UInt8]
        /// An ack's bytes from its target to its seq, `"seq":` included.
        let ack: [UInt8]

        /// The openings of `target`'s messages in `epoch`.
        public init(target: String, epoch: String) {
            self.target = target
            self.epoch = epoch
            var batch: [UInt8] = []
            batch.reserveCapacity(ServerMessage.batchOpeningSize(target: target, epoch: epoch))
            ServerMessage.writeBatchOpening(target: target, epoch: epoch, into: &batch)
            self.batch = batch
            var ack: [UInt8] = []
            ack.reserveCapacity(ServerMessage.ackTargetSize(target))
            ServerMessage.writeAckTarget(target, into: &ack)
            self.ack = ack
        }

        /// Whether these are the openings of `target`'s messages in `epoch`.
        public func open(_ target: String, epoch: String) -> Bool {
            self.epoch == epoch && self.target == target
        }
    }
}

extension HeadroomWriter {
    /// Appends `bytes` (one of a target's openings).
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append(contentsOf: $0) }
    }
}
