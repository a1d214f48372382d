import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The operator's monitoring kit in `ops/`: the Grafana dashboard is a dashboard Grafana loads
/// (its schema checked here) whose queries name only metrics a real cluster node exports, and
/// the Prometheus alert rules pass `promtool check rules` and name only exported metrics too.
@Suite(.serialized) struct MonitoringTests {
    static let dashboardPath = DaemonProcess.packageRoot + "/ops/grafana/rivesync-dashboard.json"
    static let rulesPath = DaemonProcess.packageRoot + "/ops/prometheus/rivesync-alerts.yml"

    /// Every metric name a cluster node (the demo on a real redis-server) exports on `/metrics`,
    /// a histogram's `_bucket`, `_sum` and `_count` series included, and Prometheus' own `up`.
    static func exportedMetricNames() async throws -> Set<String> {
        let started = try await offThePool { try ClusterNodes(count: 1) }
        let body = try await stopping(started) { cluster in
            let url = try #require(URL(string: "http://127.0.0.1:\(cluster.node(0).port)/metrics"))
            return try await URLSession.shared.data(from: url).0
        }
        var names: Set<String> = ["up"]
        for line in String(decoding: body, as: UTF8.self).split(separator: "\n") where line.hasPrefix("# TYPE ") {
            let fields = line.split(separator: " ")
            guard fields.count == 4 else { continue }
            let name = String(fields[2])
            names.insert(name)
            if fields[3] == "histogram" { names.formUnion(["_bucket", "_sum", "_count"].map { name + $0 }) }
        }
        return names
    }

    /// The metric names in a PromQL expression (ours and the process collector's).
    static func metricNames(in expression: String) -> Set<String> {
        Set(expression.matches(of: #/\b(up|(rivesync|process)_[a-z_]*[a-z])\b/#).map { String($0.output.1) })
    }

    static func dashboard() throws -> JSONValue {
        let data = try #require(FileManager.default.contents(atPath: dashboardPath), "missing \(dashboardPath)")
        return try JSONParser().parse([UInt8](data))
    }

    @Test func theDashboardHasGrafanasShape() throws {
        let dashboard = try Self.dashboard()
        #expect(dashboard["title"]?.stringValue == "RiveSync")
        #expect(dashboard["uid"]?.stringValue?.isEmpty == false)
        #expect((dashboard["schemaVersion"]?.intValue ?? 0) >= 36, "a schema version current Grafana reads without migrating")
        let variables = try #require(dashboard["templating"]?["list"]?.arrayValue)
        #expect(variables.compactMap { $0["name"]?.stringValue } == ["datasource", "job", "instance"])
        let panels = try #require(dashboard["panels"]?.arrayValue)
        var ids: Set<Int> = []
        for panel in panels {
            let title = panel["title"]?.stringValue ?? ""
            let id = try #require(panel["id"]?.intValue, "panel \(title): no id")
            #expect(ids.insert(id).inserted, "panel id \(id) twice")
            #expect(!title.isEmpty, "panel \(id): no title")
            let type = panel["type"]?.stringValue ?? ""
            #expect(["row", "timeseries", "stat"].contains(type), "panel \(title): type \(type)")
            let grid = try #require(panel["gridPos"], "panel \(title): no gridPos")
            let (x, w, h) = (grid["x"]?.intValue ?? -1, grid["w"]?.intValue ?? 0, grid["h"]?.intValue ?? 0)
            #expect(x >= 0 && w > 0 && h > 0 && x + w <= 24 && grid["y"]?.intValue != nil, "panel \(title): gridPos \(grid.jsonText)")
            if type == "row" { continue }
            let targets = try #require(panel["targets"]?.arrayValue, "panel \(title): no targets")
            #expect(!targets.isEmpty, "panel \(title): no queries")
            let references = targets.compactMap { $0["refId"]?.stringValue }
            #expect(Set(references).count == targets.count, "panel \(title): refIds \(references)")
            for target in targets {
                #expect(target["expr"]?.stringValue?.isEmpty == false, "panel \(title): a query without expr")
                #expect(target["datasource"]?["uid"]?.stringValue == "${datasource}", "panel \(title): not on the datasource variable")
            }
        }
    }

    @Test func theDashboardAndTheAlertsNameOnlyExportedMetrics() async throws {
        let exported = try await Self.exportedMetricNames()
        let panels = try #require(try Self.dashboard()["panels"]?.arrayValue)
        var queried: Set<String> = []
        for panel in panels {
            for target in panel["targets"]?.arrayValue ?? [] {
                let expression = try #require(target["expr"]?.stringValue)
                let names = Self.metricNames(in: expression)
                #expect(!names.isEmpty, "\(panel["title"]?.stringValue ?? ""): no metric in \(expression)")
                #expect(names.isSubset(of: exported), "\(panel["title"]?.stringValue ?? ""): not exported: \(names.subtracting(exported))")
                queried.formUnion(names)
            }
        }
        // What the operator asked for: connections, batches/s, latency, errors by code, cluster lag.
        for name in [
            "rivesync_transport_connections", "rivesync_batches_total", "rivesync_advance_duration_seconds_bucket",
            "rivesync_errors_total", "rivesync_cluster_log_lag_seconds_sum",
        ] {
            #expect(queried.contains(name), "the dashboard does not show \(name)")
        }

        let rules = try String(contentsOfFile: Self.rulesPath, encoding: .utf8)
        let expressions = rules.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
            .joined(separator: "\n")
        let alerted = Self.metricNames(in: expressions)
        #expect(alerted.count > 5, "\(alerted)")
        #expect(alerted.isSubset(of: exported), "alert rules name metrics not exported: \(alerted.subtracting(exported))")
    }

    /// `promtool check rules` (Debian's `prometheus`, installed by .ci/setup-tests.sh).
    @Test func promtoolAcceptsTheAlertRules() throws {
        let promtool = try ChildProcess.find("promtool", hint: "apt-get install prometheus, or sh .ci/setup-tests.sh")
        let result = try ChildProcess.run(promtool, ["check", "rules", Self.rulesPath], output: .merged, seconds: 60)
        #expect(result.status == 0, "promtool check rules:\n\(result.output)")
        #expect(result.output.contains("SUCCESS: 12 rules found"), "\(result.output)")
    }
}
