import CWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// Work hosted on a service thread (`WebSocketServer.run(onThread:_:)`) and its timers: what
/// the daemon's workers run on when they live on the transport's threads. Touched on the
/// service thread only, like the rest of `ServerLoop`, and without run-time exclusivity
/// checks, as `ServerSession`.
final class LoopHosting {
    /// Work to run when the outermost callback ends, in the order posted.
    @exclusivity(unchecked) var work: [HostedWork] = []
    /// Storage of the last batch run, kept from batch to batch.
    @exclusivity(unchecked) var spare: [HostedWork] = []
    /// How deep the service thread is in lws callbacks (and the hosted work's own run).
    @exclusivity(unchecked) var depth = 0
    /// True while `applyInbox` applies a batch: a command of the thread then does not drain
    /// the inbox again.
    @exclusivity(unchecked) var applyingInbox = false
    /// Pending timers, earliest first.
    @exclusivity(unchecked) var timers = TimerHeap<HostedWork>()
    /// The one timer (an ev_timer on the libev loop, else an lws sul), set to the earliest
    /// pending timer (`armedAt`).
    let timer: UnsafeMutablePointer<rs_timer_t>
    @exclusivity(unchecked) var armedAt: UInt64?

    init() {
        timer = .allocate(capacity: 1)
        timer.initialize(to: rs_timer_t())
    }

    deinit { timer.deallocate() }
}

/// A closure of hosted work, wrapped so that the generic lists holding it (an array, the timer
/// heap) store it as it is: a bare function type as their element is kept at its most general
/// form, and each closure put in or taken out went through a reabstraction thunk, one
/// allocation each (~2 per set: the worker's advance timer).
struct HostedWork {
    let run: @Sendable () -> Void
}

/// The loop whose service thread this is (set as the thread starts, `enterServiceThread`).
private let currentLoopKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

extension ServerLoop {
    /// The loop served by the calling thread, nil off every service thread.
    static var current: ServerLoop? {
        pthread_getspecific(currentLoopKey).map { Unmanaged<ServerLoop>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The key under which a service thread keeps its loop (made at first use). A server reads
    /// it once and keeps it (`WebSocketServer.loopKey`): read here, every submit and post paid a
    /// `swift_once`.
    static var threadKey: pthread_key_t { currentLoopKey }

    /// Marks the calling thread as this loop's service thread (first thing on it).
    func enterServiceThread() {
        pthread_setspecific(currentLoopKey, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Before a command or work of this thread itself: whatever other threads submitted
    /// before it is applied first (a submit that happened before this call is in the inbox),
    /// so per session and per host the thread's own input never overtakes theirs.
    func takeInboxFirst() {
        guard !hosting.applyingInbox, inbox.hasCommands else { return }
        applyInbox()
    }

    /// Hosts `work` on this thread: it runs at the end of the current callback.
    func host(_ work: @escaping @Sendable () -> Void) {
        takeInboxFirst()
        hosting.work.append(HostedWork(run: work))
    }

    /// Applies a command of this thread for its own sessions at once (no lock, no wakeup);
    /// its writes go out at the end of the callback.
    func applyOwn(_ command: WebSocketServer.Command) {
        takeInboxFirst()
        apply(command, inTransit: false)
    }

    /// Runs the hosted work, then writes what it queued (`flushNewlyQueued`): at the end of
    /// the outermost callback and of the hosted timer's callback. `outsideLws`: no lws call is
    /// under way (the hosted timer), so the flush may run lws' writable handling itself, and
    /// what that handling brings on (a session's `closed` posting work, say) is run here too.
    func finishCallback(outsideLws: Bool = false) {
        guard !hosting.work.isEmpty || !newlyQueued.isEmpty else { return }
        hosting.depth += 1
        defer { hosting.depth -= 1 }
        repeat {
            while !hosting.work.isEmpty {
                // The spare storage is moved, not copied, into the list the work appends to: a
                // copy shared it with `spare`, so the first append allocated a new buffer.
                var batch: [HostedWork] = []
                swap(&batch, &hosting.spare)
                swap(&batch, &hosting.work)
                for work in batch { work.run() }
                batch.removeAll(keepingCapacity: true)
                hosting.spare = batch
            }
            flushNewlyQueued(outsideLws: outsideLws)
        } while !hosting.work.isEmpty || !newlyQueued.isEmpty
    }

    /// Runs `work` on this thread `nanoseconds` from now (with the other hosted work of its
    /// callback); false once the loop is stopping (its context is about to go).
    func schedule(after nanoseconds: UInt64, _ work: @escaping @Sendable () -> Void) -> Bool {
        guard inbox.isOpen, let context else { return false }
        let at = Self.monotonicNow() &+ nanoseconds
        hosting.timers.insert(HostedWork(run: work), at: at)
        if hosting.armedAt.map({ at < $0 }) ?? true { arm(at, context: context) }
        return true
    }

    /// Sets the lws timer to fire at `at` (monotonic nanoseconds).
    private func arm(_ at: UInt64, context: OpaquePointer) {
        hosting.armedAt = at
        hosting.timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        // On the libev loop an ev_timer (lws' own sul is not re-armed reliably there, shim.h).
        hosting.timer.pointee.loop = eventLoop
        let now = Self.monotonicNow()
        let delay = at > now ? (at - now + 999) / 1000 : 0
        rs_timer_schedule(
            context, hosting.timer,
            { sul in Unmanaged<ServerLoop>.fromOpaque(rs_timer_owner(sul)!)._withUnsafeGuaranteedRef { $0.timersFired() } },
            lws_usec_t(delay))
    }

    /// Before the loop polls: when the earliest hosted timer is already due, it runs now (with
    /// every other one due), not after a poll with a zero timeout. A worker that took a set
    /// schedules its advance at once when its last one is far enough back: that poll was one
    /// more `epoll_wait` per set (bench/README.md, "Empty polls and retains").
    func runDueTimers() {
        guard let armedAt = hosting.armedAt, armedAt <= Self.monotonicNow() else { return }
        rs_timer_cancel(hosting.timer)
        timersFired()
    }

    /// The lws timer's callback: every timer due runs, in deadline order, then the lws timer
    /// is set to the next one.
    private func timersFired() {
        hosting.armedAt = nil
        let now = Self.monotonicNow()
        while let work = hosting.timers.popFirst(dueBy: now) { hosting.work.append(work) }
        if let next = hosting.timers.firstDeadline, inbox.isOpen, let context { arm(next, context: context) }
        // Called by the event loop itself, outside every lws call.
        finishCallback(outsideLws: true)
    }

    /// `CLOCK_MONOTONIC` in nanoseconds (the scale of `DispatchTime.uptimeNanoseconds`).
    static func monotonicNow() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
