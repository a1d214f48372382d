/// A component property's value as an animation reads and writes it, in the kind Rive's
/// runtime stores it (`CoreRegistry`'s double, color, bool, uint, int and string setters).
public enum AnimatedValue: Sendable, Hashable {
    /// A number (Rive calls the kind "double" but keeps it in 32 bits).
    case double(Float)
    /// 0xAARRGGBB.
    case color(UInt32)
    case bool(Bool)
    /// Ids, enums, flags and counts.
    case uint(UInt32)
    case int(Int32)
    case string(String)
}
