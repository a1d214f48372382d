internal import RiveSyncProtocol

extension ServerMessage {
    /// The error for a reply of another type than the request's (`expected`).
    func unexpected(_ expected: ServerMessageType) -> WorkerError {
        .protocolViolation("expected a '\(expected.rawValue)' reply, got '\(type.rawValue)'")
    }
}

extension Receipt {
    /// The receipt an `ack` reply gives; any other reply (or none) is a protocol violation.
    init(_ reply: ServerMessage?) throws {
        guard case .ack(let ack, _) = reply else {
            throw reply?.unexpected(.ack) ?? WorkerError.protocolViolation("a command got no 'ack'")
        }
        self.init(target: ack.target, seq: ack.seq, command: ack.command)
    }
}
