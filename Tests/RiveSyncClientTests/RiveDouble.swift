import RiveSyncClient

/// A stand-in for Rive's runtime with the semantics RIVE-API.md §3 describes, for the bridge's
/// tests: one FIFO command queue per worker, processed in batches on the main actor; setters
/// and fires only queue; a setter of the value already there changes nothing; reads are
/// commands too (they see every call before them); after each batch every stream whose
/// property changed yields the current value once (coalesced; never the value at
/// subscription); a trigger stream yields once per batch that fired it. Paths go through
/// nested instances (`host/name`).
@MainActor
final class RiveDouble {
    /// A view model: property names with their kinds, and the blank value of each.
    struct ViewModel {
        enum Property {
            case value(LocalValue)
            case trigger
            case nested(String)
            case list
        }

        var properties: [String: Property]
    }

    let viewModels: [String: ViewModel]
    private var queue: [() -> Void] = []
    private var scheduled = false
    private var subscriptions: [Int: Subscription] = [:]
    private var nextSubscription = 0
    /// Calls Rive would only log (a wrong kind, a path that does not exist).
    private(set) var errors: [String] = []
    /// Batches processed so far.
    private(set) var batches = 0

    private final class Subscription {
        let root: RiveInstanceDouble
        let path: String
        let kind: LocalValue.Kind?
        var changed = false
        let report: () -> Void

        init(root: RiveInstanceDouble, path: String, kind: LocalValue.Kind?, report: @escaping () -> Void) {
            self.root = root
            self.path = path
            self.kind = kind
            self.report = report
        }
    }

    init(viewModels: [String: ViewModel]) {
        self.viewModels = viewModels
    }

    /// A blank instance of a view model (nested instances blank too).
    func makeInstance(_ viewModel: String) -> RiveInstanceDouble {
        RiveInstanceDouble(runtime: self, viewModel: viewModel)
    }

    func enqueue(_ command: @escaping () -> Void) {
        queue.append(command)
        guard !scheduled else { return }
        scheduled = true
        Task { @MainActor in
            await Task.yield()
            self.process()
        }
    }

    func log(_ error: String) { errors.append(error) }

    private func process() {
        scheduled = false
        let batch = queue
        queue = []
        for command in batch { command() }
        batches += 1
        for id in subscriptions.keys.sorted() {
            guard let subscription = subscriptions[id], subscription.changed else { continue }
            subscription.changed = false
            subscription.report()
        }
    }

    /// Marks the streams whose path leads to `instance`'s `property`.
    func changed(_ instance: RiveInstanceDouble, _ property: String) {
        for subscription in subscriptions.values {
            guard let (owner, name) = subscription.root.resolve(subscription.path), owner === instance, name == property else { continue }
            subscription.changed = true
        }
    }

    func subscribe(_ root: RiveInstanceDouble, _ path: String, kind: LocalValue.Kind?, report: @escaping () -> Void) -> Int {
        let id = nextSubscription
        nextSubscription += 1
        enqueue { self.subscriptions[id] = Subscription(root: root, path: path, kind: kind, report: report) }
        return id
    }

    func unsubscribe(_ id: Int) {
        enqueue { self.subscriptions[id] = nil }
    }
}

/// A view model instance of `RiveDouble`.
@MainActor
final class RiveInstanceDouble: LocalViewModelInstance {
    let runtime: RiveDouble
    let viewModel: String
    private(set) var values: [String: LocalValue] = [:]
    private(set) var nested: [String: RiveInstanceDouble] = [:]
    private(set) var lists: [String: [RiveInstanceDouble]] = [:]

    init(runtime: RiveDouble, viewModel: String) {
        self.runtime = runtime
        self.viewModel = viewModel
        for (name, property) in runtime.viewModels[viewModel]?.properties ?? [:] {
            switch property {
            case .value(let blank): values[name] = blank
            case .nested(let other): nested[name] = RiveInstanceDouble(runtime: runtime, viewModel: other)
            case .list: lists[name] = []
            case .trigger: break
            }
        }
    }

    /// The instance holding the last segment of `path`, and that segment.
    func resolve(_ path: String) -> (RiveInstanceDouble, String)? {
        var parts = path.split(separator: "/").map(String.init)
        guard let last = parts.popLast() else { return nil }
        var instance = self
        for part in parts {
            guard let next = instance.nested[part] else { return nil }
            instance = next
        }
        return (instance, last)
    }

    private func property(_ path: String) -> RiveDouble.ViewModel.Property? {
        guard let (owner, name) = resolve(path) else { return nil }
        return runtime.viewModels[owner.viewModel]?.properties[name]
    }

    func setValue(_ value: LocalValue, at path: String) {
        runtime.enqueue { [self] in
            guard let (owner, name) = resolve(path), case .value(let blank)? = property(path), blank.kind == value.kind else {
                return runtime.log("setValue \(path)")
            }
            guard owner.values[name] != value else { return }
            owner.values[name] = value
            runtime.changed(owner, name)
        }
    }

    func value(at path: String, kind: LocalValue.Kind) async throws -> LocalValue {
        try await withCheckedThrowingContinuation { continuation in
            runtime.enqueue { [self] in
                guard let (owner, name) = resolve(path), let value = owner.values[name], value.kind == kind else {
                    return continuation.resume(throwing: ViewModelInstanceError.message("no \(kind) at \(path)"))
                }
                continuation.resume(returning: value)
            }
        }
    }

    func valueStream(at path: String, kind: LocalValue.Kind) -> AsyncThrowingStream<LocalValue, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LocalValue.self)
        let id = runtime.subscribe(self, path, kind: kind) { [weak self] in
            if let (owner, name) = self?.resolve(path), let value = owner.values[name] { continuation.yield(value) }
        }
        continuation.onTermination = { [runtime] _ in Task { @MainActor in runtime.unsubscribe(id) } }
        return stream
    }

    func fire(at path: String) {
        runtime.enqueue { [self] in
            guard let (owner, name) = resolve(path), case .trigger? = property(path) else { return runtime.log("fire \(path)") }
            runtime.changed(owner, name)
        }
    }

    func triggerStream(at path: String) -> AsyncThrowingStream<Void, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Void.self)
        let id = runtime.subscribe(self, path, kind: nil) { continuation.yield() }
        continuation.onTermination = { [runtime] _ in Task { @MainActor in runtime.unsubscribe(id) } }
        return stream
    }

    func instance(at path: String) -> RiveInstanceDouble {
        guard let (owner, name) = resolve(path), let child = owner.nested[name] else {
            runtime.log("instance \(path)")
            return RiveInstanceDouble(runtime: runtime, viewModel: "")
        }
        return child
    }

    func setInstance(_ instance: RiveInstanceDouble, at path: String) {
        runtime.enqueue { [self] in
            guard let (owner, name) = resolve(path), owner.nested[name] != nil else { return runtime.log("setInstance \(path)") }
            owner.nested[name] = instance
        }
    }

    private func editList(_ path: String, _ edit: @escaping (inout [RiveInstanceDouble]) -> Bool) {
        runtime.enqueue { [self] in
            guard let (owner, name) = resolve(path), var list = owner.lists[name], edit(&list) else { return runtime.log("list \(path)") }
            owner.lists[name] = list
        }
    }

    func appendInstance(_ instance: RiveInstanceDouble, to path: String) {
        editList(path) { list in
            list.append(instance)
            return true
        }
    }

    func insertInstance(_ instance: RiveInstanceDouble, to path: String, at index: Int32) {
        editList(path) { list in
            guard (0...list.count).contains(Int(index)) else { return false }
            list.insert(instance, at: Int(index))
            return true
        }
    }

    func removeInstance(at index: Int32, from path: String) {
        editList(path) { list in
            guard list.indices.contains(Int(index)) else { return false }
            list.remove(at: Int(index))
            return true
        }
    }

    func swapInstance(atIndex index: Int32, withIndex other: Int32, in path: String) {
        editList(path) { list in
            guard list.indices.contains(Int(index)), list.indices.contains(Int(other)) else { return false }
            list.swapAt(Int(index), Int(other))
            return true
        }
    }

    func size(of path: String) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            runtime.enqueue { [self] in
                guard let (owner, name) = resolve(path), let list = owner.lists[name] else {
                    return continuation.resume(throwing: ViewModelInstanceError.message("no list at \(path)"))
                }
                continuation.resume(returning: list.count)
            }
        }
    }

    /// The items of a list as they are now (test inspection, not a Rive call).
    func items(_ path: String) -> [RiveInstanceDouble] { resolve(path).flatMap { $0.0.lists[$0.1] } ?? [] }
}

extension RiveDouble {
    /// The demo file's view models (Sources/RiveSyncServer/demo.schema.json).
    static func demo() -> RiveDouble {
        let black = LocalValue.color(Color(0xFF00_0000))
        return RiveDouble(viewModels: [
            "Theme": .init(properties: [
                "name": .value(.string("")), "mode": .value(.enumValue("light")), "background": .value(black),
                "foreground": .value(black), "accent": .value(black),
            ]),
            "Character": .init(properties: [
                "mood": .value(.number(0)), "success": .trigger, "error": .trigger, "yes": .trigger, "no": .trigger, "enter": .trigger,
                "exit": .trigger, "face": .value(.string("")), "color": .value(black),
            ]),
            "Player": .init(properties: [
                "name": .value(.string("")), "x": .value(.number(0)), "y": .value(.number(0)), "color": .value(black), "wave": .trigger,
            ]),
            "Lobby": .init(properties: ["title": .value(.string("")), "players": .list, "host": .nested("Player")]),
        ])
    }
}
