import Foundation
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

extension Daemon {
    /// Rebuilds every file journaled in the state directory (in file-number order, each on its
    /// recorded worker), the uploaded assets and every worker's command counter.
    func restoreState(_ journals: [(number: UInt64, journal: FileJournal.Recovered)]) throws {
        guard let state = context.stateDirectory else { return }
        for (id, mediaType, bytes) in try state.assets() {
            context.assets.restore(id: id, mediaType: mediaType, byteCount: bytes.count)
        }
        var highestCommand: UInt64 = 0
        for (number, recovered) in journals {
            let name = recovered.header.name
            let workerIndex = recovered.header.worker % workers.count
            guard context.directory.restoreFile(name, worker: workerIndex, number: number) else {
                throw PersistenceError.corrupt(path: state.fileDirectory(number), line: 1, reason: "file name '\(name)' appears twice")
            }
            if recovered.tornBytes > 0 {
                context.log(.warning, "cut a torn last record", [("file", name), ("bytes", "\(recovered.tornBytes)")])
            }
            let worker = workers[workerIndex]
            let highest = try worker.host.sync { try worker.restore(recovered, number: number) }
            highestCommand = max(highestCommand, highest)
            context.log(
                .info, "restored",
                [("file", name), ("records", "\(recovered.records.count)"), ("snapshot", recovered.snapshot == nil ? "no" : "yes")])
        }
        for worker in workers { worker.host.sync { worker.core.ensureCommandNumbers(counterAbove: highestCommand) } }
    }
}

extension WorkerShell {
    /// Loads a file and, with a state directory, starts its journal (name, worker and schema).
    func loadDurably(_ schema: FileSchema, as name: String, number: UInt64) throws {
        load(schema, as: name, number: number)
        guard let state = context.stateDirectory else { return }
        let journal = try state.createJournal(number: number, header: JournalHeader(name: name, worker: index, schema: schema.jsonValue))
        fileLog?.add(journal, for: name)
    }
}
