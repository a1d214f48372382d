#if RIVESYNC_RIVE_RUNTIME && canImport(RiveRuntime)
    import RiveRuntime

    // Rive's own `ViewModelInstance` behind the bridge. This file compiles only where the
    // `RiveRuntime` module exists: on Apple platforms with the package built with
    // RIVESYNC_RIVE_RUNTIME=1 (see the client README). Inside this module the unqualified names
    // are RiveSync's; Rive's are written `RiveRuntime.…`.

    /// A `RiveRuntime.ViewModelInstance` as `RiveSyncBridge` drives it.
    @MainActor
    public final class RiveRuntimeInstance: LocalViewModelInstance {
        /// Rive's instance (bind it to your state machine as usual).
        public let instance: RiveRuntime.ViewModelInstance

        public init(_ instance: RiveRuntime.ViewModelInstance) {
            self.instance = instance
        }

        public func setValue(_ value: LocalValue, at path: String) {
            switch value {
            case .string(let s): instance.setValue(of: RiveRuntime.StringProperty(path: path), to: s)
            case .number(let n): instance.setValue(of: RiveRuntime.NumberProperty(path: path), to: n)
            case .boolean(let b): instance.setValue(of: RiveRuntime.BoolProperty(path: path), to: b)
            case .color(let c): instance.setValue(of: RiveRuntime.ColorProperty(path: path), to: RiveRuntime.Color(c.argbValue))
            case .enumValue(let e): instance.setValue(of: RiveRuntime.EnumProperty(path: path), to: e)
            }
        }

        public func value(at path: String, kind: LocalValue.Kind) async throws -> LocalValue {
            switch kind {
            case .string: .string(try await instance.value(of: RiveRuntime.StringProperty(path: path)))
            case .number: .number(try await instance.value(of: RiveRuntime.NumberProperty(path: path)))
            case .boolean: .boolean(try await instance.value(of: RiveRuntime.BoolProperty(path: path)))
            case .color: .color(Color(try await instance.value(of: RiveRuntime.ColorProperty(path: path)).argbValue))
            case .enumValue: .enumValue(try await instance.value(of: RiveRuntime.EnumProperty(path: path)))
            }
        }

        public func valueStream(at path: String, kind: LocalValue.Kind) -> AsyncThrowingStream<LocalValue, any Error> {
            switch kind {
            case .string: Self.map(instance.valueStream(of: RiveRuntime.StringProperty(path: path))) { .string($0) }
            case .number: Self.map(instance.valueStream(of: RiveRuntime.NumberProperty(path: path))) { .number($0) }
            case .boolean: Self.map(instance.valueStream(of: RiveRuntime.BoolProperty(path: path))) { .boolean($0) }
            case .color: Self.map(instance.valueStream(of: RiveRuntime.ColorProperty(path: path))) { .color(Color($0.argbValue)) }
            case .enumValue: Self.map(instance.valueStream(of: RiveRuntime.EnumProperty(path: path))) { .enumValue($0) }
            }
        }

        public func fire(at path: String) {
            instance.fire(trigger: RiveRuntime.TriggerProperty(path: path))
        }

        public func triggerStream(at path: String) -> AsyncThrowingStream<Void, any Error> {
            instance.stream(of: RiveRuntime.TriggerProperty(path: path))
        }

        public func instance(at path: String) -> RiveRuntimeInstance {
            RiveRuntimeInstance(instance.value(of: RiveRuntime.ViewModelInstanceProperty(path: path)))
        }

        public func setInstance(_ other: RiveRuntimeInstance, at path: String) {
            instance.setValue(of: RiveRuntime.ViewModelInstanceProperty(path: path), to: other.instance)
        }

        public func appendInstance(_ other: RiveRuntimeInstance, to path: String) {
            instance.appendInstance(other.instance, to: RiveRuntime.ListProperty(path: path))
        }

        public func insertInstance(_ other: RiveRuntimeInstance, to path: String, at index: Int32) {
            instance.insertInstance(other.instance, to: RiveRuntime.ListProperty(path: path), at: index)
        }

        public func removeInstance(at index: Int32, from path: String) {
            instance.removeInstance(at: index, from: RiveRuntime.ListProperty(path: path))
        }

        public func swapInstance(atIndex index: Int32, withIndex other: Int32, in path: String) {
            instance.swapInstance(atIndex: index, withIndex: other, in: RiveRuntime.ListProperty(path: path))
        }

        public func size(of path: String) async throws -> Int {
            try await instance.size(of: RiveRuntime.ListProperty(path: path))
        }

        private static func map<Element: Sendable>(
            _ stream: AsyncThrowingStream<Element, any Error>, _ convert: @escaping @Sendable (Element) -> LocalValue
        ) -> AsyncThrowingStream<LocalValue, any Error> {
            AsyncThrowingStream { continuation in
                let task = Task { @MainActor in
                    do {
                        for try await element in stream { continuation.yield(convert(element)) }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }

    extension RiveSyncBridge where Local == RiveRuntimeInstance {
        /// Binds a shared instance to Rive's `local`; instances new to this app are made blank
        /// from `file` (Rive's `createViewModelInstance(.blank(from: .name(_)))`).
        public static func bind(
            _ remote: ViewModelInstance, to local: RiveRuntime.ViewModelInstance, file: RiveRuntime.File,
            forwardingLocalChanges: Bool? = nil
        ) async throws -> RiveSyncBridge {
            try await bind(remote, to: RiveRuntimeInstance(local), forwardingLocalChanges: forwardingLocalChanges) { viewModel in
                RiveRuntimeInstance(try await file.createViewModelInstance(.blank(from: .name(viewModel))))
            }
        }
    }
#endif
