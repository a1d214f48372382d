#if canImport(Glibc)
    import Glibc
#endif

/// C strings that must outlive an lws context (lws keeps pointers to names and paths).
/// Freed when the arena is released, after the context is destroyed.
final class CStringArena {
    private var strings: [UnsafeMutablePointer<CChar>] = []

    /// A `strdup` copy of `string`, valid for the arena's lifetime.
    func dup(_ string: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(string)!
        strings.append(copy)
        return copy
    }

    deinit { strings.forEach { free($0) } }
}
