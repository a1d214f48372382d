import CWebSockets

/// The C memory a service loop lends to its lws context for the context's whole life: the
/// protocol table, the ping/idle policy, the shutdown timer and the strings they point at.
/// Shared by `ServerLoop` and `ClientLoop`; freed when the loop is.
final class LoopAllocations {
    /// Strings handed to lws (protocol name, interface, certificate paths).
    let arena = CStringArena()
    /// One protocol and the zeroed terminator.
    let protocols: UnsafeMutablePointer<lws_protocols>
    let retryPolicy: UnsafeMutablePointer<lws_retry_bo_t>
    let shutdownTimer: UnsafeMutablePointer<rs_timer_t>
    /// Wakes a libev loop so lws runs its own timeouts that fell due (see `rs_sul_pump_t`).
    let sulPump: UnsafeMutablePointer<rs_sul_pump_t>
    /// Runs lws' idle work on a libev loop before each poll (see `rs_idle_driver_t`).
    let idleDriver: UnsafeMutablePointer<rs_idle_driver_t>
    /// Whether `serve` found lws' idle watcher and runs it before each poll (a libev loop only).
    private(set) var drivesLwsIdle = false

    typealias Callback =
        @convention(c) (OpaquePointer?, lws_callback_reasons, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int) -> Int32

    init(
        protocolName: String, callback: Callback, rxBufferSize: Int, txPacketSize: Int,
        pingIntervalSeconds: Int, idleTimeoutSeconds: Int
    ) {
        protocols = .allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        protocols[0].name = UnsafePointer(arena.dup(protocolName))
        protocols[0].callback = callback
        protocols[0].rx_buffer_size = rxBufferSize
        protocols[0].tx_packet_size = txPacketSize
        retryPolicy = .allocate(capacity: 1)
        retryPolicy.initialize(to: lws_retry_bo_t())
        retryPolicy.pointee.secs_since_valid_ping = UInt16(pingIntervalSeconds)
        retryPolicy.pointee.secs_since_valid_hangup = UInt16(idleTimeoutSeconds)
        shutdownTimer = .allocate(capacity: 1)
        shutdownTimer.initialize(to: rs_timer_t())
        sulPump = .allocate(capacity: 1)
        sulPump.initialize(to: rs_sul_pump_t())
        idleDriver = .allocate(capacity: 1)
        idleDriver.initialize(to: rs_idle_driver_t())
    }

    deinit {
        protocols.deallocate()
        retryPolicy.deallocate()
        shutdownTimer.deallocate()
        sulPump.deallocate()
        idleDriver.deallocate()
    }

    /// Runs `context` until `finished()` (checked after each service round) or an lws error,
    /// then closes `inbox` (handing what it still held to `undrained`), cancels the shutdown
    /// timer and destroys the context. With
    /// `eventLoop` (the context's foreign libev loop), runs that loop instead until its owner
    /// breaks it (`rs_ev_break`), with the shutdown timer on it (`rs_timer_t.loop`), lws' own
    /// timeouts woken every 250 ms and lws' idle work run before each poll (`rs_idle_driver_t`:
    /// without it every socket event cost one more, empty, `epoll_wait`), and destroys the loop
    /// after the context.
    /// `beforePoll(owner)` (a libev loop only) runs each time the loop is about to poll, before
    /// lws' idle work.
    func serve<Input>(
        _ context: OpaquePointer, inbox: Inbox<Input>, eventLoop: UnsafeMutableRawPointer? = nil,
        beforePoll: (owner: UnsafeMutableRawPointer, run: @convention(c) (UnsafeMutableRawPointer?) -> Void)? = nil,
        undrained: ([Input]) -> Void = { _ in }, until finished: () -> Bool
    ) {
        if let eventLoop {
            shutdownTimer.pointee.loop = eventLoop
            rs_sul_pump_start(eventLoop, sulPump, context, 0.25)
            drivesLwsIdle = rs_idle_driver_start(eventLoop, idleDriver, context, beforePoll?.run, beforePoll?.owner)
            if !drivesLwsIdle {
                TransportLog.log(.warning, "lws' idle watcher not found: each socket event costs one more epoll_wait")
            }
            if !finished() { rs_ev_run(eventLoop) }
            rs_idle_driver_stop(eventLoop, idleDriver)
            drivesLwsIdle = false
            rs_sul_pump_stop(eventLoop, sulPump)
        } else {
            while !finished() {
                if lws_service(context, 0) < 0 { break }
            }
        }
        undrained(inbox.close())
        rs_timer_cancel(shutdownTimer)
        lws_context_destroy(context)
        if let eventLoop {
            shutdownTimer.pointee.loop = nil
            rs_ev_loop_destroy(eventLoop)
        }
    }
}
