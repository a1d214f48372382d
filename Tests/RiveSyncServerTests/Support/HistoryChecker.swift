import RiveSyncJSON

/// Checks a recorded history of clients against the invariants of TESTING.md §4 for a single
/// sequencer: agreement, per-session contiguity, no lost acks, no phantoms, session FIFO.
/// Histories are JSON lines (`client`, `kind`, …) so another checker can read them too.
struct HistoryChecker {
    /// One event. `kind`: `invoke` / `ok` / `fail` / `info` for requests (`op` names the
    /// client's operation; `ok` carries the ack's `command` and `seq`), `start` for a
    /// subscription that starts at `seq` (a snapshot, or a resume from a cursor), `batch` for a
    /// delivered batch (`seq`, `commands`, `effects` hash).
    typealias Event = JSONValue

    private(set) var events: [Event] = []

    mutating func record(_ event: Event) { events.append(event) }

    var jsonLines: String { events.map(\.jsonText).joined(separator: "\n") }

    /// The violations found (empty when the history is valid).
    func violations() -> [String] {
        var problems: [String] = []
        var agreed: [Int: (commands: String, effects: String)] = [:]
        var expectedNext: [String: Int] = [:]
        var acked: [Int: Int] = [:]
        var lastAckSeq: [String: Int] = [:]
        var delivered: Set<Int> = []
        var outcomes: [String: String] = [:]
        for event in events {
            let client = event["client"]?.stringValue ?? "?"
            let seq = event["seq"]?.intValue ?? -1
            switch event["kind"]?.stringValue {
            case "start":
                expectedNext[client] = seq + 1
            case "batch":
                let commands = event["commands"]?.jsonText ?? ""
                let effects = event["effects"]?.stringValue ?? ""
                if let known = agreed[seq] {
                    if known.commands != commands || known.effects != effects {
                        problems.append(
                            "agreement: \(client) saw seq \(seq) as \(commands) / \(effects), another client as \(known.commands) / \(known.effects)"
                        )
                    }
                } else {
                    agreed[seq] = (commands, effects)
                }
                if let next = expectedNext[client], next != seq {
                    problems.append("contiguity: \(client) expected seq \(next), got \(seq)")
                }
                expectedNext[client] = seq + 1
                for command in event["commands"]?.arrayValue ?? [] { delivered.insert(command.intValue ?? -1) }
            case "ok":
                let command = event["command"]?.intValue ?? -1
                acked[command] = seq
                outcomes[event["op"]?.stringValue ?? ""] = "ok"
                if let last = lastAckSeq[client], seq < last {
                    problems.append("session FIFO: \(client) got an ack for seq \(seq) after one for seq \(last)")
                }
                lastAckSeq[client] = seq
            case "fail", "info":
                outcomes[event["op"]?.stringValue ?? ""] = event["kind"]?.stringValue
            default:
                break
            }
        }
        for (command, seq) in acked {
            guard let batch = agreed[seq] else { continue }
            if !batch.commands.contains(String(command)) {
                problems.append("lost ack: command \(command) acked at seq \(seq), which applied \(batch.commands)")
            }
        }
        let unknown = outcomes.values.filter { $0 == "info" }.count
        let phantoms = delivered.subtracting(acked.keys)
        if phantoms.count > unknown {
            problems.append(
                "phantoms: \(phantoms.count) commands were applied without an ack but only \(unknown) requests had an unknown outcome")
        }
        return problems
    }
}
