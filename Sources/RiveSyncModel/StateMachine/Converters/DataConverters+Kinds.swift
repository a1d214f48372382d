extension DataConverters.Collector {
    /// What a converter object does, with Rive's defaults for the properties it does not store.
    static func kind(
        _ object: RiveObject, tokens: [FormulaToken], interpolators: [KeyFrameInterpolator?], viewModels: Int
    ) -> DataConverter.Kind {
        func interpolator(_ key: Int) -> KeyFrameInterpolator? {
            guard let id = object.uint(key), id < UInt64(interpolators.count) else { return nil }
            return interpolators[Int(id)]
        }
        let operation = ArithmeticOperation(rawValue: object.uint(682) ?? 0)
        switch object.typeKey {
        case 500, 514, 515:
            let system: DataConverterOperation.System =
                switch object.typeKey {
                case 514: .degreesToRadians
                case 515: .normalizer
                default: .none
                }
            return .operation(DataConverterOperation(operation: operation, operand: .value(object.float(681) ?? 1), system: system))
        case 517:
            return .operation(
                DataConverterOperation(
                    operation: operation, operand: .viewModel(sourcePathIds: DataConverters.idList(object.bytes(711) ?? []))))
        case 519:
            return .rangeMapper(
                DataConverterRangeMapper(
                    minInput: object.float(716) ?? 1, maxInput: object.float(717) ?? 1, minOutput: object.float(718) ?? 1,
                    maxOutput: object.float(719) ?? 1, flags: .init(rawValue: object.uint(715) ?? 0),
                    interpolationType: object.uint(713) ?? 1, interpolator: interpolator(714)))
        case 489:
            return .rounder(DataConverterRounder(decimals: object.uint(669) ?? 0))
        case 490:
            return .toString(
                DataConverterToString(
                    flags: .init(rawValue: object.uint(764) ?? 0), decimals: object.uint(765) ?? 0,
                    colorFormat: object.string(766) ?? ""))
        case 617:
            return .toNumber(DataConverterToNumber())
        case 530:
            return .stringPad(
                DataConverterStringPad(length: object.uint(743) ?? 1, text: object.string(744) ?? "", padType: object.uint(745) ?? 0))
        case 532:
            return .stringTrim(DataConverterStringTrim(trimType: object.uint(746) ?? 1))
        case 531:
            return .stringRemoveZeros(DataConverterStringRemoveZeros())
        case 535:
            return .booleanNegate(DataConverterBooleanNegate())
        case 504:
            return .trigger(DataConverterTrigger())
        case 591:
            return .listToLength(DataConverterListToLength())
        case 568:
            let viewModel = object.uint(816).flatMap { $0 < UInt64(viewModels) ? Int($0) : nil }
            return .numberToList(DataConverterNumberToList(viewModelId: viewModel))
        case 534:
            return .interpolator(
                DataConverterInterpolator(
                    duration: object.float(756) ?? 1, interpolationType: object.uint(757) ?? 1, interpolator: interpolator(758)))
        case 536:
            return .formula(DataConverterFormula(tokens: tokens, randomMode: .init(rawValue: object.uint(887) ?? 0)))
        case 499:
            return .group(DataConverterGroup(items: []))
        default:
            return .unsupported
        }
    }
}
