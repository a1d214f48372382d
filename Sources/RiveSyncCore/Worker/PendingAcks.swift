extension WorkerCore {
    /// The senders a target's queued commands answer once applied, by command number.
    ///
    /// A worker numbers its commands upward, so they arrive here in increasing order, and a
    /// batch answers its commands in the order they were queued: an array kept in number
    /// order and found by binary search, its answered entries dropped from the front — not a
    /// dictionary, which hashed every command's number twice (when queued, when answered).
    struct PendingAcks {
        private var entries: [(number: UInt64, ack: PendingAck?)] = []
        /// Entries before it are answered.
        private var head = 0
        /// How many wait.
        private(set) var count = 0

        var isEmpty: Bool { count == 0 }

        /// The sender waiting for command `number`; setting nil removes it.
        subscript(number: UInt64) -> PendingAck? {
            get { position(of: number).flatMap { entries[$0].ack } }
            set {
                if let newValue {
                    add(newValue, for: number)
                } else {
                    _ = removeValue(forKey: number)
                }
            }
        }

        /// Removes and returns the sender waiting for command `number`.
        mutating func removeValue(forKey number: UInt64) -> PendingAck? {
            guard let position = position(of: number), let ack = entries[position].ack.take() else { return nil }
            count -= 1
            dropAnswered()
            return ack
        }

        /// Removes every sender `shouldRemove` picks.
        mutating func removeAll(where shouldRemove: (PendingAck) -> Bool) {
            for position in head..<entries.count {
                guard let ack = entries[position].ack, shouldRemove(ack) else { continue }
                entries[position].ack = nil
                count -= 1
            }
            dropAnswered()
        }

        /// Moves `head` past the answered entries at the front; lets them go once they are
        /// all answered, or half of the array.
        private mutating func dropAnswered() {
            while head < entries.count, entries[head].ack == nil { head += 1 }
            if head == entries.count {
                entries.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 16, head * 2 >= entries.count {
                entries.removeFirst(head)
                head = 0
            }
        }

        private mutating func add(_ ack: PendingAck, for number: UInt64) {
            if let position = position(of: number) {
                if entries[position].ack == nil { count += 1 }
                entries[position].ack = ack
                return
            }
            count += 1
            // Numbers come in increasing order; one that does not is put in its place.
            guard let last = entries.last, last.number > number else { return entries.append((number, ack)) }
            entries.insert((number, ack), at: insertionPoint(of: number))
        }

        /// Where command `number` is among the entries waiting or answered after `head`.
        private func position(of number: UInt64) -> Int? {
            let position = insertionPoint(of: number)
            return position < entries.count && entries[position].number == number ? position : nil
        }

        /// The first position from `head` whose number is not below `number`.
        private func insertionPoint(of number: UInt64) -> Int {
            var (low, high) = (head, entries.count)
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].number < number { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }
}
