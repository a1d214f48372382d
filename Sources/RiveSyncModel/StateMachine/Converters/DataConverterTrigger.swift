/// Rive's `DataConverterTrigger` (type 504): turns an integer-like value (a trigger's count,
/// an enum's index) into a trigger value one higher, so that every change of the source reads
/// as a new firing on the target. Any other value gives an unfired trigger (0).
///
/// Rive also counts artboard and asset values as integers (their file indices); the model
/// holds those by name, so they give 0 here.
public struct DataConverterTrigger: Sendable, Hashable {
    public init() {}

    func convert(_ value: PropertyValue, _ context: some DataConverterContext) -> PropertyValue {
        let integer: UInt32
        switch value {
        case .trigger(let count): integer = UInt32(truncatingIfNeeded: count)
        case .enumValue(let name): integer = UInt32(context.enumValues.firstIndex(of: name) ?? 0)
        default: return .trigger(0)
        }
        return .trigger(UInt64(integer &+ 1))
    }
}
