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

    /// `append` for an upload: also records the asset in the assets hash (for nodes that start
    /// later), in the same step, so the hash never misses an asset the log holds. KEYS: log
    /// stream, lease key, assets hash. ARGV: token, asset id, its `<size> <media type>`, then
    /// the entry's field/value pairs. Returns the entry's id, or the error `FENCED`.
    static let appendAsset = """
        if redis.call('GET', KEYS[2]) ~= ARGV[1] then
          return redis.error_reply('FENCED the lease of this node has ended')
        end
        redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
        return redis.call('XADD', KEYS[1], '*', unpack(ARGV, 4))
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

    /// Lua helpers: stream ids compared as Redis orders them.
    private static let ids = """
        local function parts(id)
          local ms, seq = string.match(id, '^(%d+)-(%d+)$')
          return tonumber(ms), tonumber(seq)
        end
        local function less(a, b)
          local am, as = parts(a)
          local bm, bs = parts(b)
          return am < bm or (am == bm and as < bs)
        end
        """

    /// Stores snapshots of files taken after the entry `ARGV[1]`, each only if later than the
    /// file's stored one, then trims the log below the lowest snapshot id of all files as it
    /// was at the previous store (one interval of slack for nodes that read the snapshots at
    /// their start, or lag: protocol/CLUSTER.md §2.7) and records the highest entry the trim
    /// deleted, never above a live pin; voided entries below the cut leave the voided set (no
    /// reader reads them again). Only a store that stored something trims. KEYS: snapshots,
    /// snapshot ids, files, log, trims, trim point, pins, voided. ARGV: the id, then per file
    /// its name, its snapshot JSON and its header JSON. Returns how many it stored.
    static let storeSnapshots =
        ids + "\n" + """
            local upTo = ARGV[1]
            local stored = 0
            for i = 2, #ARGV, 3 do
              local current = redis.call('HGET', KEYS[2], ARGV[i])
              if not current or less(current, upTo) then
                redis.call('HSET', KEYS[1], ARGV[i], upTo .. '\\n' .. ARGV[i + 1])
                redis.call('HSET', KEYS[2], ARGV[i], upTo)
                redis.call('HSETNX', KEYS[3], ARGV[i], ARGV[i + 2])
                stored = stored + 1
              end
            end
            local lowest = nil
            for _, id in ipairs(redis.call('HVALS', KEYS[2])) do
              if not lowest or less(id, lowest) then lowest = id end
            end
            if stored == 0 then return 0 end
            local point = redis.call('GET', KEYS[6])
            -- A node reading the snapshots at its start pins where it reads from, until it caught up.
            local now = redis.call('TIME')
            local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
            local pins = redis.call('HGETALL', KEYS[7])
            for i = 1, #pins, 2 do
              local id, expires = string.match(pins[i + 1], '^(%S+) (%d+)$')
              if not id or tonumber(expires) < nowMs then
                redis.call('HDEL', KEYS[7], pins[i])
              elseif point and less(id, point) then
                point = id
              end
            end
            if point then
              local below = redis.call('XREVRANGE', KEYS[4], '(' .. point, '-', 'COUNT', 1)
              if #below > 0 then
                redis.call('XTRIM', KEYS[4], 'MINID', point)
                for _, id in ipairs(redis.call('SMEMBERS', KEYS[8])) do
                  if less(id, point) then redis.call('SREM', KEYS[8], id) end
                end
                redis.call('LPUSH', KEYS[5], below[1][1])
                redis.call('LTRIM', KEYS[5], 0, 63)
              end
            end
            if lowest and (not point or less(point, lowest)) then redis.call('SET', KEYS[6], lowest) end
            return stored
            """

    /// Checks, after a read, that the log is still the one this node applied (run by the
    /// stream reader before it delivers anything). KEYS: epoch, log, trims. ARGV: the node's
    /// epoch, the last entry it read (`0-0`: none), the first entry this read returned (`''`:
    /// none). Returns `ok`; `trimmed` when a trim deleted an entry after the last one read that
    /// this read does not return (the node is behind a trim); `back` when the epoch changed or
    /// the last entry read is gone without a trim (the log went back).
    static let check =
        ids + "\n" + """
            if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'back' end
            local after, first = ARGV[2], ARGV[3]
            local trims = redis.call('LRANGE', KEYS[3], 0, -1)
            local afterTrimmed = false
            -- Newest first, and each trim's highest deleted entry is above the earlier ones'.
            for index, deleted in ipairs(trims) do
              if less(deleted, after) then break end
              afterTrimmed = true
              if less(after, deleted) and (first == '' or less(deleted, first)) then return 'trimmed' end
              -- Older trims are no longer recorded: one of them may have cut after this node.
              if index == #trims and #trims >= 64 then return 'trimmed' end
            end
            if after ~= '0-0' and not afterTrimmed and #redis.call('XRANGE', KEYS[2], after, after) == 0 then return 'back' end
            return 'ok'
            """

    /// After a read the replicas hold (`WAIT` succeeded): raises the highest confirmed entry
    /// to the read's last and returns which of the read's entries are voided (protocol/CLUSTER.md
    /// §3.6). KEYS: confirmed, voided. ARGV: the read's last id, then every id of the read.
    static let confirm =
        ids + "\n" + """
            local current = redis.call('GET', KEYS[1])
            if not current or less(current, ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
            local voided = {}
            if redis.call('SCARD', KEYS[2]) == 0 then return voided end
            for i = 2, #ARGV do
              if redis.call('SISMEMBER', KEYS[2], ARGV[i]) == 1 then voided[#voided + 1] = ARGV[i] end
            end
            return voided
            """

    /// Voids entries whose `WAIT` timed out, each only if no node confirmed it yet (so every
    /// node applies it, or none). KEYS: confirmed, voided. ARGV: the entries' ids. Returns the
    /// ids it voided.
    static let void =
        ids + "\n" + """
            local current = redis.call('GET', KEYS[1])
            local voided = {}
            for i = 1, #ARGV do
              if not current or less(current, ARGV[i]) then
                redis.call('SADD', KEYS[2], ARGV[i])
                voided[#voided + 1] = ARGV[i]
              end
            end
            return voided
            """

    /// Replaces the epoch only while it is still `ARGV[1]` (the first node to see the log go
    /// back renews it; the others find it renewed). KEYS: epoch. ARGV: old epoch, new epoch.
    static let renewEpoch = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then
          redis.call('SET', KEYS[1], ARGV[2])
          return 1
        end
        return 0
        """

    /// Pins the lowest snapshot id (`0-0` without snapshots) for a node about to read the
    /// snapshots and then the stream from there: no trim cuts above it until the pin is removed
    /// or expires. KEYS: snapshot ids, pins. ARGV: the node, the pin's lifetime in milliseconds.
    static let pin =
        ids + "\n" + """
            local lowest = '0-0'
            local first = true
            for _, id in ipairs(redis.call('HVALS', KEYS[1])) do
              if first or less(id, lowest) then lowest = id end
              first = false
            end
            local now = redis.call('TIME')
            local expires = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + tonumber(ARGV[2])
            redis.call('HSET', KEYS[2], ARGV[1], lowest .. ' ' .. string.format('%d', expires))
            return lowest
            """
}
