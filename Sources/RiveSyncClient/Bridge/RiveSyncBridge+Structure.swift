extension RiveSyncBridge {
    /// Fires both ways. A remote fire fires the local trigger once per batch that fired it
    /// (Rive merges fires processed together); the local stream's report of that fire is
    /// then not sent back. A local fire is sent once. Without `forwardsLocalChanges`, only
    /// clients' fires reach the local trigger (`bridgeClientFires`).
    func bridgeTrigger(_ mirror: Mirror, _ property: String) {
        guard forwardsLocalChanges else { return bridgeClientFires(mirror, property) }
        var lastCount: UInt64?
        var ownUnseen = 0
        var echoes = 0
        let remoteCounts = target.valueStream(at: mirror.path(property), includingCurrent: true)
        let localFires = mirror.local.triggerStream(at: property)
        follow(mirror) { [weak self] in
            for try await value in remoteCounts {
                guard let self, case .trigger(let count) = value else { continue }
                defer { lastCount = count }
                guard let last = lastCount, count > last else { continue }
                let fires = Int(count - last)
                let own = min(fires, ownUnseen)
                ownUnseen -= own
                guard fires > own else { continue }
                echoes += 1
                mirror.local.fire(at: property)
                self.countLocalWrite()
            }
        }
        follow(mirror) { [weak self, target] in
            for try await _ in localFires {
                guard let self else { return }
                if echoes > 0 {
                    echoes -= 1
                    continue
                }
                ownUnseen += 1
                try await target.fire(at: mirror.path(property))
                self.countRemoteWrite()
            }
        }
    }

    /// The daemon's state machine decides: a batch in which a client fired the trigger fires
    /// the local one once; a fire the daemon's state machine made is left to the local state
    /// machine, which makes it too; local fires stay local.
    private func bridgeClientFires(_ mirror: Mirror, _ property: String) {
        let batches = target.batches()
        follow(mirror) { [weak self] in
            for try await batch in batches {
                guard let self else { return }
                let fired = batch.fires.contains { $0.instance == mirror.id && $0.property == property && $0.origin == .command }
                guard fired else { continue }
                mirror.local.fire(at: property)
                self.countLocalWrite()
            }
        }
    }

    /// A nested instance follows the daemon: the local nested instance at binding stands for
    /// the daemon's; a replacement puts the local instance of the new one in its place.
    func bridgeNested(_ mirror: Mirror, _ property: String) {
        let remoteValues = target.valueStream(at: mirror.path(property), includingCurrent: true)
        follow(mirror) { [weak self] in
            var first = true
            for try await value in remoteValues {
                guard let self, case .viewModel(let child) = value else { continue }
                defer { first = false }
                mirror.children[property] = child.map { [$0] } ?? []
                guard let child else {
                    self.collect()
                    continue
                }
                if first, self.mirrors[child] == nil {
                    try await self.mirror(child, mirror.local.instance(at: property))
                } else {
                    mirror.local.setInstance(try await self.localInstance(forRemote: child), at: property)
                    self.countLocalWrite()
                }
                self.collect()
            }
        }
    }

    /// A list follows the daemon: at binding the local list is emptied and filled with the
    /// local instances of the daemon's items; each change is made with the fewest removals,
    /// swaps and inserts that turn the local list into the daemon's.
    func bridgeList(_ mirror: Mirror, _ property: String) {
        let remoteValues = target.valueStream(at: mirror.path(property), includingCurrent: true)
        follow(mirror) { [weak self] in
            var current: [UInt64]?
            for try await value in remoteValues {
                guard let self, case .list(let items) = value else { continue }
                if current == nil {
                    for _ in 0..<(try await mirror.local.size(of: property)) { mirror.local.removeInstance(at: 0, from: property) }
                    current = []
                }
                current = try await self.edit(mirror, property, from: current!, to: items)
                mirror.children[property] = items
                self.collect()
            }
        }
    }

    private func edit(_ mirror: Mirror, _ property: String, from old: [UInt64], to new: [UInt64]) async throws -> [UInt64] {
        var list = old
        var wanted: [UInt64: Int] = [:]
        for item in new { wanted[item, default: 0] += 1 }
        var kept: [UInt64: Int] = [:]
        for index in list.indices {
            kept[list[index], default: 0] += 1
        }
        for index in list.indices.reversed() where kept[list[index], default: 0] > wanted[list[index], default: 0] {
            kept[list[index]]! -= 1
            mirror.local.removeInstance(at: Int32(index), from: property)
            list.remove(at: index)
            countLocalWrite()
        }
        for index in new.indices {
            if index < list.count, list[index] == new[index] { continue }
            if let other = list.indices.first(where: { $0 > index && list[$0] == new[index] }) {
                mirror.local.swapInstance(atIndex: Int32(index), withIndex: Int32(other), in: property)
                list.swapAt(index, other)
            } else {
                mirror.local.insertInstance(try await localInstance(forRemote: new[index]), to: property, at: Int32(index))
                list.insert(new[index], at: index)
            }
            countLocalWrite()
        }
        return list
    }
}
