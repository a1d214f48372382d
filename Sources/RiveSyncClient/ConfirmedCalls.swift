internal import RiveSyncJSON
internal import RiveSyncProtocol

extension ViewModelInstance {
    /// The awaited forms of the calls that return at once: each returns after the daemon
    /// applied it, with a `Receipt`, or throws the typed error Rive would only log
    /// (`try await instance.confirmed.setValue(of: mood, to: 5)`). They share the worker's call
    /// queue with the immediate forms, so both kinds apply in call order.
    ///
    /// (Swift picks the `async` overload of a name inside `async` code, so the awaited calls
    /// cannot have Rive's names on the instance itself without breaking Rive's code there.)
    public var confirmed: ConfirmedCalls { ConfirmedCalls(instance: self) }
}

/// `ViewModelInstance.confirmed`: setters, `fire`, list edits and nested reads that return
/// after the daemon applied them. On a manual state machine the acknowledgement comes with the
/// next `advance()`.
public struct ConfirmedCalls: Sendable {
    public let instance: ViewModelInstance

    private func run(_ submit: @escaping CallQueue.Submit) async throws -> Receipt {
        try Receipt(try await instance.calls.run(submit))
    }

    @discardableResult
    public func setValue(of property: StringProperty, to value: String) async throws -> Receipt {
        try await run { try await instance.submitSet(property.path, .string, .string(value)) }
    }

    @discardableResult
    public func setValue(of property: NumberProperty, to value: Float) async throws -> Receipt {
        try await run { try await instance.submitNumber(property, value) }
    }

    @discardableResult
    public func setValue(of property: BoolProperty, to value: Bool) async throws -> Receipt {
        try await run { try await instance.submitSet(property.path, .boolean, .bool(value)) }
    }

    @discardableResult
    public func setValue(of property: ColorProperty, to value: Color) async throws -> Receipt {
        try await run { try await instance.submitSet(property.path, .color, .string(value.description)) }
    }

    @discardableResult
    public func setValue(of property: EnumProperty, to value: String) async throws -> Receipt {
        try await run { try await instance.submitSet(property.path, .enum, .string(value)) }
    }

    @discardableResult
    public func setValue(of property: ImageProperty, to image: Image?) async throws -> Receipt {
        try await run { try await instance.submitSet(property.path, .assetImage, ViewModelInstance.json(image?.reference)) }
    }

    @discardableResult
    public func setValue(of property: FontProperty, to font: Font?) async throws -> Receipt {
        try await run { try await instance.submitSet(property.path, .assetFont, ViewModelInstance.json(font?.reference)) }
    }

    @discardableResult
    public func setValue(of property: BlobProperty, to blob: Blob?) async throws -> Receipt {
        try await run { try await instance.submitSet(property.path, .assetBlob, ViewModelInstance.json(blob?.reference)) }
    }

    @discardableResult
    public func setValue(of property: ArtboardProperty, to artboard: Artboard?) async throws -> Receipt {
        try await run { try await instance.submitSet(property.path, .artboard, artboard.map { .string($0.name) } ?? .null) }
    }

    /// Fires a trigger; returns after the daemon applied the fire.
    @discardableResult
    public func fire(trigger property: TriggerProperty) async throws -> Receipt {
        try await run { try await instance.submitFire(property) }
    }

    /// The nested instance at the property.
    /// - Throws: `ViewModelInstanceError.nullInstance` when it is null.
    public func value(of property: ViewModelInstanceProperty) async throws -> ViewModelInstance {
        await instance.calls.barrier()
        return try await instance.nested(property)
    }

    /// Replaces the nested instance (it must be of the property's view model).
    @discardableResult
    public func setValue(of property: ViewModelInstanceProperty, to other: ViewModelInstance) async throws -> Receipt {
        try await run { try await instance.submitNested(property, other) }
    }

    /// The item at `index`.
    /// - Throws: `ViewModelInstanceError.indexOutOfRange`.
    public func value(of property: ListProperty, at index: Int32) async throws -> ViewModelInstance {
        await instance.calls.barrier()
        return try await instance.item(property, at: index)
    }

    @discardableResult
    public func appendInstance(_ other: ViewModelInstance, to list: ListProperty) async throws -> Receipt {
        try await run { try await instance.submitAppend(other, to: list) }
    }

    @discardableResult
    public func insertInstance(_ other: ViewModelInstance, to list: ListProperty, at index: Int32) async throws -> Receipt {
        try await run { try await instance.submitInsert(other, to: list, at: index) }
    }

    @discardableResult
    public func removeInstance(at index: Int32, from list: ListProperty) async throws -> Receipt {
        try await run { try await instance.submitRemove(at: index, from: list) }
    }

    /// Removes every occurrence of the instance from the list.
    @discardableResult
    public func removeInstance(_ other: ViewModelInstance, from list: ListProperty) async throws -> Receipt {
        try await run { try await instance.submitRemove(other, from: list) }
    }

    @discardableResult
    public func swapInstance(atIndex index: Int32, withIndex other: Int32, in list: ListProperty) async throws -> Receipt {
        try await run { try await instance.submitSwap(index, other, in: list) }
    }
}
