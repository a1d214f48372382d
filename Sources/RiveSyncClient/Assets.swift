/// Uploaded content (image, font or blob) the daemon holds by content id.
public struct AssetReference: Sendable, Hashable {
    /// `sha256:<hex>` for uploads, `file:<name>` for assets authored in the file.
    public let id: String
    public let byteCount: Int
    public let mediaType: String
}

/// An image the daemon accepted (`Worker.decodeImage(from:)`), for `ImageProperty`.
public struct Image: Sendable, Hashable {
    public let reference: AssetReference
}

/// A font the daemon accepted (`Worker.decodeFont(from:)`), for `FontProperty`.
public struct Font: Sendable, Hashable {
    public let reference: AssetReference
}

/// Arbitrary bytes the daemon holds (`Worker.decodeBlob(from:)`), for `BlobProperty`.
public struct Blob: Sendable, Hashable {
    public let reference: AssetReference
}
