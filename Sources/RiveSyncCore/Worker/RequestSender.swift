import RiveSyncModel

/// Who sends a routed request: what its connection may do (`grants`, as the connection core
/// checked the request against them) and the author its commands are recorded with (its
/// `hello` `client` and token name, PROTOCOL.md §17). The connection core makes one per
/// connection and configuration and routes all its requests with it: a request carries one
/// reference on its way to the worker core, not the grants and the author (~70 bytes and four
/// references copied at each move, and a request moves several times).
public final class RequestSender: Sendable {
    public let grants: any RequestGrants
    public let author: Author?

    public init(grants: any RequestGrants, author: Author?) {
        self.grants = grants
        self.author = author
    }
}
