/// Rive's `DataConverterListToLength` (type 591): a list's item count; any other value gives 0.
public struct DataConverterListToLength: Sendable, Hashable {
    public init() {}

    func convert(_ value: PropertyValue) -> PropertyValue {
        guard case .list(let items) = value else { return .number(0) }
        return .number(Float(items.count))
    }
}
