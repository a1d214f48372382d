/// A data bind whose target is a converter or one of its formula tokens (a `DataBindContext`,
/// type 447, written right after the object it binds): it feeds a converter property from a
/// view-model property.
public struct DataConverterBind: Sendable, Hashable {
    /// The bound converter property (`DataBind.propertyKey`, key 586), e.g. 681
    /// `operationValue`, 716–719 a range mapper's bounds, 756 an interpolator's `duration`,
    /// 777 a formula value's `operationValue`.
    public var propertyKey: Int
    /// `DataBind.flags` (key 587).
    public var flags: UInt64
    /// The file converter the bind itself converts through (`converterId`, key 660), if any.
    public var converterId: Int?
    /// The view-model path of the source (`sourcePathIds`, key 588).
    public var sourcePathIds: [UInt32]
    /// For a bind on a formula token: the token's index among the formula's tokens.
    public var formulaToken: Int?

    public init(
        propertyKey: Int, flags: UInt64 = 0, converterId: Int? = nil, sourcePathIds: [UInt32] = [], formulaToken: Int? = nil
    ) {
        self.propertyKey = propertyKey
        self.flags = flags
        self.converterId = converterId
        self.sourcePathIds = sourcePathIds
        self.formulaToken = formulaToken
    }
}

extension DataConverter {
    /// Writes a bound value into a converter property (see ``binds``); numbers go to number
    /// properties (and, rounded down, to counts and flags), strings to text properties. Returns
    /// whether the converter has that property. A bound duration or bound bounds take effect
    /// at the next conversion, as in Rive (which marks the bind dirty).
    @discardableResult
    public mutating func setProperty(_ key: Int, to value: PropertyValue, formulaToken: Int? = nil) -> Bool {
        let number: Float? = if case .number(let number) = value { number } else { nil }
        let text: String? = if case .string(let text) = value { text } else { nil }
        let count = number.map { $0.isNaN || $0 < 0 ? 0 : UInt64(min($0, 1_000_000_000)) }
        switch (kind, key) {
        case (.operation(var converter), 681):
            guard let number else { return false }
            converter.operand = .value(number)
            kind = .operation(converter)
        case (.rangeMapper(var converter), 713...719):
            guard let number, let count else { return false }
            switch key {
            case 713: converter.interpolationType = count
            case 715: converter.flags = .init(rawValue: count)
            case 716: converter.minInput = number
            case 717: converter.maxInput = number
            case 718: converter.minOutput = number
            case 719: converter.maxOutput = number
            default: return false
            }
            kind = .rangeMapper(converter)
        case (.interpolator(var converter), 756):
            guard let number else { return false }
            converter.duration = number
            kind = .interpolator(converter)
        case (.rounder(var converter), 669):
            guard let count else { return false }
            converter.decimals = count
            kind = .rounder(converter)
        case (.toString(var converter), 764...766):
            switch key {
            case 764: if let count { converter.flags = .init(rawValue: count) } else { return false }
            case 765: if let count { converter.decimals = count } else { return false }
            default: if let text { converter.colorFormat = text } else { return false }
            }
            kind = .toString(converter)
        case (.stringPad(var converter), 743...745):
            switch key {
            case 743: if let count { converter.length = count } else { return false }
            case 744: if let text { converter.text = text } else { return false }
            default: if let count { converter.padType = count } else { return false }
            }
            kind = .stringPad(converter)
        case (.stringTrim(var converter), 746):
            guard let count else { return false }
            converter.trimType = count
            kind = .stringTrim(converter)
        case (.formula(var converter), 777):
            guard let number, let formulaToken else { return false }
            converter.setValue(number, ofToken: formulaToken)
            kind = .formula(converter)
        default:
            return false
        }
        return true
    }
}
