/// The Lua scripts the nodes run in Redis (atomically: nothing runs between a check and its
/// effect).
enum ClusterScripts {
    /// Appends an entry only while the node's lease holds the entry's token (the fencing
    /// check, protocol/CLUSTER.md §2.4). KEYS: log stream, lease key. ARGV: token, then the
    /// entry's field/value pairs. Returns the entry's id, or the error `FENCED`.
    static let append = """
        if redis.call('GET', KEYS[2]) ~= ARGV[1] then
          return redis.error_reply('FENCED the lease of this node has ended')
        end
        return redis.call('XADD', KEYS[1], '*', unpack(ARGV, 2))
        """

    /// Extends the lease only while it holds the node's token. KEYS: lease key. ARGV: token,
    /// lease in milliseconds. Returns 1, or 0 when the lease is gone or another token's.
    static let renew = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then
          redis.call('PEXPIRE', KEYS[1], ARGV[2])
          return 1
        end
        return 0
        """
}
