/// A log-linear latency histogram in nanoseconds: exact below 64 ns, then 32 buckets per
/// power of two (about 3 % resolution). Bucket indices are stable, so histograms from several
/// processes merge by adding counts (`bench/run.py` does that with the same formula).
public struct LatencyHistogram: Sendable {
    /// Sub-buckets per power of two, as a shift.
    static let subBits = 5
    /// Counts by bucket index; grows on demand.
    public private(set) var counts: [Int] = []
    public private(set) var total = 0
    public private(set) var maxValue: UInt64 = 0

    public init() {}

    /// The bucket of `value`.
    public static func index(of value: UInt64) -> Int {
        let linear = UInt64(2 << subBits)
        if value < linear { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount
        let sub = Int((value >> UInt64(exponent - subBits)) & UInt64((1 << subBits) - 1))
        return Int(linear) + (exponent - subBits - 1) * (1 << subBits) + sub
    }

    /// The smallest value that falls in bucket `index`.
    public static func lowerBound(of index: Int) -> UInt64 {
        let linear = 2 << subBits
        if index < linear { return UInt64(index) }
        let exponent = (index - linear) >> subBits + subBits + 1
        let sub = UInt64(index & ((1 << subBits) - 1))
        return (UInt64(1 << subBits) + sub) << UInt64(exponent - subBits)
    }

    /// Adds one sample.
    public mutating func record(_ value: UInt64) {
        let index = Self.index(of: value)
        if index >= counts.count { counts += Array(repeating: 0, count: index + 1 - counts.count) }
        counts[index] += 1
        total += 1
        maxValue = max(maxValue, value)
    }

    /// Adds another histogram's samples.
    public mutating func merge(_ other: LatencyHistogram) {
        if other.counts.count > counts.count { counts += Array(repeating: 0, count: other.counts.count - counts.count) }
        for (index, count) in other.counts.enumerated() { counts[index] += count }
        total += other.total
        maxValue = max(maxValue, other.maxValue)
    }

    /// The lower bound of the bucket holding the `fraction` quantile (0...1), 0 when empty.
    public func quantile(_ fraction: Double) -> UInt64 {
        guard total > 0 else { return 0 }
        let rank = max(1, Int((fraction * Double(total)).rounded(.up)))
        var seen = 0
        for (index, count) in counts.enumerated() {
            seen += count
            if seen >= rank { return Self.lowerBound(of: index) }
        }
        return maxValue
    }
}
