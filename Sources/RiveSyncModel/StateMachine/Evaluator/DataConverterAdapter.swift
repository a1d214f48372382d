/// The file's data converters as the evaluator applies them. A thin stand-in until the
/// converters of `StateMachine/Converters/` are wired in: it runs `DataConverterOperationValue`
/// (add, subtract, multiply, divide, modulo) and passes every other value through unchanged.
struct DataConverterAdapter: Sendable, Hashable {
    /// The file's converters, in file order (the index space of `converterId`).
    let converters: [RiveObject]

    init(graph: RiveGraph) {
        converters = graph.objects.filter { RiveDefinitions.type($0.typeKey, isA: 488) }
    }

    /// The value converted from the source side to the target side.
    func convert(_ value: PropertyValue, with converter: Int?) -> PropertyValue {
        guard let converter, converters.indices.contains(converter) else { return value }
        let object = converters[converter]
        guard object.typeKey == 500, case .number(let number) = value else { return value }
        let operand = object.float(681) ?? 1
        switch object.uint(682) ?? 0 {
        case 0: return .number(number + operand)
        case 1: return .number(number - operand)
        case 2: return .number(number * operand)
        case 3: return .number(operand == 0 ? number : number / operand)
        case 4: return .number(operand == 0 ? number : number.truncatingRemainder(dividingBy: operand))
        default: return value
        }
    }
}
