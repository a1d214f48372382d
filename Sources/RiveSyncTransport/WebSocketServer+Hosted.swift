#if canImport(Glibc)
    import Glibc
#endif

/// Work hosted on the service threads: the daemon runs each of its workers on one of them, so
/// that a request, a timer and the sends they make cross no thread when the worker's
/// connections are on its thread (bench/README.md, hosted workers).
///
/// On service thread `t`, hosted work runs at the end of the lws callback that posted or
/// drained it (a receive, a close, the inbox's wakeup, the hosted timer), after the callback's
/// own work and in the order posted; from any other thread it goes through `t`'s inbox (one
/// wakeup). Commands a service thread submits for its own sessions are applied at once, with
/// no lock and no wakeup, and written at the end of the callback. Whatever other threads
/// submitted to the thread before is applied first, so the thread's own commands and work
/// never overtake theirs.
extension WebSocketServer {
    /// How many service threads the server has (one per `Configuration.serviceThreads`).
    public var serviceThreadCount: Int { inboxes.count }

    /// Whether the caller runs on service thread `thread` of this server.
    public func isServiceThread(_ thread: Int) -> Bool { ownLoop()?._withUnsafeGuaranteedRef { $0.index } == thread }

    /// Runs `work` on service thread `thread`: at the end of the current callback when called
    /// there, else after the thread's next wakeup. False (and `work` dropped) when the thread
    /// does not run: not started, or stopping (work posted just before a stop may be dropped
    /// too; the caller keeps what it must not lose).
    @discardableResult
    public func run(onThread thread: Int, _ work: @escaping @Sendable () -> Void) -> Bool {
        if let loop = ownLoop() {
            let hosted = loop._withUnsafeGuaranteedRef { loop in
                guard loop.index == thread else { return false }
                loop.host(work)
                return true
            }
            if hosted { return true }
            metrics.threadHops.wrappingAdd(1, ordering: .relaxed)
        }
        return inboxes[thread].submit(CollectionOfOne(.run(work)))
    }

    /// Runs `work` on service thread `thread` once `nanoseconds` have passed (the thread's
    /// own lws timer, set to the earliest of its pending timers). Call it on that thread;
    /// false when called elsewhere or once the thread is stopping (nothing is scheduled).
    public func schedule(onThread thread: Int, afterNanoseconds nanoseconds: UInt64, _ work: @escaping @Sendable () -> Void) -> Bool {
        guard let loop = ownLoop() else { return false }
        return loop._withUnsafeGuaranteedRef { $0.index == thread && $0.schedule(after: nanoseconds, work) }
    }

    /// The loop of this server served by the calling thread, if it is one of them; lent, not
    /// retained (it outlives the thread's run; every submit and post from the thread asks).
    func ownLoop() -> Unmanaged<ServerLoop>? {
        guard let lent = pthread_getspecific(loopKey).map({ Unmanaged<ServerLoop>.fromOpaque($0) }),
            lent._withUnsafeGuaranteedRef({ $0.index < inboxes.count && inboxes[$0.index] === $0.inbox })
        else { return nil }
        return lent
    }

    /// `submit` from service thread `loop`: its own sessions' commands applied at once, the
    /// rest through the other threads' inboxes.
    func submit(_ commands: [Command], from loop: ServerLoop) -> Bool {
        var remote: [Command] = []
        for command in commands {
            // Decided without binding what the command carries: each binding copied it (a
            // retain and a release of its payload's owner or its list of ids, per command).
            if concernsOnly(command, thread: loop.index) {
                loop.applyOwn(command)
                continue
            }
            switch command {
            case .send(let payload, let ids):
                var own: [SessionID] = []
                var others: [SessionID] = []
                for id in ids {
                    if thread(of: id) == loop.index { own.append(id) } else { others.append(id) }
                }
                if !own.isEmpty { loop.applyOwn(.send(payload, to: SessionIDs(own))) }
                if !others.isEmpty { remote.append(.send(payload, to: SessionIDs(others))) }
            case .close, .replaceQueue, .handled, .adopt, .reloadCertificates:
                remote.append(command)
            }
        }
        guard !remote.isEmpty else { return true }
        metrics.threadHops.wrappingAdd(1, ordering: .relaxed)
        return submitToInboxes(remote, countedOn: loop.stripe)
    }

    /// Whether every session `command` concerns lives on service thread `thread` (always so
    /// for a send with one thread); false for `adopt` and `reloadCertificates`, which go
    /// through the inboxes.
    private func concernsOnly(_ command: Command, thread index: Int) -> Bool {
        switch command {
        case .send(_, let ids): inboxes.count == 1 || ids.allSatisfy { thread(of: $0) == index }
        case .close(let id, _, _), .replaceQueue(let id, _), .handled(let id): thread(of: id) == index
        case .adopt, .reloadCertificates: false
        }
    }
}
