import RiveSyncJSON
import RiveSyncModel
import Testing

@testable import RiveSyncCore

/// A kept batch records the view model of each instance it sets and does not introduce, once
/// each, in the batch's order (the first inline, the others after it).
struct HistoryEntryTests {
    static func set(_ instance: UInt64, introducing: [InstanceState] = []) -> Effect {
        Effect(paths: ["p"], change: .set(instance: InstanceID(instance), property: "p", value: .number(1), introduced: introducing))
    }

    @Test func eachSetInstanceIsRecordedOnceInOrder() {
        let introduced = InstanceState(id: InstanceID(4), viewModel: "New", name: "", values: [:])
        let batch = ChangeBatch(
            target: "t", seq: 3,
            effects: [
                Self.set(2), Self.set(3), Self.set(2), Self.set(4, introducing: [introduced]), Self.set(9),
                Effect(paths: ["q"], change: .fire(instance: InstanceID(5), property: "q")), Self.set(5),
            ],
            applied: [], rejected: [])
        let known: [InstanceID: String] = [InstanceID(2): "A", InstanceID(3): "B", InstanceID(4): "C", InstanceID(5): "D"]
        let entry = WorkerCore.HistoryEntry(batch, frame: Frame(bytes: [])) { known[$0] }
        #expect(entry.setViewModels.map(\.instance) == [InstanceID(2), InstanceID(3), InstanceID(5)])
        #expect(entry.setViewModels.map(\.viewModel) == ["A", "B", "D"])
        #expect(entry.viewModel(setOn: InstanceID(3)) == "B")
        #expect(entry.viewModel(setOn: InstanceID(2)) == "A")
        #expect(entry.viewModel(setOn: InstanceID(4)) == nil, "introduced by the batch")
        #expect(entry.viewModel(setOn: InstanceID(9)) == nil, "unknown to the store")
        #expect(entry.seq == 3)
    }

    @Test func aBatchThatSetsNothingRecordsNothing() {
        let batch = ChangeBatch(target: "t", seq: 1, effects: [], applied: [], rejected: [])
        let entry = WorkerCore.HistoryEntry(batch, frame: Frame(bytes: [])) { _ in "A" }
        #expect(entry.setViewModels.isEmpty)
        #expect(entry.viewModel(setOn: InstanceID(1)) == nil)
    }

    /// The history answers for its newest entry only, also once its ring has wrapped.
    @Test func theNewestEntrysViewModelsAreLentToTheNext() {
        var history = WorkerCore.BatchHistory()
        #expect(history.viewModel(lastSetOn: InstanceID(1)) == nil)
        for seq in 1...7 {
            let batch = ChangeBatch(target: "t", seq: UInt64(seq), effects: [Self.set(UInt64(seq))], applied: [], rejected: [])
            history.append(WorkerCore.HistoryEntry(batch, frame: Frame(bytes: [])) { "VM\($0.rawValue)" }, limit: 3)
            #expect(history.viewModel(lastSetOn: InstanceID(UInt64(seq))) == "VM\(seq)", "after \(seq)")
            #expect(history.viewModel(lastSetOn: InstanceID(UInt64(seq - 1))) == nil, "an older entry's, after \(seq)")
        }
        #expect(history.ordered.map(\.seq) == [5, 6, 7])
    }
}
