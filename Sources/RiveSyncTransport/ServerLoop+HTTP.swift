import CWebSockets

/// Plain HTTP on the WebSocket port: `GET /healthz` and `GET /metrics`; anything else is 404.
extension ServerLoop {
    func http(_ wsi: OpaquePointer, path: String) -> Int32 {
        metrics.httpRequests.wrappingAdd(1, ordering: .relaxed)
        let isGet = lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0
        let response: (body: String, contentType: String)?
        switch (isGet, path) {
        case (true, "/healthz"): response = ("ok\n", "text/plain; charset=utf-8")
        case (true, "/metrics"): response = (metricsBody(metrics), "text/plain; version=0.0.4; charset=utf-8")
        default: response = nil
        }
        guard let response else {
            if lws_return_http_status(wsi, UInt32(HTTP_STATUS_NOT_FOUND.rawValue), nil) != 0 { return -1 }
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        }
        let body = Payload(text: response.body)
        var headers = [UInt8](repeating: 0, count: Payload.headroom + 512)
        let ok = headers.withUnsafeMutableBufferPointer { buffer -> Bool in
            let start = buffer.baseAddress! + Payload.headroom
            let end = buffer.baseAddress! + buffer.count
            var cursor: UnsafeMutablePointer<UInt8>? = start
            return response.contentType.withCString { type in
                lws_add_http_common_headers(wsi, UInt32(HTTP_STATUS_OK.rawValue), type, lws_filepos_t(body.count),
                                            &cursor, end) == 0
                    && lws_finalize_write_http_header(wsi, start, &cursor, end) == 0
            }
        }
        guard ok else { return -1 }
        httpBodies[wsi] = body
        lws_callback_on_writable(wsi)
        return 0
    }

    func httpWriteable(_ wsi: OpaquePointer) -> Int32 {
        guard let body = httpBodies.removeValue(forKey: wsi) else { return 0 }
        let written = lws_write(wsi, body.base.assumingMemoryBound(to: UInt8.self), body.count, LWS_WRITE_HTTP_FINAL)
        if written < 0 { return -1 }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }
}
