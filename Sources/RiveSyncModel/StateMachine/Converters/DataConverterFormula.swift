import Foundation

/// Rive's `DataConverterFormula` (type 536): an arithmetic formula over the input number,
/// written as the ``FormulaToken``s that follow it in the file. The tokens are put in reverse
/// Polish order once (Rive's shunting-yard pass, quirks included: modulo binds loosest and a
/// function counts one argument plus one per separator) and evaluated per conversion. A
/// malformed formula gives its input back; a value that is neither a number nor a symbol list
/// index gives 0. It converts the same way in both directions.
public struct DataConverterFormula: Sendable, Hashable {
    /// When `random` draws a new number (`randomModeValue`, key 887).
    public enum RandomMode: UInt64, Sendable, Hashable {
        /// One number per converter, kept.
        case once = 0
        /// A new number at every evaluation.
        case always = 1
        /// A new number after the bind's source changed.
        case sourceChange = 2
    }

    /// The tokens in file order.
    public private(set) var tokens: [FormulaToken]
    /// Indices into ``tokens`` in evaluation (reverse Polish) order.
    public private(set) var outputQueue: [Int] = []
    /// How many arguments each function (and open parenthesis) takes, by token index.
    public private(set) var argumentCounts: [Int: Int] = [:]
    /// Nil for a mode Rive does not define (it behaves as ``RandomMode/once``).
    public var randomMode: RandomMode?
    /// Random numbers drawn so far.
    var randoms: [Float] = []

    public init(tokens: [FormulaToken], randomMode: RandomMode? = .once) {
        self.tokens = tokens
        self.randomMode = randomMode
        order()
    }

    /// Sets a value token's number (a bind on `operationValue`, key 777, of token `index`).
    public mutating func setValue(_ value: Float, ofToken index: Int) {
        guard tokens.indices.contains(index), case .value = tokens[index] else { return }
        tokens[index] = .value(value)
    }

    /// Forgets the drawn random numbers if they are drawn per source change.
    mutating func sourceChanged() {
        if randomMode == .sourceChange { randoms.removeAll() }
    }

    /// Rive's `calculateFormula`.
    private mutating func order() {
        var stack: [Int] = []
        for (index, token) in tokens.enumerated() {
            switch token {
            case .value, .input:
                outputQueue.append(index)
            case .operation:
                while let top = stack.last, tokens[top] != .parenthesisOpen, tokens[top].precedence >= token.precedence {
                    outputQueue.append(stack.removeLast())
                }
                stack.append(index)
            case .parenthesisOpen, .function:
                let next = index + 1 < tokens.count ? tokens[index + 1] : nil
                argumentCounts[index] = next == .parenthesisClose ? 0 : 1
                stack.append(index)
            case .parenthesisClose:
                while let top = stack.last, !tokens[top].opens { outputQueue.append(stack.removeLast()) }
                if let opening = stack.popLast(), case .function = tokens[opening] { outputQueue.append(opening) }
            case .argumentSeparator:
                guard !stack.isEmpty else { continue }
                if let owner = stack.last(where: { argumentCounts[$0] != nil }) { argumentCounts[owner, default: 0] += 1 }
                while let top = stack.last, !tokens[top].opens { outputQueue.append(stack.removeLast()) }
            case .other:
                continue
            }
        }
        while let operation = stack.popLast() {
            if tokens[operation] != .parenthesisOpen { outputQueue.append(operation) }
        }
    }

    mutating func convert(_ value: PropertyValue, _ context: inout some DataConverterContext) -> PropertyValue {
        let input: Float
        switch value {
        case .number(let number): input = number
        case .symbolListIndex(let index): input = Float(index)
        default: return .number(0)
        }
        var stack: [Float] = []
        for index in outputQueue {
            switch tokens[index] {
            case .operation(let operation):
                guard stack.count > 1 else { continue }
                let right = stack.removeLast()
                let left = stack.removeLast()
                stack.append(Self.apply(operation, left, right))
            case .function(let function):
                stack.append(apply(function, &stack, argumentCounts[index] ?? 0, &context))
            case .input:
                stack.append(input)
            case .value(let number):
                stack.append(number)
            default:
                continue
            }
        }
        return .number(stack.count == 1 ? stack[0] : input)
    }

    private static func apply(_ operation: ArithmeticOperation?, _ left: Float, _ right: Float) -> Float {
        guard let operation, [.add, .subtract, .multiply, .divide, .modulo].contains(operation) else { return 0 }
        return operation.apply(left, right)
    }

    /// Rive's `applyFunction`: pops the arguments (so `arguments.last` is the first one).
    private mutating func apply(
        _ function: FormulaFunction?, _ stack: inout [Float], _ count: Int, _ context: inout some DataConverterContext
    ) -> Float {
        var arguments: [Float] = []
        for _ in 0..<max(count, 0) {
            if let argument = stack.popLast() { arguments.append(argument) }
        }
        guard let function else { return 0 }
        guard let first = arguments.last else { return function == .random ? random(&context) : 0 }
        switch function {
        case .min: return arguments.dropFirst().reduce(arguments[0]) { $1 < $0 ? $1 : $0 }
        case .max: return arguments.dropFirst().reduce(arguments[0]) { $1 > $0 ? $1 : $0 }
        case .round: return first.rounded(.toNearestOrAwayFromZero)
        case .ceil: return first.rounded(.up)
        case .floor: return first.rounded(.down)
        case .sqrt: return first.squareRoot()
        case .pow: return arguments.count > 1 ? powf(first, arguments[arguments.count - 2]) : 0
        case .exp: return Float(Foundation.exp(Double(first)))
        case .log: return Float(Foundation.log(Double(first)))
        case .cosine: return Float(Foundation.cos(Double(first)))
        case .sine: return Float(Foundation.sin(Double(first)))
        case .tangent: return Float(Foundation.tan(Double(first)))
        case .acosine: return Float(Foundation.acos(Double(first)))
        case .asine: return Float(Foundation.asin(Double(first)))
        case .atangent: return Float(Foundation.atan(Double(first)))
        case .atangent2:
            return arguments.count > 1 ? Float(Foundation.atan2(Double(first), Double(arguments[arguments.count - 2]))) : 0
        case .random:
            let randomValue = random(&context)
            let (lower, upper): (Float, Float) = arguments.count == 1 ? (0, first) : (first, arguments[arguments.count - 2])
            return lower + (upper - lower) * randomValue
        }
    }

    /// Rive's `getRandom(0)`: every `random` of a formula shares the first drawn number unless
    /// the mode is ``RandomMode/always``.
    private mutating func random(_ context: inout some DataConverterContext) -> Float {
        if randomMode == .always { return context.randomFloat() }
        if randoms.isEmpty { randoms.append(context.randomFloat()) }
        return randoms[0]
    }
}
