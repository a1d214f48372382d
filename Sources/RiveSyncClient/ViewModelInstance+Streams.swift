internal import RiveSyncModel

/// Observing values and triggers.
///
/// Each stream reports what changed in each batch that reaches this client: its own writes,
/// other clients' writes and the daemon's. Unlike Rive: a path that does not resolve, or has
/// another type, ends the stream with that error on the first `next()`; `includingCurrent:
/// true` starts with the current value; identical streams are independent (ending one does not
/// silence another); and after a reconnect the stream resumes from the last batch it saw.
extension ViewModelInstance {
    public func valueStream(of property: StringProperty, includingCurrent: Bool = false) -> AsyncThrowingStream<String, any Error> {
        stream(property.path, .string, includingCurrent: includingCurrent) { if case .string(let s) = $0 { s } else { nil } }
    }

    public func valueStream(of property: NumberProperty, includingCurrent: Bool = false) -> AsyncThrowingStream<Float, any Error> {
        stream(property.path, .number, includingCurrent: includingCurrent) { if case .number(let n) = $0 { n } else { nil } }
    }

    public func valueStream(of property: BoolProperty, includingCurrent: Bool = false) -> AsyncThrowingStream<Bool, any Error> {
        stream(property.path, .boolean, includingCurrent: includingCurrent) { if case .boolean(let b) = $0 { b } else { nil } }
    }

    public func valueStream(of property: ColorProperty, includingCurrent: Bool = false) -> AsyncThrowingStream<Color, any Error> {
        stream(property.path, .color, includingCurrent: includingCurrent) { if case .color(let c) = $0 { Color(c) } else { nil } }
    }

    public func valueStream(of property: EnumProperty, includingCurrent: Bool = false) -> AsyncThrowingStream<String, any Error> {
        stream(property.path, .enum, includingCurrent: includingCurrent) { if case .enumValue(let e) = $0 { e } else { nil } }
    }

    /// One element per fire of the trigger, from any client or the daemon. After a long
    /// disconnection (a resync) it yields once per fire missed, counted from the fire counts.
    public func stream(of property: TriggerProperty) -> AsyncThrowingStream<Void, any Error> {
        ValueStreams.make(
            session: session, target: { [self] in try await anchor() }, root: { [self] in try await resolvedID() }, path: property.path,
            type: .trigger,
            includingCurrent: false
        ) { event in
            if case .fired = event { return () }
            return nil
        }
    }
}
