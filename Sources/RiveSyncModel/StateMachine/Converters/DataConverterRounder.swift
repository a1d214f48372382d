import Foundation

/// Rive's `DataConverterRounder` (type 489): rounds a number to `decimals` places (key 669).
public struct DataConverterRounder: Sendable, Hashable {
    public var decimals: UInt64

    public init(decimals: UInt64 = 0) {
        self.decimals = decimals
    }

    /// A number rounds (halves away from zero); any other value gives 0.
    func convert(_ value: PropertyValue) -> PropertyValue {
        guard case .number(let number) = value else { return .number(0) }
        let scale = Float(Foundation.pow(10.0, Double(Float(decimals))))
        return .number((number * scale).rounded(.toNearestOrAwayFromZero) / scale)
    }
}
