import BenchLoadKit
import CEpoll
import Glibc

/// The write side of the raw engine (`--rooms`): every connection also sends updates, paced
/// open-loop by the plan's pacer. Sends are made on the loop's thread between two waits, each
/// stamped with the clock when it is encoded, so a late send does not shorten its latency.
extension RawEventLoop {
    /// Waits for events: without a plan until there are some, else at most until the next
    /// send is due.
    func waitForEvents(_ events: UnsafeMutableBufferPointer<epoll_event>) -> Int32 {
        guard let due = writing?.pacer.nextDue else {
            return epoll_pwait2(engine.epoll, events.baseAddress, Int32(events.count), nil, nil)
        }
        let now = Clock.now()
        let wait = due > now ? due - now : 0
        var timeout = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
        return epoll_pwait2(engine.epoll, events.baseAddress, Int32(events.count), &timeout, nil)
    }

    /// Sends every update that is due; ends the plan (and reports the count) when it has run out.
    /// An update due on a connection that is not open is skipped and not counted as sent.
    func sendDue() {
        guard var plan = writing else { return }
        var sent = 0
        let now = Clock.now()
        while let due = plan.pacer.nextDue, due <= now {
            let (writer, seq) = plan.pacer.take()
            let index = plan.order[writer]
            guard let connection = openConnection(index: index) else { continue }
            let record = Record(writer: plan.encoders[index].writer, seq: seq, sentNanoseconds: Clock.now())
            let payload = plan.encoders[index].encode(record)
            payload.withUnsafeBytes {
                WebSocketFrameEncoder.appendMaskedFrame(
                    opcode: .text, payload: $0, maskKey: .random(in: .min ... .max), to: &connection.outbox)
            }
            flush(connection)
            sent += 1
        }
        plan.sent += sent
        writing = plan.pacer.nextDue == nil ? nil : plan
        if writing == nil { engine.finishWriting(sent: plan.sent) }
    }
}
