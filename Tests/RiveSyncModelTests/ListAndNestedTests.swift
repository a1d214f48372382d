import RiveSyncModel
import Testing

@Suite struct ListAndNestedTests {
    private func items(_ runtime: FileRuntime, _ path: String = "lis") throws -> [InstanceID] {
        guard case .list(let items) = try runtime.value(at: path, in: "sm") else { return [] }
        return items
    }

    @Test func everyListOperationFollowsTheReferenceExample() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let empty = try runtime.createInstance(.blank(from: .name("Child")))
        try runtime.apply(.set(path: "chi/items/0/label", value: .string("x")))
        // Work on the nested Child's list, which starts as [First].
        let path = "chi/items"
        let start = try items(runtime, path)
        #expect(start.count == 1)
        let newInstance = try runtime.createInstance(.blank(from: .name("Other")))
        try runtime.apply(.listAppend(path: path, instance: newInstance))
        #expect(try items(runtime, path) == start + [newInstance])
        try runtime.apply(.listInsert(path: path, index: 0, instance: empty))
        #expect(try items(runtime, path) == [empty] + start + [newInstance])
        try runtime.apply(.listSwap(path: path, index: 0, with: 2))
        #expect(try items(runtime, path) == [newInstance] + start + [empty])
        try runtime.apply(.listRemoveAt(path: path, index: 1))
        #expect(try items(runtime, path) == [newInstance, empty])
        try runtime.apply(.listRemove(path: path, instance: newInstance))
        #expect(try items(runtime, path) == [empty])
        #expect(try runtime.value(at: "chi/items/0/label", in: "sm") == .string(""))
    }

    @Test func listsMixViewModelsAndRemoveEveryOccurrence() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let other = try runtime.createInstance(.name("On", from: .name("Other")))
        let theme = try runtime.createInstance(.name("Dark", from: .name("Theme")))
        try runtime.apply(.listAppend(path: "lis", instance: other))
        try runtime.apply(.listAppend(path: "lis", instance: theme))
        try runtime.apply(.listAppend(path: "lis", instance: other))
        #expect(try items(runtime).count == 5)
        #expect(try runtime.value(at: "lis/3/background", in: "sm") == .color(0xFF00_0000))
        let batch = try runtime.apply(.listRemove(path: "lis", instance: other))
        #expect(batch.effects.count == 2)
        #expect(try items(runtime).count == 3)
        #expect(try !items(runtime).contains(other))
    }

    @Test func listErrorsAreTyped() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let item = try runtime.createInstance(.blank(from: .name("Child")))
        let cases: [(Command, PropertyError)] = [
            (.listInsert(path: "lis", index: 3, instance: item), .indexOutOfRange(path: "lis", index: 3, count: 2)),
            (.listInsert(path: "lis", index: -1, instance: item), .indexOutOfRange(path: "lis", index: -1, count: 2)),
            (.listRemoveAt(path: "lis", index: 2), .indexOutOfRange(path: "lis", index: 2, count: 2)),
            (.listSwap(path: "lis", index: 0, with: 9), .indexOutOfRange(path: "lis", index: 9, count: 2)),
            (.listRemove(path: "lis", instance: item), .instanceNotInList(path: "lis", instance: item)),
            (.listAppend(path: "lis", instance: InstanceID(999)), .unknownInstance(InstanceID(999))),
            (.listAppend(path: "num", instance: item), .typeMismatch(path: "num", expected: "list", actual: "number")),
            (.fire(path: "num"), .typeMismatch(path: "num", expected: "trigger", actual: "number")),
        ]
        for (i, (operation, error)) in cases.enumerated() {
            let batch = try runtime.apply(operation, id: UInt64(i))
            #expect(batch.rejected == [RejectedCommand(id: UInt64(i), error: error)])
        }
        #expect(try items(runtime).count == 2)
    }

    @Test func listLengthLimit() throws {
        var runtime = FileRuntime(schema: Fixtures.kitchen, limits: ModelLimits(maxListLength: 3))
        try runtime.createStateMachine(artboard: "Main")
        let item = try runtime.createInstance(.blank(from: .name("Other")))
        try runtime.apply(.listAppend(path: "lis", instance: item))
        let batch = try runtime.apply(.listAppend(path: "lis", instance: item), id: 2)
        #expect(batch.rejected.first?.error == .limitExceeded(limit: "maxListLength", value: 3))
    }

    @Test func cyclesAreRejected() throws {
        var runtime = try Fixtures.kitchenRuntime()
        guard case .viewModel(let nested?) = try runtime.value(at: "chi", in: "sm") else {
            Issue.record("no nested")
            return
        }
        let selfList = try runtime.apply(.listAppend(path: "chi/items", instance: nested))
        guard case .invalidValue = selfList.rejected.first?.error else {
            Issue.record("expected a cycle error, got \(selfList.rejected)")
            return
        }
        let selfNested = try runtime.apply(.set(path: "chi/next", value: .viewModel(nested)), id: 2)
        guard case .invalidValue = selfNested.rejected.first?.error else {
            Issue.record("expected a cycle error, got \(selfNested.rejected)")
            return
        }
    }

    @Test func nestedReplacementCompatibleAndNot() throws {
        var runtime = try Fixtures.kitchenRuntime()
        let child = try runtime.createInstance(.name("First", from: .name("Child")))
        let batch = try runtime.apply(.set(path: "chi", value: .viewModel(child)))
        #expect(batch.rejected.isEmpty)
        #expect(try runtime.value(at: "chi/label", in: "sm") == .string("one"))
        guard case .set(_, "chi", .viewModel(child), let introduced) = batch.effects.first?.change else {
            Issue.record("expected a nested set effect")
            return
        }
        #expect(introduced.map(\.id) == [child])
        let other = try runtime.createInstance(.blank(from: .name("Other")))
        let wrong = try runtime.apply(.set(path: "chi", value: .viewModel(other)), id: 2)
        #expect(wrong.rejected.first?.error == .incompatibleInstance(path: "chi", expected: "Child", actual: "Other"))
        #expect(try runtime.value(at: "chi", in: "sm") == .viewModel(child))
    }
}
