/// Where the serializer writes JSON text: a byte array, or a buffer that keeps room for a
/// transport's frame header in front of the text (`HeadroomBytes`, and `HeadroomWriter`, which
/// writes one into a block of its own).
public protocol JSONOutput: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer)
    /// Makes room for `count` bytes in all, so that writing them allocates at most once.
    mutating func reserveCapacity(_ count: Int)
}

extension Array: JSONOutput where Element == UInt8 {}
