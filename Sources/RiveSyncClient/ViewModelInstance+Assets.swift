internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol

/// Images, fonts, blobs and artboards. Rive makes these write-only; RiveSync can also read
/// them back (the asset reference, or the artboard's name). Setters return at once (see
/// `ViewModelInstance+Values`); `confirmed` has the awaited forms.
extension ViewModelInstance {
    /// Sets an image; nil clears it.
    public func setValue(of property: ImageProperty, to image: Image?) {
        post("setValue(of: \(property), to: \(image.map { "\($0)" } ?? "nil"))") { [self] in
            try await submitSet(property.path, .assetImage, Self.json(image?.reference))
        }
    }

    /// Sets a font; nil clears it.
    public func setValue(of property: FontProperty, to font: Font?) {
        post("setValue(of: \(property), to: \(font.map { "\($0)" } ?? "nil"))") { [self] in
            try await submitSet(property.path, .assetFont, Self.json(font?.reference))
        }
    }

    /// Sets a blob; nil clears it.
    public func setValue(of property: BlobProperty, to blob: Blob?) {
        post("setValue(of: \(property), to: \(blob.map { "\($0)" } ?? "nil"))") { [self] in
            try await submitSet(property.path, .assetBlob, Self.json(blob?.reference))
        }
    }

    /// Sets an artboard of the same file; nil clears it.
    public func setValue(of property: ArtboardProperty, to artboard: Artboard?) {
        post("setValue(of: \(property), to: \(artboard.map { "Artboard(\($0.name))" } ?? "nil"))") { [self] in
            try await submitSet(property.path, .artboard, artboard.map { .string($0.name) } ?? .null)
        }
    }

    public func value(of property: ImageProperty) async throws -> Image? {
        try await asset(property.path, .assetImage).map(Image.init)
    }

    public func value(of property: FontProperty) async throws -> Font? {
        try await asset(property.path, .assetFont).map(Font.init)
    }

    public func value(of property: BlobProperty) async throws -> Blob? {
        try await asset(property.path, .assetBlob).map(Blob.init)
    }

    /// The name of the artboard set, nil when none.
    public func value(of property: ArtboardProperty) async throws -> String? {
        await calls.barrier()
        guard case .artboard(let name) = try await read(property.path, .artboard) else { throw ViewModelInstanceError.missingData }
        return name
    }

    private func asset(_ path: String, _ type: DataType) async throws -> AssetReference? {
        await calls.barrier()
        guard case .asset(let reference) = try await read(path, type) else { throw ViewModelInstanceError.missingData }
        return reference.map { AssetReference(id: $0.id, byteCount: $0.byteCount, mediaType: $0.mediaType) }
    }

    static func json(_ reference: AssetReference?) -> JSONValue {
        guard let reference else { return .null }
        return ValueCodec.encode(.asset(.init(id: reference.id, byteCount: reference.byteCount, mediaType: reference.mediaType)))
    }
}
