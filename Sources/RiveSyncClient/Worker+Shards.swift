internal import RiveSyncProtocol

extension Worker {
    /// Connects to a node of a sharded cluster that serves `target` (protocol/CLUSTER.md §6.3):
    /// a node of other shards answers `wrong_node` naming the nodes of the target's shard, and
    /// this follows it once, to the first of them that serves the target.
    ///
    /// - Throws: `WorkerError.wrongNode` when no node it was told of serves the target, and
    ///   what `init(url:token:)` throws for `url` itself.
    public static func connect(url: String = Worker.defaultURL, token: String? = nil, serving target: String) async throws -> Worker {
        try await connect(url: url, token: token, probe: .digest(target: target), .stateMachine)
    }

    /// Connects to a node of a sharded cluster that serves the file `file`, as
    /// `connect(url:token:serving:)` does for a target.
    public static func connect(url: String = Worker.defaultURL, token: String? = nil, servingFile file: String) async throws -> Worker {
        try await connect(url: url, token: token, probe: .describe(file: file), .file)
    }

    private static func connect(
        url: String, token: String?, probe: ClientRequest, _ domain: ServerFailure.Domain
    ) async throws -> Worker {
        var candidates = [url]
        var refused: WorkerError?
        while !candidates.isEmpty {
            let node = candidates.removeFirst()
            let worker: Worker
            do { worker = try await Worker(url: node, token: token) } catch WorkerError.connectionFailed(let reason) where node != url {
                refused = refused ?? .connectionFailed(reason)
                continue
            }
            do {
                _ = try await worker.session.request(probe, domain)
                return worker
            } catch WorkerError.wrongNode(let shard, let nodes) {
                await worker.close()
                if case .wrongNode = refused {} else { candidates = nodes }
                refused = .wrongNode(shard: shard, nodes: nodes)
            } catch {
                await worker.close()
                throw error
            }
        }
        throw refused ?? WorkerError.connectionFailed(url)
    }
}
