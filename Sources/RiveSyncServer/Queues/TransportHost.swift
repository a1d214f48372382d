import Dispatch
import RiveSyncTransport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A worker hosted on a service thread of the transport (`WebSocketServer.run(onThread:_:)`):
/// its routed requests, timers, closed connections and the daemon's own calls all run there,
/// and nowhere else, while the transport runs. A request routed on that thread runs at the end
/// of the callback that received it, its sends to that thread's sessions are applied there,
/// and its timers are the thread's own lws timer: no hop, no wakeup (bench/README.md, hosted
/// workers).
///
/// Before the transport's threads start (`attach`) and after they stop (`detach`), work runs
/// inline on the caller's thread under `executor` (work posted from inside it waits for it to
/// end, as on a queue). Work posted from another thread while the transport runs is kept in
/// `posted` until its thread runs it, so work the stop drops runs at `detach`, in order.
/// `@unchecked Sendable`: `state` is locked; the worker's own state is confined by this host.
package final class TransportHost: WorkerHost, @unchecked Sendable {
    private enum Mode {
        case inline
        case thread(WebSocketServer, Int)
    }

    private struct State {
        var mode = Mode.inline
        /// Work posted from other threads while the transport runs, not yet run.
        var posted: [@Sendable () -> Void] = []
        /// The thread running work inline (holding `executor`), and the work it posted meanwhile.
        var inlineThread: pthread_t?
        var inlinePending: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())
    /// `state.mode`'s service thread (nil: inline), for `async` and `schedule` to read
    /// without a lock or a retain (each runs once or twice per set). The thread it points to
    /// is kept by `attached`.
    private let hostingThread = Atomic<Unmanaged<HostingThread>?>(nil)
    /// Every service thread attached, kept as long as the host (a reader may still use one a
    /// later `attach` or `detach` replaced).
    private let attached = Locked<[HostingThread]>([])
    private let executor = Locked(())
    private let clock: any DaemonClock
    /// Whether `clock` is the system's (its timers may be the service thread's own): asked
    /// once, not on every timer (a dynamic cast, ~250 instructions).
    private let clockIsSystem: Bool
    /// Where timers wait for a clock that is not the system's (or a transport not running).
    private let timerQueue: DispatchQueue

    init(label: String, clock: any DaemonClock) {
        self.clock = clock
        clockIsSystem = clock is SystemClock
        timerQueue = DispatchQueue(label: label + ".timers")
    }

    /// From now on, runs on service thread `thread` of `server` (which runs).
    func attach(_ server: WebSocketServer, thread: Int) {
        let hosting = HostingThread(server: server, index: thread)
        attached.withLock { $0.append(hosting) }
        executor.withLock { _ in
            state.withLock { state in
                state.mode = .thread(server, thread)
                hostingThread.store(Unmanaged.passUnretained(hosting), ordering: .releasing)
            }
        }
    }

    /// The transport stopped (its threads joined): runs the work it did not, then runs inline.
    func detach() {
        executor.withLock { _ in
            let left = state.withLock { state in
                state.mode = .inline
                hostingThread.store(nil, ordering: .releasing)
                state.inlineThread = pthread_self()
                defer { state.posted = [] }
                return state.posted
            }
            for work in left { work() }
            runInlinePending()
        }
    }

    package func async(_ work: @escaping @Sendable () -> Void) {
        guard let hosting = hostingThread.load(ordering: .acquiring) else { return runInline(work) }
        hosting._withUnsafeGuaranteedRef { hosting in
            if hosting.server.isServiceThread(hosting.index) {
                hosting.server.run(onThread: hosting.index, work)
            } else {
                post(work, to: hosting.server, thread: hosting.index)
            }
        }
    }

    /// Keeps `work` in `posted` and asks the thread to run the first posted work.
    private func post(_ work: @escaping @Sendable () -> Void, to server: WebSocketServer, thread: Int) {
        let stillHosted = state.withLock { state in
            guard case .thread = state.mode else { return false }
            state.posted.append(work)
            return true
        }
        guard stillHosted else { return runInline(work) }
        server.run(onThread: thread) { [self] in
            let next = state.withLock { $0.posted.isEmpty ? nil : $0.posted.removeFirst() }
            next?()
        }
    }

    package func sync<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
        let (mode, inlineThread) = state.withLock { ($0.mode, $0.inlineThread) }
        let onInlineThread = inlineThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        switch mode {
        case .thread(let server, let thread):
            if server.isServiceThread(thread) { return try work() }
            let result = withoutActuallyEscaping(work) { work -> Result<T, E> in
                let box = ResultBox<T, E>(work)
                let done = DispatchSemaphore(value: 0)
                let run: @Sendable () -> Void = {
                    box.run()
                    done.signal()
                }
                post(run, to: server, thread: thread)
                done.wait()
                return box.result!
            }
            return try result.get()
        case .inline:
            if onInlineThread { return try work() }
            return try executor.withLock { (_) throws(E) -> T in
                state.withLock { $0.inlineThread = pthread_self() }
                defer { runInlinePending() }
                return try work()
            }
        }
    }

    package func schedule(at: UInt64, _ work: @escaping @Sendable () -> Void) {
        if clockIsSystem, let hosting = hostingThread.load(ordering: .acquiring) {
            // The system's clock read directly (through the existential, it was copied first).
            let now = SystemClock().now()
            let scheduled = hosting._withUnsafeGuaranteedRef {
                $0.server.schedule(onThread: $0.index, afterNanoseconds: at > now ? at - now : 0, work)
            }
            if scheduled { return }
        }
        clock.schedule(at: at, on: timerQueue) { [self] in async(work) }
    }

    package func assertConfined() {
        #if DEBUG
            switch state.withLock({ ($0.mode, $0.inlineThread) }) {
            case (.thread(let server, let thread), _):
                precondition(server.isServiceThread(thread), "a hosted worker reached off its service thread")
            case (.inline, let running):
                precondition(running.map { pthread_equal($0, pthread_self()) != 0 } ?? false, "a worker reached off its host")
            }
        #endif
    }

    /// Runs `work` inline under `executor`, or after the inline work of this thread if it
    /// is the one running (as a queue would).
    private func runInline(_ work: @escaping @Sendable () -> Void) {
        let nested = state.withLock { state in
            guard let running = state.inlineThread, pthread_equal(running, pthread_self()) != 0 else { return false }
            state.inlinePending.append(work)
            return true
        }
        guard !nested else { return }
        executor.withLock { _ in
            state.withLock { $0.inlineThread = pthread_self() }
            work()
            runInlinePending()
        }
    }

    /// Runs what inline work posted while it ran, then leaves `executor`'s thread unset
    /// (called holding `executor`).
    private func runInlinePending() {
        while true {
            let pending = state.withLock { state in
                defer { state.inlinePending = [] }
                if state.inlinePending.isEmpty { state.inlineThread = nil }
                return state.inlinePending
            }
            if pending.isEmpty { return }
            for work in pending { work() }
        }
    }
}

/// A service thread a `TransportHost` runs on, for its reads without a lock.
private final class HostingThread: Sendable {
    let server: WebSocketServer
    let index: Int

    init(server: WebSocketServer, index: Int) {
        self.server = server
        self.index = index
    }
}

/// Carries a non-escaping `sync` body to the host's thread and its result back. The body is
/// let go of as it runs, before the caller is signalled: `withoutActuallyEscaping` traps if
/// anything still holds it when the caller's wait ends.
private final class ResultBox<T, E: Error>: @unchecked Sendable {
    private var work: (() throws(E) -> T)?
    var result: Result<T, E>?

    init(_ work: @escaping () throws(E) -> T) { self.work = work }

    func run() {
        guard let work else { return }
        self.work = nil
        do throws(E) { result = .success(try work()) } catch { result = .failure(error) }
    }
}
