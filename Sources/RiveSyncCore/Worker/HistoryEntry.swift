import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

extension WorkerCore {
    /// A batch kept for resuming subscribers, at about the size of its wire bytes: its frame
    /// (the batch as whole-target subscribers receive it) and its seq. The typed batch is read
    /// back from the frame (`batch(of:in:)`) only where it is needed: a resume with paths and
    /// the tests. (A kept `ChangeBatch` cost ~1.1 KB more per batch than its ~0.3 KB frame:
    /// ~1.4 MB per target at 1,024 batches.)
    struct HistoryEntry {
        /// The batch's seq: the history is ordered and searched by it.
        var seq: UInt64
        /// The batch as whole-target subscribers receive it.
        var frame: Frame
        /// The view model of each instance the batch sets a value of (and does not introduce):
        /// reading the batch back types the value by it, and the instance may be gone by then
        /// (freed with the last target that held it). The first is kept inline, so a batch that
        /// sets values of one instance (the usual one) allocates no array for it.
        private var firstSet: SetViewModel?
        /// The others, in the batch's order.
        private var otherSets: [SetViewModel] = []

        struct SetViewModel {
            var instance: InstanceID
            var viewModel: String
        }

        /// `batch`, kept as `frame`; `viewModelOf` gives the view models of the instances it
        /// sets (its file's store, and on a restore the snapshot's freed instances too). (A
        /// batch of one advance is of the advanced file; an instance it does not know is not
        /// recorded, and reading such a batch back falls back to the store.)
        init(_ batch: borrowing ChangeBatch, frame: Frame, viewModelOf: (InstanceID) -> String?) {
            seq = batch.seq
            self.frame = frame
            for effect in batch.effects {
                guard case .set(let instance, _, _, let introduced) = effect.change, viewModel(setOn: instance) == nil,
                    !introduced.contains(where: { $0.id == instance }), let viewModel = viewModelOf(instance)
                else { continue }
                if firstSet == nil {
                    firstSet = SetViewModel(instance: instance, viewModel: viewModel)
                } else {
                    otherSets.append(SetViewModel(instance: instance, viewModel: viewModel))
                }
            }
        }

        /// The view models of the instances the batch sets, in its order.
        var setViewModels: [SetViewModel] { (firstSet.map { [$0] } ?? []) + otherSets }

        /// The view model kept for `instance`, if the batch sets a value of it.
        func viewModel(setOn instance: InstanceID) -> String? {
            if firstSet?.instance == instance { return firstSet?.viewModel }
            return otherSets.first { $0.instance == instance }?.viewModel
        }

        /// The batch read back from the frame through the journal's reading of a batch message
        /// (`decode`); throws when it cannot be (the caller falls back to a snapshot).
        /// `target`: the batch's target; `runtime`: its file's.
        func batch(of target: String, in runtime: FileRuntime) throws -> ChangeBatch {
            let json: JSONValue
            // The frame is this worker's own encoding: no limit of a client's message applies.
            do { json = try JSONParser(maxDepth: .max, maxBytes: .max).parse(frame.bytes) } catch {
                throw JournalCodec.Invalid(description: "kept batch \(seq) is not JSON: \(error)")
            }
            return try Self.decode(json, target: target, schema: runtime.schema) { id in
                viewModel(setOn: id) ?? runtime.store.viewModel(of: id)
            }
        }

        /// The numbers of the commands a batch message applied (its `commands`), read strictly.
        static func commands(in json: JSONValue) throws(JournalCodec.Invalid) -> [UInt64] {
            try JournalCodec.Fields(json: json, what: "history batch").array("commands").map {
                (number) throws(JournalCodec.Invalid) -> UInt64 in
                guard let value = number.intValue, value > 0 else {
                    throw JournalCodec.Invalid(description: "history command \(number.jsonText)")
                }
                return UInt64(value)
            }
        }

        /// A batch message (a kept frame's, or a snapshot's history batch), read strictly;
        /// `viewModelOf` gives the view model of an instance it sets and does not introduce.
        static func decode(
            _ json: JSONValue, target: String, schema: FileSchema, viewModelOf: (InstanceID) -> String?
        ) throws -> ChangeBatch {
            let fields = JournalCodec.Fields(json: json, what: "history batch")
            let effects = try fields.array("effects").map { effect in
                try StateCodec.decodeEffect(effect, schema: schema, viewModelOf: viewModelOf)
            }
            let seq = try fields.int("seq")
            let applied = try commands(in: json)
            guard seq > 0 else { throw JournalCodec.Invalid(description: "history seq \(seq)") }
            var authors = CommandAuthors()
            let recorded: [Author?]?
            do { recorded = try ServerMessage.Batch.authors(in: json, count: applied.count) } catch {
                throw JournalCodec.Invalid(description: "history authors: \(error.message)")
            }
            for (number, author) in zip(applied, recorded ?? []) { authors[number] = author }
            var batch = ChangeBatch(target: target, seq: UInt64(seq), effects: effects, applied: applied, rejected: [], authors: authors)
            do { try ServerMessage.Batch.stateMachineMembers(in: json, into: &batch) } catch {
                throw JournalCodec.Invalid(description: "history batch: \(error.message)")
            }
            return batch
        }
    }
}
