import CWebSockets

/// A plain HTTP answer: a status, a body and its headers.
struct HTTPResponse {
    var status: http_status
    var body: Payload
    var contentType = "text/plain; charset=utf-8"
    /// Further headers (`WWW-Authenticate` for 401, a static file's own).
    var headers: [(name: String, value: String)] = []

    init(
        status: http_status, body: String, contentType: String = "text/plain; charset=utf-8",
        headers: [(name: String, value: String)] = []
    ) {
        self.init(status: status, body: Payload(text: body), contentType: contentType, headers: headers)
    }

    init(status: http_status, body: Payload, contentType: String, headers: [(name: String, value: String)]) {
        self.status = status
        self.body = body
        self.contentType = contentType
        self.headers = headers
    }
}

/// Plain HTTP on the WebSocket port: `GET /healthz` (the loop answers), `GET /readyz` (200 while
/// `readiness` says so and the server is not stopping, else 503), `GET /metrics` (when
/// `metricsAccess` allows it: 401 without acceptable credentials, 403 for credentials without
/// the right) and `GET` of the configured static files; anything else is 404. `HEAD` answers
/// as `GET` would, with the same headers (`content-length` too) and no body.
extension ServerLoop {
    func http(_ wsi: OpaquePointer, path: String) -> Int32 {
        metrics.httpRequests.wrappingAdd(1, ordering: .relaxed)
        let isHead = lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0
        let isGet = isHead || lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0
        let response: HTTPResponse
        let path = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? path
        switch (isGet, path) {
        case _ where headersTooLarge(wsi):
            response = HTTPResponse(
                status: Self.requestHeaderFieldsTooLarge, body: "request headers larger than \(configuration.maxHeaderBytes) bytes\n")
        case (true, "/healthz"):
            response = HTTPResponse(status: HTTP_STATUS_OK, body: "ok\n")
        case (true, "/readyz"):
            let ready = !stopping && readiness()
            response = HTTPResponse(
                status: ready ? HTTP_STATUS_OK : HTTP_STATUS_SERVICE_UNAVAILABLE, body: ready ? "ready\n" : "not ready\n")
        case (true, "/metrics"):
            switch metricsAccess(Self.header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION), Self.peerAddress(wsi)) {
            case .allowed:
                response = HTTPResponse(
                    status: HTTP_STATUS_OK, body: metricsBody(metrics),
                    contentType: "text/plain; version=0.0.4; charset=utf-8")
            case .unauthorized:
                response = HTTPResponse(
                    status: HTTP_STATUS_UNAUTHORIZED, body: "a bearer token is needed\n",
                    headers: [("www-authenticate", "Bearer realm=\"rivesyncd\"")])
            case .forbidden:
                response = HTTPResponse(status: HTTP_STATUS_FORBIDDEN, body: "the token may not read metrics\n")
            }
        case (true, _) where staticFiles[path] != nil:
            let file = staticFiles[path]!
            response = HTTPResponse(status: HTTP_STATUS_OK, body: file.payload, contentType: file.contentType, headers: file.headers)
        case (true, _) where isHead:
            response = HTTPResponse(status: HTTP_STATUS_NOT_FOUND, body: "not found\n")
        default:
            if lws_return_http_status(wsi, UInt32(HTTP_STATUS_NOT_FOUND.rawValue), nil) != 0 { return -1 }
            return completeTransaction(wsi)
        }
        let body = response.body
        let headerBytes = response.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        var headers = [UInt8](repeating: 0, count: Payload.headroom + 512 + headerBytes)
        let ok = headers.withUnsafeMutableBufferPointer { buffer -> Bool in
            let start = buffer.baseAddress! + Payload.headroom
            let end = buffer.baseAddress! + buffer.count
            var cursor: UnsafeMutablePointer<UInt8>? = start
            let common = response.contentType.withCString { type in
                lws_add_http_common_headers(wsi, UInt32(response.status.rawValue), type, lws_filepos_t(body.count), &cursor, end) == 0
            }
            guard common else { return false }
            for header in response.headers {
                let added = (header.name + ":").withCString { name in
                    header.value.withCString { value in
                        lws_add_http_header_by_name(wsi, name, value, Int32(header.value.utf8.count), &cursor, end) == 0
                    }
                }
                guard added else { return false }
            }
            return lws_finalize_write_http_header(wsi, start, &cursor, end) == 0
        }
        guard ok else { return -1 }
        if isHead { return completeTransaction(wsi) }
        httpBodies[wsi] = body
        lws_callback_on_writable(wsi)
        return 0
    }

    func httpWriteable(_ wsi: OpaquePointer) -> Int32 {
        guard let body = httpBodies.removeValue(forKey: wsi) else { return 0 }
        let written = lws_write(wsi, body.base.assumingMemoryBound(to: UInt8.self), body.count, LWS_WRITE_HTTP_FINAL)
        if written < 0 { return -1 }
        return completeTransaction(wsi)
    }
}
