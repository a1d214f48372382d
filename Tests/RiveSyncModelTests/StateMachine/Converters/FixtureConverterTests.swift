import RiveSyncModel
import Testing

/// The converters read from Rive's test files, with the parameters the files store (and
/// Rive's defaults for those they leave out).
@Suite struct FixtureConverterTests {
    /// Every file in `../shared/fixtures/riv/`.
    static let files = [
        "advance_blend_mode", "bidirectional_precedence", "component_based_conditions", "component_stateful_vm_instance",
        "custom_property_trigger", "data_bind_blob_test", "data_bind_font_test", "data_binding_artboards_test",
        "data_binding_images_test", "data_binding_test", "data_binding_test_2", "data_binding_test_3",
        "data_binding_test_triggers", "global_viewmodels_test", "interpolate_to_end", "inventory_demo_test_v2",
        "library_data_enum_test", "library_view_model_test", "list_items", "list_to_path", "listener_view_model",
        "rebind_with_nested_viewmodel", "saturation", "scripted_boolean", "scripted_color", "scripted_enum",
        "scripted_string", "shared_viewmodel_instance", "state_machine_triggers", "state_transition_fire_trigger",
        "stateful_list_props", "transition_actions", "transition_index_condition", "transition_self_comparator_test",
        "viewmodel_list_trigger", "viewmodel_runtime_file", "vm_listener_fire_event",
    ]

    /// The converter types present in the fixtures, each evaluated (none falls back to
    /// passing values through).
    @Test func everyConverterTypeInTheFixturesIsEvaluated() throws {
        var typeKeys: Set<Int> = []
        var count = 0
        for file in Self.files {
            for converter in try ConverterFixtures.converters(file).converters {
                typeKeys.insert(converter.typeKey)
                count += 1
                #expect(converter.kind != .unsupported, "\(file): \(converter.name) (\(converter.typeKey))")
            }
        }
        // Group, to-string, degrees to radians, formula, operation value, trim, range mapper,
        // boolean negate, pad, interpolator, trigger, list to length, normalizer, to number,
        // number to list.
        #expect(typeKeys == [499, 490, 514, 536, 500, 532, 519, 535, 530, 534, 504, 591, 515, 617, 568])
        #expect(count == 109)
    }

    @Test func dataBindingTest2() throws {
        let converters = try ConverterFixtures.converters("data_binding_test_2")
        #expect(
            converters.converters.map(\.name) == [
                "map-range-3", "bool-negate-1", "map-range-5", "map-range-1", "map-range-2", "pad-string-2", "pad-string-1",
                "map-range-4", "Time based interpolator 1",
            ])
        #expect(converters.interpolators == [.cubicEase(CubicEaseInterpolator())])
        let ease = KeyFrameInterpolator.cubicEase(CubicEaseInterpolator())
        #expect(
            try converters.named("map-range-3").kind
                == .rangeMapper(
                    DataConverterRangeMapper(
                        minInput: 0, maxInput: 1, minOutput: 2, maxOutput: 3, flags: .modulo, interpolationType: 2,
                        interpolator: ease)))
        #expect(
            try converters.named("map-range-5").kind
                == .rangeMapper(DataConverterRangeMapper(minInput: 0, maxInput: 1, minOutput: 2, maxOutput: 2)))
        #expect(
            try converters.named("map-range-4").kind
                == .rangeMapper(
                    DataConverterRangeMapper(
                        minInput: 0, maxInput: 1, minOutput: 2, maxOutput: 3, flags: [.clampLower, .clampUpper, .reverse],
                        interpolationType: 2, interpolator: ease)))
        #expect(try converters.named("pad-string-2").kind == .stringPad(DataConverterStringPad(length: 12, text: "abc", padType: 1)))
        #expect(try converters.named("pad-string-1").kind == .stringPad(DataConverterStringPad(length: 11, text: "abc", padType: 0)))
        #expect(try converters.named("bool-negate-1").kind == .booleanNegate(DataConverterBooleanNegate()))
        #expect(try converters.named("Time based interpolator 1").kind == .interpolator(DataConverterInterpolator()))
        #expect(converters.objectIndices == [2, 3, 4, 5, 6, 7, 8, 9, 10])
    }

    @Test func dataBindingTest() throws {
        let converters = try ConverterFixtures.converters("data_binding_test")
        #expect(converters.converters.count == 76)
        #expect(converters.interpolators.isEmpty)
        #expect(
            try converters.named("Degrees to Radians").kind
                == .operation(DataConverterOperation(operation: .multiply, operand: .value(0.017453292), system: .degreesToRadians)))
        #expect(try converters.named("divide-by-3").kind == .operation(DataConverterOperation(operation: .divide, operand: .value(3))))
        // Nothing stored: add, and the operand's default 1.
        #expect(try converters.named("Calculate 1").kind == .operation(DataConverterOperation(operation: .add, operand: .value(1))))
        #expect(try converters.named("to-string").kind == .toString(DataConverterToString(flags: [.round, .trailingZeros])))
        #expect(try converters.named("formula-to-string").kind == .toString(DataConverterToString(flags: .trailingZeros)))
        #expect(
            try converters.named("color-to-hls-with-format").kind
                == .toString(DataConverterToString(colorFormat: "color: {hue: %h, luminance: %l, saturation: %s}")))
        #expect(try converters.named("trim-start").kind == .stringTrim(DataConverterStringTrim(trimType: 1)))
        #expect(try converters.named("trim-end").kind == .stringTrim(DataConverterStringTrim(trimType: 2)))
        #expect(try converters.named("trim-both-ends").kind == .stringTrim(DataConverterStringTrim(trimType: 3)))
        let group = try converters.named("to-string-group")
        guard case .group(let items) = group.kind else {
            Issue.record("to-string-group is \(group.kind)")
            return
        }
        #expect(items.items.map(\.name) == ["divide-by-3", "to-string"])
        #expect(group.outputType == .type(.string))
        let formula = try converters.named("formula-4")
        guard case .formula(let tokens) = formula.kind else {
            Issue.record("formula-4 is \(formula.kind)")
            return
        }
        #expect(tokens.tokens == [.input, .operation(.multiply), .value(10)])
        #expect(tokens.outputQueue == [0, 2, 1])
        #expect(tokens.randomMode == .once)
        // min(-1.0, -1.0 * {Input}, 1.0): the last value stores nothing and is Rive's default 1.
        guard case .formula(let fourteen) = try converters.named("formula-14").kind else {
            Issue.record("formula-14 is not a formula")
            return
        }
        #expect(
            fourteen.tokens == [
                .function(.min), .value(-1), .argumentSeparator, .value(-1), .operation(.multiply), .input, .argumentSeparator,
                .value(1), .parenthesisClose,
            ])
        #expect(fourteen.argumentCounts[0] == 3)
    }

    @Test func inventoryDemo() throws {
        let converters = try ConverterFixtures.converters("inventory_demo_test_v2")
        #expect(converters.converters.map(\.typeKey) == [490, 534, 499, 591, 499, 504, 515])
        #expect(converters.interpolators.isEmpty)
        #expect(
            try converters.named("Interpolator 1").kind
                == .interpolator(DataConverterInterpolator(duration: 0.5, interpolationType: 2, interpolator: nil)))
        #expect(try converters.named("interpolate text").groupItemNames == ["Interpolator 1", "Convert to String 1"])
        #expect(try converters.named("List to Number").groupItemNames == ["List to Length 1", "Convert to String 1"])
        #expect(
            try converters.named("Normalize").kind
                == .operation(DataConverterOperation(operation: .multiply, operand: .value(0.01), system: .normalizer)))
        #expect(try converters.named("Trigger 1").outputType == .type(.trigger))
        #expect(try converters.named("interpolate text").outputType == .type(.string))
    }

    @Test func smallerFiles() throws {
        let interpolate = try ConverterFixtures.converters("interpolate_to_end")
        #expect(try interpolate.named("Converter Group 1").groupItemNames == ["Interpolator 1", "Convert to String 1"])
        #expect(try interpolate.named("Interpolator 1").kind == .interpolator(DataConverterInterpolator(duration: 1)))
        #expect(try interpolate.named("Interpolator 1").outputType == .input)

        let saturation = try ConverterFixtures.converters("saturation")
        #expect(try saturation.named("color-to-number").groupItemNames == ["saturation", "Convert to Number 1", "Formula 1"])
        #expect(try saturation.named("saturation").kind == .toString(DataConverterToString(colorFormat: "%s")))
        #expect(try saturation.named("color-to-number").outputType == .type(.number))

        let listener = try ConverterFixtures.converters("listener_view_model")
        #expect(try listener.named("add-10").kind == .operation(DataConverterOperation(operation: .add, operand: .value(10))))
        #expect(
            try listener.named("Convert to String 1").kind == .toString(DataConverterToString(flags: [.round, .trailingZeros])))

        let index = try ConverterFixtures.converters("transition_index_condition")
        #expect(try index.named("Number to List 1").kind == .numberToList(DataConverterNumberToList(viewModelId: 0)))

        for file in ["data_binding_test_triggers", "state_transition_fire_trigger", "stateful_list_props"] {
            #expect(try ConverterFixtures.converters(file).named("Trigger 1").kind == .trigger(DataConverterTrigger()))
        }
        let comparator = try ConverterFixtures.converters("transition_self_comparator_test")
        #expect(comparator.converters.map(\.typeKey) == [490, 591])
        for file in ["library_data_enum_test", "library_view_model_test"] {
            #expect(try ConverterFixtures.converters(file).named("cts").kind == .toString(DataConverterToString()))
        }
        // No file binds a converter property.
        for file in Self.files {
            #expect(try ConverterFixtures.converters(file).converters.allSatisfy { $0.binds.isEmpty }, "\(file)")
        }
    }
}

extension DataConverter {
    /// The names of a group's items (empty for other converters).
    var groupItemNames: [String] {
        guard case .group(let group) = kind else { return [] }
        return group.items.map(\.name)
    }
}
