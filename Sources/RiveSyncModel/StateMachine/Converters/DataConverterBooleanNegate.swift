/// Rive's `DataConverterBooleanNegate` (type 535), the editor's "boolean toggle": negates a
/// boolean both ways; any other value gives false.
public struct DataConverterBooleanNegate: Sendable, Hashable {
    public init() {}

    func convert(_ value: PropertyValue) -> PropertyValue {
        guard case .boolean(let flag) = value else { return .boolean(false) }
        return .boolean(!flag)
    }
}
