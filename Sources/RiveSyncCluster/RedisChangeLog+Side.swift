import Dispatch
import RiveSyncClusterCore
import RiveSyncCore
import RiveSyncRedis

/// The single commands of the log — lease renewals, the starting node's pin, snapshots and
/// trims, voids, the epoch's renewal — on `sideQueue` and its one connection. Each answer the
/// core decides on goes back to it as an event; a failure is counted (and, for a snapshot,
/// reported), and leaves the connection to be made anew when it closed it.
extension RedisChangeLog {
    /// Runs `command` on the side connection (on `sideQueue`), a new one when Redis closed the
    /// last while it was idle (a restart): the command is not lost on a connection found dead.
    private func sideCommand(_ command: [RedisArgument]) throws(RedisError) -> RedisReply {
        Self.confined(to: sideQueue)
        do throws(RedisError) {
            if !(sideConnection?.isOpenWhileIdle() ?? false) {
                sideConnection?.close()
                sideConnection = try RedisConnection(settings.endpoint, timeout: settings.timeout)
            }
            return try sideConnection!.command(command)
        } catch {
            metrics.redisErrors.add(1, ordering: .relaxed)
            if error.closesConnection { sideConnection = nil }
            throw error
        }
    }

    /// Renews the lease of `token` (CLUSTER.md §2.8), and reads the stream's length for `/metrics`.
    func renewLease(token: String, generation: Int) {
        sideQueue.async { [self] in
            let sentAt = Self.clock()
            let event: ClusterEvent
            do throws(RedisError) {
                let renewed = try sideCommand([
                    "EVAL", RedisArgument(ClusterScripts.renew), 1, RedisArgument(settings.keys.lease(of: settings.node)),
                    RedisArgument(token), Self.milliseconds(settings.lease),
                ]).integer()
                event = .leaseRenewed(generation: generation, sentAt: sentAt, held: renewed == 1, now: Self.clock())
            } catch {
                event = .leaseRenewalFailed(now: Self.clock())
            }
            deliver { [self] in handle(event) }
            if let length = try? sideCommand(["XLEN", RedisArgument(settings.keys.log)]).integer() {
                metrics.streamEntries.store(Int(length), ordering: .relaxed)
            }  // a failure is counted, and only leaves the gauge as it was
        }
    }

    /// Read past the snapshots: trims may cut where this node started (a failure leaves the
    /// pin to expire).
    func unpin() {
        sideQueue.async { [self] in
            _ = try? sideCommand(["HDEL", RedisArgument(settings.keys.pins), RedisArgument(settings.node)])
        }  // counted; the pin expires by itself
    }

    /// Writes the snapshots taken at `upTo` and trims the stream (a failure keeps the longer
    /// log, and is counted and reported).
    func storeSnapshots(upTo: RedisStreamID) {
        var arguments: [RedisArgument] = [
            "EVAL", RedisArgument(ClusterScripts.storeSnapshots), 8, RedisArgument(settings.keys.snapshots),
            RedisArgument(settings.keys.snapshotIDs), RedisArgument(settings.keys.files), RedisArgument(settings.keys.log),
            RedisArgument(settings.keys.trims), RedisArgument(settings.keys.trimPoint), RedisArgument(settings.keys.pins),
            RedisArgument(settings.keys.voided), upTo.argument,
        ]
        for pending in pendingSnapshots {
            arguments += [
                RedisArgument(pending.file), RedisArgument(bytes: pending.snapshot.serialized()),
                RedisArgument(bytes: pending.header.serialized()),
            ]
        }
        pendingSnapshots = []
        sideQueue.async { [self, arguments] in
            do throws(RedisError) { _ = try sideCommand(arguments) } catch { deliver { [self] in onEvent?(.snapshotFailed(error)) } }
        }
    }

    /// Voids this node's entries whose `WAIT` timed out, unless a node confirmed them first
    /// (CLUSTER.md §3.6), and tells the core which were voided. A failure answers none: the
    /// entries are read again, and confirmed or voided then.
    func void(_ entries: [(ticket: UInt64, at: LogPosition)]) {
        sideQueue.async { [self] in
            let voided: Set<RedisStreamID>
            do throws(RedisError) {
                voided = try Self.ids(
                    sideCommand(
                        [
                            "EVAL", RedisArgument(ClusterScripts.void), 2, RedisArgument(settings.keys.confirmed),
                            RedisArgument(settings.keys.voided),
                        ] + entries.map { RedisStreamID($0.at).argument }))
            } catch {
                return
            }
            deliver { [self] in
                for entry in entries {
                    handle(.voidAnswered(ticket: entry.ticket, voided: voided.contains(RedisStreamID(entry.at)), now: Self.clock()))
                }
            }
        }
    }

    /// Gives the cluster a new epoch, unless another node did (on `sideQueue`; a failure leaves
    /// the epoch to the restarted nodes' `SET NX` or to another node).
    func renewEpoch() {
        // Ignored: see above; the failure is counted by `sideCommand`.
        _ = try? sideCommand([
            "EVAL", RedisArgument(ClusterScripts.renewEpoch), 1, RedisArgument(settings.keys.epoch), RedisArgument(epoch),
            RedisArgument(newEpoch()),
        ])
    }

    /// The ids a script returned.
    static func ids(_ reply: RedisReply) throws(RedisError) -> Set<RedisStreamID> {
        var ids: Set<RedisStreamID> = []
        for element in try reply.array() ?? [] {
            if let text = try element.string() { ids.insert(try RedisStreamID(text)) }
        }
        return ids
    }
}

extension RedisStreamID {
    /// The stream id of a log position.
    init(_ position: LogPosition) { self.init(milliseconds: position.milliseconds, sequence: position.sequence) }
}
