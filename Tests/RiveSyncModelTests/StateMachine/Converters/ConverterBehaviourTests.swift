import RiveSyncModel
import Testing

/// Each converter's behaviour as Rive's sources define it, including values of the wrong
/// type.
@Suite struct ConverterBehaviourTests {
    static func converter(_ kind: DataConverter.Kind, typeKey: Int = 0) -> DataConverter {
        DataConverter(typeKey: typeKey, kind: kind)
    }

    @Test func operationsAndTheirInverses() {
        let cases: [(ArithmeticOperation, Float, Float, Float)] = [
            (.add, 5, 3, 8), (.subtract, 5, 3, 2), (.multiply, 5, 3, 15), (.divide, 6, 3, 2), (.modulo, -1, 3, 2),
            (.squareRoot, 9, 0, 3), (.power, 2, 3, 8), (.round, 2.5, 0, 3), (.round, -2.5, 0, -3), (.floor, -1.5, 0, -2),
            (.ceil, 1.2, 0, 2),
        ]
        for (operation, input, operand, output) in cases {
            var converter = Self.converter(.operation(DataConverterOperation(operation: operation, operand: .value(operand))))
            #expect(converter.convert(.number(input)) == .number(output), "\(operation)")
        }
        var multiply = Self.converter(.operation(DataConverterOperation(operation: .multiply, operand: .value(4))))
        #expect(multiply.reverseConvert(.number(10)) == .number(2.5))
        #expect(multiply.convert(.symbolListIndex(3)) == .number(12))
        // Wrong types give 0 both ways (a symbol list index is not reversed).
        #expect(multiply.convert(.string("3")) == .number(0))
        #expect(multiply.reverseConvert(.symbolListIndex(3)) == .number(0))
        var modulo = Self.converter(.operation(DataConverterOperation(operation: .modulo, operand: .value(3))))
        #expect(modulo.reverseConvert(.number(7)) == .number(7))
        var sine = Self.converter(.operation(DataConverterOperation(operation: .sine, operand: .value(0))))
        guard case .number(let one) = sine.convert(.number(Float.pi / 2)), case .number(let back) = sine.reverseConvert(.number(1))
        else {
            Issue.record("not numbers")
            return
        }
        #expect(abs(one - 1) < 1e-6)
        #expect(abs(back - Float.pi / 2) < 1e-3)
        // An operation number Rive does not define gives the operand.
        var unknown = Self.converter(.operation(DataConverterOperation(operation: nil, operand: .value(9))))
        #expect(unknown.convert(.number(1)) == .number(9))
    }

    /// The operand of a view-model operation is read at each conversion; 0 unresolved.
    @Test func viewModelOperand() {
        var converter = Self.converter(.operation(DataConverterOperation(operation: .add, operand: .viewModel(sourcePathIds: [0, 2]))))
        var context = PlainDataConverterContext(numbers: [[0, 2]: 5])
        #expect(converter.convert(.number(1), in: &context) == .number(6))
        context.numbers[[0, 2]] = 10
        #expect(converter.convert(.number(1), in: &context) == .number(11))
        #expect(converter.reverseConvert(.number(11), in: &context) == .number(1))
        #expect(converter.convert(.number(1)) == .number(1))
    }

    @Test func timeAndOperandDependencies() {
        let operand = Self.converter(.operation(DataConverterOperation(operation: .add, operand: .viewModel(sourcePathIds: [0, 3]))))
        let interpolator = Self.converter(.interpolator(DataConverterInterpolator()))
        let group = Self.converter(.group(DataConverterGroup(items: [operand, interpolator])))
        #expect(group.isTimeBased)
        #expect(!operand.isTimeBased)
        #expect(group.operandSourcePaths == [[0, 3]])
        #expect(interpolator.operandSourcePaths.isEmpty)
    }

    /// Degrees to radians and the normalizer run forward toward the target on a bind to
    /// target, and backward on a bind whose main direction is to source.
    @Test func systemConvertersFollowTheBindDirection() {
        var converter = Self.converter(
            .operation(DataConverterOperation(operation: .multiply, operand: .value(0.01), system: .normalizer)))
        var toTarget = PlainDataConverterContext(bindFlags: 0)
        var toSource = PlainDataConverterContext(bindFlags: 1 | 2)
        #expect(converter.convert(.number(50), in: &toTarget) == .number(0.5))
        #expect(converter.reverseConvert(.number(50), in: &toTarget) == .number(0.5))
        #expect(converter.convert(.number(0.5), in: &toSource) == .number(50))
        #expect(converter.reverseConvert(.number(0.5), in: &toSource) == .number(50))
    }

    @Test func rangeMapperHoldAndReverse() {
        let hold = Self.converter(
            .rangeMapper(DataConverterRangeMapper(minInput: 0, maxInput: 10, minOutput: 0, maxOutput: 100, interpolationType: 0)))
        #expect(
            hold.converting([.number(0), .number(0.1), .number(5), .number(-3)]) == [
                .number(0), .number(100), .number(100), .number(0),
            ])
        var linear = Self.converter(.rangeMapper(DataConverterRangeMapper(minInput: 0, maxInput: 10, minOutput: 0, maxOutput: 100)))
        #expect(linear.convert(.number(2.5)) == .number(25))
        #expect(linear.reverseConvert(.number(25)) == .number(2.5))
        #expect(linear.convert(.boolean(true)) == .number(0))
    }

    @Test func rounder() {
        let two = Self.converter(.rounder(DataConverterRounder(decimals: 2)))
        #expect(two.converting([.number(3.14159), .number(-2.005), .string("1")]) == [.number(3.14), .number(-2.01), .number(0)])
        let none = Self.converter(.rounder(DataConverterRounder()))
        #expect(none.converting([.number(2.5), .number(-0.4)]) == [.number(3), .number(-0)])
    }

    /// Numbers print as C's `%f` unless rounded; every kind of value has its text.
    @Test func toString() {
        let plain = Self.converter(.toString(DataConverterToString()))
        #expect(
            plain.converting([
                .number(1.5), .number(-0.1), .boolean(true), .boolean(false), .trigger(3), .symbolListIndex(7), .string("s"),
                .enumValue("large"), .color(0xFF00_0000), .list([]), .viewModel(nil),
            ]) == [
                .string("1.500000"), .string("-0.100000"), .string("1"), .string("0"), .string("3"), .string("7"), .string("s"),
                .string("large"), .string("-16777216"), .string(""), .string(""),
            ])
        let rounded = Self.converter(.toString(DataConverterToString(flags: .round, decimals: 2)))
        #expect(rounded.converting([.number(2.345), .number(2.5), .number(-1)]) == [.string("2.35"), .string("2.50"), .string("-1.00")])
        // Halfway cases round to even, as printf does.
        let whole = Self.converter(.toString(DataConverterToString(flags: .round)))
        #expect(whole.converting([.number(2.5), .number(3.5), .number(0.5)]) == [.string("2"), .string("4"), .string("0")])
        let commas = Self.converter(.toString(DataConverterToString(flags: [.round, .trailingZeros, .formatWithCommas], decimals: 2)))
        #expect(
            commas.converting([.number(1_234_567.5), .number(-1234), .number(999), .number(100_000)]) == [
                .string("1,234,567.5"), .string("-1,234"), .string("999"), .string("100,000"),
            ])
    }

    @Test func colorFormatMarkers() {
        // A `%` after a `%` writes one and stays a marker, so "%% " writes "%% " and "%%r" "%255".
        let format = ColorFormat("%r/%G %% 100%%r %x \\%r \\\\ end%")
        #expect(format.format(0x80FF_0A01) == "255/0A %% 100%255 %x %r \\ end")
        #expect(ColorFormat("%h %l %s").format(0xFF80_8080) == "0 50 0")
    }

    @Test func removeZeros() {
        let converter = Self.converter(.stringRemoveZeros(DataConverterStringRemoveZeros()))
        #expect(
            converter.converting([.string("2.500"), .string("3.000"), .string("100"), .string("1.2.0"), .string("0.0"), .number(1)]) == [
                .string("2.5"), .string("3"), .string("100"), .string("1.2."), .string("0"), .string(""),
            ])
    }

    @Test func trimAndPadEdges() {
        let none = Self.converter(.stringTrim(DataConverterStringTrim(trimType: 0)))
        #expect(none.converting([.string(" a "), .number(1)]) == [.string(" a "), .string("")])
        let all = Self.converter(.stringTrim(DataConverterStringTrim(trimType: 3)))
        #expect(all.converting([.string("\t\n a b\r\u{0B}\u{0C}")]) == [.string("a b")])
        let noPattern = Self.converter(.stringPad(DataConverterStringPad(length: 5, text: "")))
        #expect(noPattern.converting([.string("ab")]) == [.string("ab")])
        let huge = Self.converter(.stringPad(DataConverterStringPad(length: .max, text: "x")))
        guard case .string(let padded) = huge.converting([.string("")])[0] else {
            Issue.record("not a string")
            return
        }
        #expect(padded.utf8.count == Int(DataConverterStringPad.maximumLength))
    }

    /// To-number reads strings as `atof` does and keeps its last output when a string is out
    /// of range.
    @Test func toNumber() {
        var converter = Self.converter(.toNumber(DataConverterToNumber()))
        var context = PlainDataConverterContext(enumValues: ["small", "medium", "large"])
        let inputs: [PropertyValue] = [
            .string("64"), .string(" 12.5abc"), .string("abc"), .string("1e3"), .enumValue("large"), .boolean(true),
            .color(0xFF00_0000), .symbolListIndex(4), .number(2), .list([]),
        ]
        let outputs = inputs.map { converter.convert($0, in: &context) }
        #expect(
            outputs == [
                .number(64), .number(12.5), .number(0), .number(1000), .number(2), .number(1), .number(-16_777_216), .number(4),
                .number(2), .number(0),
            ])
        _ = converter.convert(.string("7"), in: &context)
        #expect(converter.convert(.string("1e999"), in: &context) == .number(7))
    }

    @Test func booleanNegateBothWaysAndWrongType() {
        var converter = Self.converter(.booleanNegate(DataConverterBooleanNegate()))
        #expect(converter.reverseConvert(.boolean(true)) == .boolean(false))
        #expect(converter.convert(.number(1)) == .boolean(false))
    }

    /// The trigger converter gives an integer-like value plus one.
    @Test func trigger() {
        var converter = Self.converter(.trigger(DataConverterTrigger()))
        var context = PlainDataConverterContext(enumValues: ["a", "b"])
        #expect(converter.convert(.trigger(0), in: &context) == .trigger(1))
        #expect(converter.convert(.trigger(4), in: &context) == .trigger(5))
        #expect(converter.convert(.enumValue("b"), in: &context) == .trigger(2))
        #expect(converter.convert(.trigger(UInt64(UInt32.max)), in: &context) == .trigger(0))
        #expect(converter.convert(.number(3), in: &context) == .trigger(0))
        #expect(converter.convert(.boolean(true), in: &context) == .trigger(0))
        #expect(converter.reverseConvert(.trigger(9), in: &context) == .trigger(9))
    }

    @Test func listToLengthAndNumberToList() {
        var length = Self.converter(.listToLength(DataConverterListToLength()))
        #expect(length.convert(.list([InstanceID(1), InstanceID(2)])) == .number(2))
        #expect(length.convert(.number(3)) == .number(0))

        var toList = Self.converter(.numberToList(DataConverterNumberToList(viewModelId: 1)))
        var context = PlainDataConverterContext(nextInstance: 50, viewModelCount: 2)
        #expect(toList.convert(.number(2.9), in: &context) == .list([InstanceID(50), InstanceID(51)]))
        #expect(toList.convert(.number(3), in: &context) == .list([InstanceID(50), InstanceID(51), InstanceID(52)]))
        // Shrinking drops the last items; growing again makes new ones.
        #expect(toList.convert(.number(1), in: &context) == .list([InstanceID(50)]))
        #expect(toList.convert(.number(2), in: &context) == .list([InstanceID(50), InstanceID(53)]))
        #expect(context.madeInstances.map(\.viewModel) == [1, 1, 1, 1])
        #expect(toList.convert(.number(-4), in: &context) == .list([]))
        #expect(toList.convert(.list([InstanceID(9)]), in: &context) == .list([InstanceID(9)]))
        #expect(toList.convert(.string("2"), in: &context) == .list([]))
        var noViewModel = Self.converter(.numberToList(DataConverterNumberToList(viewModelId: nil)))
        #expect(noViewModel.convert(.number(2), in: &context) == .list([]))
        var huge = Self.converter(.numberToList(DataConverterNumberToList(viewModelId: 0)))
        guard case .list(let items) = huge.convert(.number(1e12), in: &context) else {
            Issue.record("not a list")
            return
        }
        #expect(items.count == DataConverterNumberToList.maximumCount)
    }

    /// Groups run their items in order, and their reverse conversions backwards.
    @Test func groupsChainBothWays() {
        let add = Self.converter(.operation(DataConverterOperation(operation: .add, operand: .value(1))))
        let double = Self.converter(.operation(DataConverterOperation(operation: .multiply, operand: .value(2))))
        var group = Self.converter(.group(DataConverterGroup(items: [add, double])))
        #expect(group.convert(.number(3)) == .number(8))
        #expect(group.reverseConvert(.number(8)) == .number(3))
        #expect(group.outputType == .type(.number))
        let interpolator = Self.converter(.interpolator(DataConverterInterpolator()))
        #expect(Self.converter(.group(DataConverterGroup(items: [interpolator]))).outputType == .none)
        #expect(Self.converter(.group(DataConverterGroup(items: []))).outputType == .none)
        #expect(Self.converter(.unsupported).outputType == .none)
        var unsupported = Self.converter(.unsupported)
        #expect(unsupported.convert(.string("x")) == .string("x"))
    }

    /// Formulas: precedence, functions with several arguments, malformed input, random
    /// numbers per mode.
    @Test func formulas() {
        func formula(_ tokens: [FormulaToken], _ mode: DataConverterFormula.RandomMode = .once) -> DataConverter {
            Self.converter(.formula(DataConverterFormula(tokens: tokens, randomMode: mode)))
        }
        // 2 + {Input} * 3
        var precedence = formula([.value(2), .operation(.add), .input, .operation(.multiply), .value(3)])
        #expect(precedence.convert(.number(4)) == .number(14))
        // pow({Input}, 2) - (1 + 1)
        var pow = formula([
            .function(.pow), .input, .argumentSeparator, .value(2), .parenthesisClose, .operation(.subtract), .parenthesisOpen,
            .value(1), .operation(.add), .value(1), .parenthesisClose,
        ])
        #expect(pow.convert(.number(3)) == .number(7))
        #expect(pow.reverseConvert(.number(3)) == .number(7))
        // A dangling operation leaves two values: the input comes back.
        var malformed = formula([.value(2), .value(3)])
        #expect(malformed.convert(.number(5)) == .number(5))
        #expect(malformed.convert(.string("5")) == .number(0))
        // random(10, 20): once keeps its number, always draws anew.
        let tokens: [FormulaToken] = [.function(.random), .value(10), .argumentSeparator, .value(20), .parenthesisClose]
        var context = PlainDataConverterContext(randoms: [0.5, 0.25, 0.75])
        var once = formula(tokens)
        #expect(once.convert(.number(0), in: &context) == .number(15))
        #expect(once.convert(.number(0), in: &context) == .number(15))
        var always = formula(tokens, .always)
        #expect(always.convert(.number(0), in: &context) == .number(12.5))
        var perSource = formula(tokens, .sourceChange)
        #expect(perSource.convert(.number(0), in: &context) == .number(17.5))
        perSource.sourceChanged()
        #expect(perSource.convert(.number(0), in: &context) == .number(10))
        // A bound value token.
        var bound = formula([.input, .operation(.add), .value(1)])
        let applied1 = bound.setProperty(777, to: .number(5), formulaToken: 2)
        #expect(applied1)
        #expect(bound.convert(.number(1)) == .number(6))
    }

    /// Bound converter properties are written in place.
    @Test func setProperty() {
        var operation = Self.converter(.operation(DataConverterOperation(operation: .add, operand: .value(1))))
        let applied2 = operation.setProperty(681, to: .number(10))
        #expect(applied2)
        #expect(operation.convert(.number(1)) == .number(11))
        let applied3 = operation.setProperty(681, to: .string("10"))
        #expect(!applied3)
        let applied4 = operation.setProperty(716, to: .number(1))
        #expect(!applied4)
        var mapper = Self.converter(.rangeMapper(DataConverterRangeMapper()))
        for (key, value) in [(716, 0), (717, 10), (718, 0), (719, 1)] as [(Int, Float)] {
            let applied5 = mapper.setProperty(key, to: .number(value))
            #expect(applied5)
        }
        #expect(mapper.convert(.number(5)) == .number(0.5))
        var text = Self.converter(.toString(DataConverterToString()))
        let applied6 = text.setProperty(766, to: .string("%r"))
        #expect(applied6)
        #expect(text.convert(.color(0xFF11_0000)) == .string("17"))
        var interpolator = Self.converter(.interpolator(DataConverterInterpolator()))
        let applied7 = interpolator.setProperty(756, to: .number(0.5))
        #expect(applied7)
        #expect(interpolator.kind == .interpolator(DataConverterInterpolator(duration: 0.5)))
    }
}
