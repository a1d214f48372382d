/// Who sent a command: the sending connection's client name (its `hello` `client`) and the
/// name of its token. Either is nil when there was none (no `client` given, an anonymous
/// connection). A batch carries the author of each command it applied.
public struct Author: Sendable, Hashable {
    public var client: String?
    public var token: String?

    public init(client: String?, token: String?) {
        self.client = client
        self.token = token
    }
}
