import BenchLoadKit

/// The one-line JSON result of a generator process (read by `bench/run.py`).
struct Report {
    let options: Options
    let ready: Int
    let sent: Int
    let cpuSeconds: Double
    let tally: Collector.Tally

    var json: String {
        let latency = tally.latency
        let buckets = latency.counts.enumerated().filter { $0.element > 0 }.map { "[\($0.offset),\($0.element)]" }
        let fields: [(String, String)] = [
            ("peer", quoted(options.peer.rawValue)), ("engine", quoted(options.engine.rawValue)),
            ("subscribers", "\(options.subscribers)"), ("writers", "\(options.writers)"),
            ("ready", "\(ready)"), ("rate", "\(options.rate)"), ("duration", "\(options.duration)"), ("sent", "\(sent)"),
            ("received", "\(tally.received)"), ("receivedInWindow", "\(tally.receivedInWindow)"), ("gaps", "\(tally.gaps)"),
            ("orderViolations", "\(tally.orderViolations)"), ("messages", "\(tally.messages)"), ("bytes", "\(tally.bytes)"),
            ("cpuSeconds", "\(cpuSeconds)"), ("p50Ns", "\(latency.quantile(0.5))"), ("p99Ns", "\(latency.quantile(0.99))"),
            ("maxNs", "\(latency.maxValue)"), ("histogram", "[" + buckets.joined(separator: ",") + "]"),
            ("errors", "[" + tally.errors.map(quoted).joined(separator: ",") + "]"),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    private func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
