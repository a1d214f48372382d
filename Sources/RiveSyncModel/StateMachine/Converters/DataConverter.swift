/// One of a file's data converters, ready to run for one bind: Rive gives every bind its own
/// copy of the converter it names, so this is a value the evaluator keeps per bind (the
/// interpolator, number-to-list, to-number and formula converters carry state).
///
/// Converting takes and gives the model's ``PropertyValue``, as Rive's converters take and give
/// data values; a value of a kind a converter does not handle gives that converter's default
/// (0, "", false, an unfired trigger, an empty list), as in Rive.
public struct DataConverter: Sendable, Hashable {
    /// The converter's name (`DataConverter.name`, key 662).
    public var name: String
    /// Its Rive type key.
    public var typeKey: Int
    public var kind: Kind
    /// The file's data binds that target this converter (or its formula tokens): Rive binds
    /// converter properties (an operation's value, a range mapper's bounds, an interpolator's
    /// duration, a formula value) to view-model properties this way. The evaluator resolves
    /// them and writes the values with ``setProperty(_:to:formulaToken:)``.
    public var binds: [DataConverterBind]

    /// What a converter does, by Rive type.
    public enum Kind: Sendable, Hashable {
        /// `DataConverterOperationValue` (500), `DataConverterOperationViewModel` (517),
        /// `DataConverterSystemDegsToRads` (514), `DataConverterSystemNormalizer` (515).
        case operation(DataConverterOperation)
        case rangeMapper(DataConverterRangeMapper)
        case rounder(DataConverterRounder)
        case toString(DataConverterToString)
        case toNumber(DataConverterToNumber)
        case stringPad(DataConverterStringPad)
        case stringTrim(DataConverterStringTrim)
        case stringRemoveZeros(DataConverterStringRemoveZeros)
        case booleanNegate(DataConverterBooleanNegate)
        case trigger(DataConverterTrigger)
        case listToLength(DataConverterListToLength)
        case numberToList(DataConverterNumberToList)
        case interpolator(DataConverterInterpolator)
        case formula(DataConverterFormula)
        case group(DataConverterGroup)
        /// A converter this runtime does not evaluate (a scripted one, or a type it does not
        /// know): it passes values through unchanged, as Rive's base converter does.
        case unsupported
    }

    public init(name: String = "", typeKey: Int, kind: Kind, binds: [DataConverterBind] = []) {
        self.name = name
        self.typeKey = typeKey
        self.kind = kind
        self.binds = binds
    }

    /// Converts toward the bind's target (Rive's `convert`).
    public mutating func convert(_ value: PropertyValue, in context: inout some DataConverterContext) -> PropertyValue {
        switch kind {
        case .operation(let converter): return converter.convert(value, context)
        case .rangeMapper(let converter): return converter.convert(value)
        case .rounder(let converter): return converter.convert(value)
        case .toString(let converter): return converter.convert(value)
        case .toNumber(var converter):
            defer { kind = .toNumber(converter) }
            return converter.convert(value, context)
        case .stringPad(let converter): return converter.convert(value)
        case .stringTrim(let converter): return converter.convert(value)
        case .stringRemoveZeros(let converter): return converter.convert(value)
        case .booleanNegate(let converter): return converter.convert(value)
        case .trigger(let converter): return converter.convert(value, context)
        case .listToLength(let converter): return converter.convert(value)
        case .numberToList(var converter):
            defer { kind = .numberToList(converter) }
            return converter.convert(value, &context)
        case .interpolator(var converter):
            defer { kind = .interpolator(converter) }
            return converter.convert(value)
        case .formula(var converter):
            defer { kind = .formula(converter) }
            return converter.convert(value, &context)
        case .group(var converter):
            defer { kind = .group(converter) }
            return converter.convert(value, &context)
        case .unsupported: return value
        }
    }

    /// Converts back toward the bind's source (Rive's `reverseConvert`). Operations run their
    /// inverse, range mappers map back, groups run backwards; negate, interpolator and formula
    /// convert the same way both ways; the others give their input back unchanged.
    public mutating func reverseConvert(_ value: PropertyValue, in context: inout some DataConverterContext) -> PropertyValue {
        switch kind {
        case .operation(let converter): return converter.reverseConvert(value, context)
        case .rangeMapper(let converter): return converter.reverseConvert(value)
        case .booleanNegate(let converter): return converter.convert(value)
        case .interpolator(var converter):
            defer { kind = .interpolator(converter) }
            return converter.convert(value)
        case .formula(var converter):
            defer { kind = .formula(converter) }
            return converter.convert(value, &context)
        case .group(var converter):
            defer { kind = .group(converter) }
            return converter.reverseConvert(value, &context)
        case .rounder, .toString, .toNumber, .stringPad, .stringTrim, .stringRemoveZeros, .trigger, .listToLength,
            .numberToList, .unsupported:
            return value
        }
    }

    /// Converts with a context that has no bind flags, enum, view model or random numbers.
    public mutating func convert(_ value: PropertyValue) -> PropertyValue {
        var context = PlainDataConverterContext()
        return convert(value, in: &context)
    }

    /// Converts back with a context that has no bind flags, enum, view model or random numbers.
    public mutating func reverseConvert(_ value: PropertyValue) -> PropertyValue {
        var context = PlainDataConverterContext()
        return reverseConvert(value, in: &context)
    }

    /// Moves the converter's time on by `elapsedSeconds` (Rive's `advance`): only interpolators
    /// (alone or in a group) have time.
    public mutating func advance(_ elapsedSeconds: Float) -> DataConverterAdvance {
        switch kind {
        case .interpolator(var converter):
            defer { kind = .interpolator(converter) }
            return converter.advance(elapsedSeconds)
        case .group(var converter):
            defer { kind = .group(converter) }
            return converter.advance(elapsedSeconds)
        default:
            return .idle
        }
    }

    /// Forgets the state an interpolator keeps (Rive's `reset`, on a new binding).
    public mutating func reset() {
        switch kind {
        case .interpolator(var converter):
            converter.reset()
            kind = .interpolator(converter)
        case .group(var converter):
            for index in converter.items.indices { converter.items[index].reset() }
            kind = .group(converter)
        default:
            break
        }
    }

    /// Tells the converter its bind's source value changed: a formula drawing random numbers
    /// per source change draws new ones.
    public mutating func sourceChanged() {
        switch kind {
        case .formula(var converter):
            converter.sourceChanged()
            kind = .formula(converter)
        case .group(var converter):
            for index in converter.items.indices { converter.items[index].sourceChanged() }
            kind = .group(converter)
        default:
            break
        }
    }

    /// The kind of value the converter gives (Rive's `outputType`): what a bind through it
    /// carries instead of its source's type.
    public var outputType: DataConverterOutputType {
        switch kind {
        case .operation, .rangeMapper, .rounder, .toNumber, .listToLength, .formula: return .type(.number)
        case .toString, .stringPad, .stringTrim, .stringRemoveZeros: return .type(.string)
        case .booleanNegate: return .type(.boolean)
        case .trigger: return .type(.trigger)
        case .numberToList: return .type(.list)
        case .interpolator: return .input
        case .group(let group): return group.outputType
        case .unsupported: return .none
        }
    }
}

/// The kind of value a converter gives.
public enum DataConverterOutputType: Sendable, Hashable {
    /// Rive's `none`: the converter does not say (a bind keeps its source's type).
    case none
    /// Rive's `input`: the converter gives values of its input's kind.
    case input
    /// Values of this type.
    case type(DataType)
}
