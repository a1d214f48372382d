extension RiveSyncBridge {
    /// What the bridge knows of one bridged value.
    final class ValueSlot {
        /// The value the local instance has unless something else changed it: the last value
        /// the bridge gave it, or the local change it last sent.
        var expected: LocalValue?
        /// A write of this value to the daemon is in flight (remote values wait for its end).
        var sending = false
        /// A local change made while a write was in flight: sent next (latest wins).
        var queued: LocalValue?
    }

    func bridgeValue(_ mirror: Mirror, _ property: String, _ kind: LocalValue.Kind) {
        let slot = ValueSlot()
        let remoteValues = target.valueStream(at: mirror.path(property), includingCurrent: true)
        follow(mirror) { [weak self] in
            for try await value in remoteValues {
                guard let self, let value = LocalValue(value) else { continue }
                self.remoteValue(value, slot, mirror, property)
            }
        }
        guard forwardsLocalChanges else { return }
        let localChanges = mirror.local.valueStream(at: property, kind: kind)
        follow(mirror) { [weak self] in
            for try await _ in localChanges {
                // The stream's element may be an echo or stale; the read comes after every
                // call made before it, so it is the local value now.
                let now = try await mirror.local.value(at: property, kind: kind)
                self?.localValue(now, slot, mirror, property)
            }
        }
    }

    private func remoteValue(_ value: LocalValue, _ slot: ValueSlot, _ mirror: Mirror, _ property: String) {
        guard !slot.sending, value != slot.expected else { return }
        slot.expected = value
        mirror.local.setValue(value, at: property)
        countLocalWrite()
    }

    private func localValue(_ value: LocalValue, _ slot: ValueSlot, _ mirror: Mirror, _ property: String) {
        guard value != slot.expected else { return }
        slot.expected = value
        send(value, slot, mirror, property)
    }

    /// Writes a local change to the daemon, one write per property in flight; then settles on
    /// the daemon's value, which may be another app's newer write.
    private func send(_ value: LocalValue, _ slot: ValueSlot, _ mirror: Mirror, _ property: String) {
        guard !slot.sending else {
            slot.queued = value
            return
        }
        slot.sending = true
        follow(mirror) { [weak self, target] in
            try await target.setValue(at: mirror.path(property), to: value.dynamic)
            guard let self else { return }
            self.countRemoteWrite()
            slot.sending = false
            if let next = slot.queued {
                slot.queued = nil
                self.send(next, slot, mirror, property)
                return
            }
            if let now = LocalValue(try await target.value(at: mirror.path(property)).value) {
                self.remoteValue(now, slot, mirror, property)
            }
        }
    }
}
