/// One token of a formula converter (Rive's `FormulaToken` objects, which follow their
/// `DataConverterFormula` in the file).
public enum FormulaToken: Sendable, Hashable {
    /// `FormulaTokenValue` (543): a number (`operationValue`, key 777, default 1).
    case value(Float)
    /// `FormulaTokenInput` (545): the converter's input.
    case input
    /// `FormulaTokenOperation` (541): `operationType` (key 775); nil for a number Rive does not
    /// define (it computes 0).
    case operation(ArithmeticOperation?)
    /// `FormulaTokenFunction` (542): `functionType` (key 776); it also opens a parenthesis.
    case function(FormulaFunction?)
    /// `FormulaTokenParenthesisOpen` (544).
    case parenthesisOpen
    /// `FormulaTokenParenthesisClose` (540).
    case parenthesisClose
    /// `FormulaTokenArgumentSeparator` (538).
    case argumentSeparator
    /// A token of an abstract type (`FormulaToken` 537, `FormulaTokenParenthesis` 539): kept
    /// in place, ignored by the calculation as in Rive.
    case other

    /// Rive's type keys.
    enum TypeKey {
        static let token = 537
        static let argumentSeparator = 538
        static let parenthesis = 539
        static let parenthesisClose = 540
        static let operation = 541
        static let function = 542
        static let value = 543
        static let parenthesisOpen = 544
        static let input = 545
    }

    /// The token an object of the `.riv` stream describes, nil if it is not a formula token.
    init?(_ object: RiveObject) {
        switch object.typeKey {
        case TypeKey.value: self = .value(object.float(777) ?? 1)
        case TypeKey.input: self = .input
        case TypeKey.operation: self = .operation(ArithmeticOperation(rawValue: object.uint(775) ?? 0))
        case TypeKey.function: self = .function(FormulaFunction(rawValue: object.uint(776) ?? 0))
        case TypeKey.parenthesisOpen: self = .parenthesisOpen
        case TypeKey.parenthesisClose: self = .parenthesisClose
        case TypeKey.argumentSeparator: self = .argumentSeparator
        case TypeKey.token, TypeKey.parenthesis: self = .other
        default: return nil
        }
    }

    /// Rive's operator precedence: parentheses and functions 1, add and subtract 2, multiply
    /// and divide 3, everything else (modulo included) 0.
    var precedence: Int {
        switch self {
        case .parenthesisOpen, .parenthesisClose, .function: return 1
        case .operation(.add), .operation(.subtract): return 2
        case .operation(.multiply), .operation(.divide): return 3
        default: return 0
        }
    }

    /// Whether the token opens a parenthesis (a function does too).
    var opens: Bool {
        switch self {
        case .parenthesisOpen, .function: return true
        default: return false
        }
    }
}

/// Rive's `FunctionType`: a formula function (`functionType`, key 776).
public enum FormulaFunction: UInt64, Sendable, Hashable, CaseIterable {
    case min = 0
    case max = 1
    case round = 2
    case ceil = 3
    case floor = 4
    case sqrt = 5
    case pow = 6
    case exp = 7
    case log = 8
    case cosine = 9
    case sine = 10
    case tangent = 11
    case acosine = 12
    case asine = 13
    case atangent = 14
    case atangent2 = 15
    case random = 16
}
