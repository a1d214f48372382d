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
    /// An update due on a connection that is not open is skipped and not counted as sent. The
    /// plan is changed where it lies (`writing?.…`): a copy of it would copy every encoder.
    func sendDue() {
        let now = Clock.now()
        var sent = 0
        while let (index, seq) = writing?.take(dueBy: now) {
            guard let connection = openConnection(index: index) else { continue }
            writing?.appendFrame(index: index, seq: seq, maskKey: nextMaskKey(), to: &connection.outbox)
            flush(connection)
            sent += 1
        }
        writing?.sent += sent
        guard let plan = writing, plan.pacer.nextDue == nil else { return }
        writing = nil
        engine.finishWriting(sent: plan.sent)
    }
}
