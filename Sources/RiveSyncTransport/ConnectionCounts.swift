/// The accepted connections of a whole server, shared by its service threads, so that
/// `maxConnections` and `maxConnectionsPerAddress` hold for the server and not per thread.
///
/// A socket is counted when it is admitted (`reserve`), before lws creates its wsi, so two
/// threads accepting at once cannot both take the last place; `release` gives the place back
/// when the connection is gone or was never created. Touched once per accept and once per
/// close, never per message.
final class ConnectionCounts: Sendable {
    private struct Counts {
        var total = 0
        var byAddress: [String: Int] = [:]
    }

    private let counts = Locked(Counts())

    /// Why a socket was refused.
    enum Refusal {
        case full, addressFull
    }

    /// Counts a connection from `address` unless `budget` or `perAddress` would be passed.
    func reserve(_ address: String, budget: Int, perAddress: Int) -> Refusal? {
        counts.withLock { counts in
            if counts.total >= budget { return .full }
            if counts.byAddress[address, default: 0] >= perAddress { return .addressFull }
            counts.total += 1
            counts.byAddress[address, default: 0] += 1
            return nil
        }
    }

    /// Gives back the place of a connection from `address`.
    func release(_ address: String) {
        counts.withLock { counts in
            counts.total -= 1
            let left = counts.byAddress[address, default: 1] - 1
            counts.byAddress[address] = left > 0 ? left : nil
        }
    }
}
