internal import RiveSyncModel

/// Builds the async streams of values and fires on top of the session's listeners.
enum ValueStreams {
    /// A stream that registers its listener in the background: a path that does not resolve
    /// (or has another type) ends the stream with that error on its first `next()`, instead
    /// of a stream that never yields. Ending the iteration removes only this stream's listener.
    static func make<Element: Sendable>(
        session: Session, target: @escaping @Sendable () async throws -> String, root: @escaping @Sendable () async throws -> InstanceID?,
        path: String, type: DataType?,
        includingCurrent: Bool, element: @escaping @Sendable (ListenerEvent) -> Element?
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self)
        let registration = ListenerRegistration(session: session)
        let registering = Task {
            do {
                let target = try await target()
                let id = try await session.addListener(
                    target, root: try await root(), path: path, type: type, includingCurrent: includingCurrent
                ) {
                    event in
                    if case .finished(let error) = event {
                        continuation.finish(throwing: error)
                    } else if let value = element(event) {
                        continuation.yield(value)
                    }
                }
                await registration.registered(id, on: target)
            } catch {
                registration.failed()
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in
            registering.cancel()
            registration.ended()
        }
        return stream
    }

    /// A target-relative value stream converting each value with `convert`.
    static func make<Element: Sendable>(
        session: Session, target: String, root: InstanceID?, path: String, type: DataType?, includingCurrent: Bool,
        convert: @escaping @Sendable (RiveSyncModel.PropertyValue) -> Element?
    ) -> AsyncThrowingStream<Element, any Error> {
        make(session: session, target: { target }, root: { root }, path: path, type: type, includingCurrent: includingCurrent) { event in
            if case .value(let value) = event { return convert(value) }
            return nil
        }
    }
}
