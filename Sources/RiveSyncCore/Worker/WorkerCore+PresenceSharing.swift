import RiveSyncModel

extension WorkerCore {
    /// A cluster node starts sharing presence: it asks the others for their members and
    /// announces itself every third of its lease from now on.
    func presenceSharingStarted() {
        guard let sharing = settings.presenceSharing else { return }
        outbox.append(.sharePresence(.hello))
        outbox.append(.schedule(.presencePeers, at: environment.now() &+ sharing.leaseNanoseconds / 3))
    }

    /// Every third of the lease: this node says it is there, and nodes silent for two thirds
    /// of a lease (two announcements missed) are given up — so at most a lease after their last
    /// word — and their members start their grace periods here.
    func presencePeersDue() {
        guard let sharing = settings.presenceSharing else { return }
        let now = environment.now()
        outbox.append(.sharePresence(.alive))
        applyAwaitingPresence(now: now, lease: sharing.leaseNanoseconds)
        for node in presencePeers.silent(now: now, timeout: sharing.leaseNanoseconds / 3 * 2) {
            outbox.append(.log(.warning, "a cluster node went silent; its presence members leave after the grace period", [("node", node)]))
            for name in targets.keys.sorted() {
                preparePresence(name)
                if let deadline = targets[name]!.presence.members.nodeLost(node, now: now) { scheduleGrace(name, at: deadline) }
            }
        }
        outbox.append(.schedule(.presencePeers, at: now &+ sharing.leaseNanoseconds / 3))
    }

    /// Another node's announcement (never this node's own).
    func presenceAnnounced(by node: String, _ announcement: PresenceAnnouncement) {
        guard settings.presenceSharing != nil else { return }
        let now = environment.now()
        if presencePeers.heard(node, now: now) { outbox.append(.sharePresence(.hello)) }
        switch announcement {
        case .alive: break
        case .hello:
            for name in targets.keys.sorted() {
                let members = targets[name]!.presence.members.shared(now: now)
                if !members.isEmpty { outbox.append(.sharePresence(.members(target: name, members: members, left: []))) }
            }
        case .members(let target, let members, let left):
            // The target's record may still be on its way in the cluster's log.
            guard targets[target] != nil else {
                presenceAwaiting[target, default: [:]][node] = (announcement, now)
                return
            }
            preparePresence(target)
            targets[target]!.presence.members.applyRemote(node: node, members: members, left: left, now: now)
            schedulePresenceMessage(target)
        }
    }

    /// Announcements of targets that were not there yet: applied now for those that are,
    /// dropped when a lease old (the target is not coming).
    private func applyAwaitingPresence(now: UInt64, lease: UInt64) {
        let awaiting = presenceAwaiting
        presenceAwaiting = [:]
        for (target, byNode) in awaiting.sorted(by: { $0.key < $1.key }) {
            for (node, entry) in byNode.sorted(by: { $0.key < $1.key }) {
                if targets[target] != nil {
                    presenceAnnounced(by: node, entry.announcement)
                } else if now &- entry.at < lease {
                    presenceAwaiting[target, default: [:]][node] = entry
                }
            }
        }
    }

    /// Sets a target's presence limits (a reload may change them) and, on a cluster node, the
    /// numbering of its members by the node's slot.
    func preparePresence(_ target: String) {
        targets[target]!.presence.members.limits = settings.limits.presence
        if let sharing = settings.presenceSharing {
            targets[target]!.presence.members.numbering = (sharing.slots, sharing.slot)
        }
    }

    /// The digest a cluster node announces a member's key by (its identity and key; the key
    /// itself never leaves this node); empty on a single node.
    func presenceKeyDigest(owner: PresenceOwner, key: String) -> String {
        guard settings.presenceSharing != nil else { return "" }
        let identity: String
        switch owner {
        case .anonymous: identity = "anonymous"
        case .token(let name): identity = "token:" + name
        }
        return environment.sha256Hex(Array(identity.utf8) + [0] + Array(key.utf8))
    }

    /// What the other nodes should learn of this node's members of `target`, when they changed.
    func announcePresence(_ target: String, now: UInt64) {
        guard settings.presenceSharing != nil,
            let (members, left) = targets[target]!.presence.members.takeAnnouncement(now: now)
        else { return }
        outbox.append(.sharePresence(.members(target: target, members: members, left: left)))
    }
}
