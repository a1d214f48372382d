import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// Reading and writing the five value types, one overload per type as in Rive.
///
/// Unlike Rive, a setter is `async throws`: it returns after the daemon applied the write (the
/// `Receipt` names the batch) and throws a `ViewModelInstanceError` for a bad path, a wrong
/// type or an unknown enum value, which Rive only logs.
extension ViewModelInstance {
    public func value(of property: StringProperty) async throws -> String {
        guard case .string(let s) = try await read(property.path, .string) else { throw ViewModelInstanceError.missingData }
        return s
    }

    public func value(of property: NumberProperty) async throws -> Float {
        guard case .number(let n) = try await read(property.path, .number) else { throw ViewModelInstanceError.missingData }
        return n
    }

    public func value(of property: BoolProperty) async throws -> Bool {
        guard case .boolean(let b) = try await read(property.path, .boolean) else { throw ViewModelInstanceError.missingData }
        return b
    }

    public func value(of property: ColorProperty) async throws -> Color {
        guard case .color(let argb) = try await read(property.path, .color) else { throw ViewModelInstanceError.missingData }
        return Color(argb)
    }

    public func value(of property: EnumProperty) async throws -> String {
        guard case .enumValue(let e) = try await read(property.path, .enum) else { throw ViewModelInstanceError.missingData }
        return e
    }

    @discardableResult
    public func setValue(of property: StringProperty, to value: String) async throws -> Receipt {
        try await set(property.path, .string, .string(value))
    }

    @discardableResult
    public func setValue(of property: NumberProperty, to value: Float) async throws -> Receipt {
        guard value.isFinite else {
            throw ViewModelInstanceError.invalidValue(path: property.path, reason: "numbers must be finite 32-bit floats")
        }
        return try await set(property.path, .number, ValueCodec.number(value))
    }

    @discardableResult
    public func setValue(of property: BoolProperty, to value: Bool) async throws -> Receipt {
        try await set(property.path, .boolean, .bool(value))
    }

    @discardableResult
    public func setValue(of property: ColorProperty, to value: Color) async throws -> Receipt {
        try await set(property.path, .color, .string(value.description))
    }

    @discardableResult
    public func setValue(of property: EnumProperty, to value: String) async throws -> Receipt {
        try await set(property.path, .enum, .string(value))
    }

    /// Fires a trigger; returns after the daemon applied the fire.
    @discardableResult
    public func fire(trigger property: TriggerProperty) async throws -> Receipt {
        try await command(property.path, .trigger) { .fire(target: $0, path: $1) }
    }

    /// How many times a trigger has fired since the instance was created (RiveSync only).
    public func fireCount(of property: TriggerProperty) async throws -> UInt64 {
        guard case .trigger(let count) = try await read(property.path, .trigger) else { throw ViewModelInstanceError.missingData }
        return count
    }
}
