internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol

/// Reading and writing the five value types and triggers, one overload per type as in Rive.
///
/// Reads are `async throws` and see every call queued before them. Setters and `fire` return
/// at once, as Rive's: the call is queued, checked locally (path, type, enum value) and sent;
/// a failure Rive would only log goes to `Worker.errors()`. `confirmed` has the awaited forms.
extension ViewModelInstance {
    public func value(of property: StringProperty) async throws -> String {
        await calls.barrier()
        guard case .string(let s) = try await read(property.path, .string) else { throw ViewModelInstanceError.missingData }
        return s
    }

    public func value(of property: NumberProperty) async throws -> Float {
        await calls.barrier()
        guard case .number(let n) = try await read(property.path, .number) else { throw ViewModelInstanceError.missingData }
        return n
    }

    public func value(of property: BoolProperty) async throws -> Bool {
        await calls.barrier()
        guard case .boolean(let b) = try await read(property.path, .boolean) else { throw ViewModelInstanceError.missingData }
        return b
    }

    public func value(of property: ColorProperty) async throws -> Color {
        await calls.barrier()
        guard case .color(let argb) = try await read(property.path, .color) else { throw ViewModelInstanceError.missingData }
        return Color(argb)
    }

    public func value(of property: EnumProperty) async throws -> String {
        await calls.barrier()
        guard case .enumValue(let e) = try await read(property.path, .enum) else { throw ViewModelInstanceError.missingData }
        return e
    }

    public func setValue(of property: StringProperty, to value: String) {
        post("setValue(of: \(property), to: \(value.debugDescription))") { [self] in
            try await submitSet(property.path, .string, .string(value))
        }
    }

    public func setValue(of property: NumberProperty, to value: Float) {
        post("setValue(of: \(property), to: \(value))") { [self] in try await submitNumber(property, value) }
    }

    public func setValue(of property: BoolProperty, to value: Bool) {
        post("setValue(of: \(property), to: \(value))") { [self] in try await submitSet(property.path, .boolean, .bool(value)) }
    }

    public func setValue(of property: ColorProperty, to value: Color) {
        post("setValue(of: \(property), to: \(value))") { [self] in try await submitSet(property.path, .color, .string(value.description)) }
    }

    public func setValue(of property: EnumProperty, to value: String) {
        post("setValue(of: \(property), to: \(value.debugDescription))") { [self] in
            try await submitSet(property.path, .enum, .string(value))
        }
    }

    /// Fires a trigger.
    public func fire(trigger property: TriggerProperty) {
        post("fire(trigger: \(property))") { [self] in try await submitFire(property) }
    }

    /// How many times a trigger has fired since the instance was created (RiveSync only).
    public func fireCount(of property: TriggerProperty) async throws -> UInt64 {
        await calls.barrier()
        guard case .trigger(let count) = try await read(property.path, .trigger) else { throw ViewModelInstanceError.missingData }
        return count
    }

    func submitNumber(_ property: NumberProperty, _ value: Float) async throws -> Reply {
        guard value.isFinite else {
            throw ViewModelInstanceError.invalidValue(path: property.path, reason: "numbers must be finite 32-bit floats")
        }
        return try await submitSet(property.path, .number, ValueCodec.number(value))
    }

    func submitFire(_ property: TriggerProperty) async throws -> Reply {
        try await submit(property.path, .trigger) { .fire(target: $0, path: ParsedPath($1)) }
    }
}
