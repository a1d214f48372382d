/// Rive's operation converters (`DataConverterOperation`, type 516): arithmetic between the
/// input number and an operand.
///
/// - `DataConverterOperationValue` (500): the operand is `operationValue` (key 681, default 1).
/// - `DataConverterOperationViewModel` (517): the operand is the view-model number at
///   `sourcePathIds` (key 711), read at each conversion (0 while it does not resolve).
/// - `DataConverterSystemDegsToRads` (514) and `DataConverterSystemNormalizer` (515): operation
///   values whose direction follows the bind: on a bind whose main direction is to source,
///   `convert` runs the reverse operation; on a bind to target, `reverseConvert` runs the
///   forward one.
public struct DataConverterOperation: Sendable, Hashable {
    /// Where the operand comes from.
    public enum Operand: Sendable, Hashable {
        /// `operationValue` (key 681).
        case value(Float)
        /// The number at this view-model source path (key 711).
        case viewModel(sourcePathIds: [UInt32])
    }

    /// Which Rive type the operation is.
    public enum System: Sendable, Hashable {
        /// A plain operation (value or view model).
        case none
        /// `DataConverterSystemDegsToRads` (514).
        case degreesToRadians
        /// `DataConverterSystemNormalizer` (515).
        case normalizer
    }

    /// `operationType` (key 682, default add). Nil for a number Rive does not define, which
    /// leaves the operand as the result, as Rive's runtime does.
    public var operation: ArithmeticOperation?
    public var operand: Operand
    public var system: System

    public init(operation: ArithmeticOperation?, operand: Operand, system: System = .none) {
        self.operation = operation
        self.operand = operand
        self.system = system
    }

    func operandValue(_ context: some DataConverterContext) -> Float {
        switch operand {
        case .value(let value): return value
        case .viewModel(let path): return context.number(atSourcePath: path) ?? 0
        }
    }

    /// Numbers and symbol list indices give `input op operand`; any other value gives 0.
    func convert(_ value: PropertyValue, _ context: some DataConverterContext) -> PropertyValue {
        if system != .none, context.bindIsToSource { return reverseOperation(value, context) }
        return forwardOperation(value, context)
    }

    /// A number gives the input the operation maps to it; any other value gives 0.
    func reverseConvert(_ value: PropertyValue, _ context: some DataConverterContext) -> PropertyValue {
        if system != .none, !context.bindIsToSource { return forwardOperation(value, context) }
        return reverseOperation(value, context)
    }

    private func forwardOperation(_ value: PropertyValue, _ context: some DataConverterContext) -> PropertyValue {
        let input: Float
        switch value {
        case .number(let number): input = number
        case .symbolListIndex(let index): input = Float(index)
        default: return .number(0)
        }
        let operand = operandValue(context)
        return .number(operation?.apply(input, operand) ?? operand)
    }

    private func reverseOperation(_ value: PropertyValue, _ context: some DataConverterContext) -> PropertyValue {
        guard case .number(let output) = value else { return .number(0) }
        let operand = operandValue(context)
        return .number(operation?.reverse(output, operand) ?? operand)
    }
}
