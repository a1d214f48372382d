import Foundation

/// Rive's `ArithmeticOperation`: what an operation converter (`operationType`, key 682) or a
/// formula's operation token (`operationType`, key 775) computes.
public enum ArithmeticOperation: UInt64, Sendable, Hashable, CaseIterable {
    case add = 0
    case subtract = 1
    case multiply = 2
    case divide = 3
    case modulo = 4
    case squareRoot = 5
    case power = 6
    case exp = 7
    case log = 8
    case cosine = 9
    case sine = 10
    case tangent = 11
    case acosine = 12
    case asine = 13
    case atangent = 14
    case atangent2 = 15
    case round = 16
    case floor = 17
    case ceil = 18

    /// `input op operand`, in Float as Rive computes it (the transcendental functions go
    /// through double precision, as the C library's unsuffixed functions do).
    func apply(_ input: Float, _ operand: Float) -> Float {
        switch self {
        case .add: return input + operand
        case .subtract: return input - operand
        case .multiply: return input * operand
        case .divide: return input / operand
        case .modulo: return Self.positiveModulo(input, operand)
        case .squareRoot: return input.squareRoot()
        case .power: return powf(input, operand)
        case .exp: return Float(Foundation.exp(Double(input)))
        case .log: return Float(Foundation.log(Double(input)))
        case .cosine: return Float(Foundation.cos(Double(input)))
        case .sine: return Float(Foundation.sin(Double(input)))
        case .tangent: return Float(Foundation.tan(Double(input)))
        case .acosine: return Float(Foundation.acos(Double(input)))
        case .asine: return Float(Foundation.asin(Double(input)))
        case .atangent: return Float(Foundation.atan(Double(input)))
        case .atangent2: return Float(Foundation.atan2(Double(input), Double(operand)))
        case .round: return input.rounded(.toNearestOrAwayFromZero)
        case .floor: return input.rounded(.down)
        case .ceil: return input.rounded(.up)
        }
    }

    /// The input that `apply` would turn into `output`, where Rive defines one; modulo, atan2
    /// and the rounding operations give `output` back unchanged.
    func reverse(_ output: Float, _ operand: Float) -> Float {
        switch self {
        case .add: return output - operand
        case .subtract: return output + operand
        case .multiply: return output / operand
        case .divide: return output * operand
        case .modulo, .atangent2, .round, .floor, .ceil: return output
        case .squareRoot: return powf(output, 2)
        case .power: return powf(output, 1 / operand)
        case .exp: return Float(Foundation.log(Double(output)))
        case .log: return Float(Foundation.exp(Double(output)))
        case .cosine: return Float(Foundation.acos(Double(output)))
        case .sine: return Float(Foundation.asin(Double(output)))
        case .tangent: return Float(Foundation.atan(Double(output)))
        case .acosine: return Float(Foundation.cos(Double(output)))
        case .asine: return Float(Foundation.sin(Double(output)))
        case .atangent: return Float(Foundation.tan(Double(output)))
        }
    }
}

extension ArithmeticOperation {
    /// Rive's `math::positive_mod`: the remainder of `value / range` (range taken positive),
    /// shifted into 0..<range.
    static func positiveModulo(_ value: Float, _ range: Float) -> Float {
        let positiveRange = range < 0 ? -range : range
        var remainder = fmodf(value, positiveRange)
        if remainder < 0 { remainder += positiveRange }
        return remainder
    }
}
