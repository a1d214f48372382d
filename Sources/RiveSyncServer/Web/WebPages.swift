import RiveSyncJSON
import RiveSyncTransport

/// The pages `rivesyncd` serves on its port when the inspector is on: the inspector, the demo
/// preview and the JavaScript client they use (`clients/js/` and `web/`, embedded at build
/// time). Every answer carries a Content-Security-Policy that allows scripts, styles and
/// connections from the daemon's own origin only (no inline script, no other site).
enum WebPages {
    /// The policy sent with every page and script.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// Path → file, for `WebSocketServer.Configuration.staticFiles`. `inspector-config.json`
    /// tells the pages whether their editors are on (`readOnly`).
    static func files(inspector: DaemonConfiguration.Inspector) -> [String: StaticFile] {
        let html = "text/html; charset=utf-8"
        let script = "text/javascript; charset=utf-8"
        let css = "text/css; charset=utf-8"
        let table: [(String, String, [UInt8])] = [
            ("/", html, PackageResources.index_html),
            ("/index.html", html, PackageResources.index_html),
            ("/inspector.js", script, PackageResources.inspector_js),
            ("/inspector-editors.js", script, PackageResources.inspector_editors_js),
            ("/inspector-history.js", script, PackageResources.inspector_history_js),
            ("/inspector.css", css, PackageResources.inspector_css),
            ("/preview.html", html, PackageResources.preview_html),
            ("/preview.js", script, PackageResources.preview_js),
            ("/preview.css", css, PackageResources.preview_css),
            ("/rivesync.js", script, PackageResources.rivesync_js),
            ("/replica.js", script, PackageResources.replica_js),
            ("/rive-adapter.js", script, PackageResources.rive_adapter_js),
        ]
        let config = JSONValue.object([("readOnly", .bool(inspector.readOnly))]).serialized()
        var files: [String: StaticFile] = [:]
        for (path, type, bytes) in table { files[path] = StaticFile(contentType: type, bytes: bytes, headers: headers) }
        files["/inspector-config.json"] = StaticFile(
            contentType: "application/json", bytes: config, headers: headers)
        return files
    }

    private static let headers: [(name: String, value: String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-cache"),
    ]
}
