import RiveSyncModel
import Testing

/// The converters of Rive's own test files give the values Rive's unit tests require
/// (`tests/unit_tests/runtime/data_binding_test.cpp`).
@Suite struct RiveExpectedValuesTests {
    /// "calculate and to string converters with numbers" (`data_binding_test.riv`,
    /// artboard-3): multiply-by-2 on num1 = 17 gives 34, then -20 for -10; the group
    /// divide-by-3 → to-string (rounded, trailing zeros removed) gives "6", then "-3".
    @Test func calculateAndToString() throws {
        let converters = try ConverterFixtures.converters("data_binding_test")
        let multiply = try converters.named("multiply-by-2")
        #expect(multiply.converting([.number(17), .number(-10)]) == [.number(34), .number(-20)])
        let group = try converters.named("to-string-group")
        #expect(group.converting([.number(17), .number(-10)]) == [.string("6"), .string("-3")])
        // The trace recorded from Rive's runtime goes on with 2.5 and 1000000.
        #expect(group.converting([.number(2.5), .number(1_000_000)]) == [.string("1"), .string("333333")])
    }

    /// "trim string converter": "     abc    " and "a b c " through trim start, end, both.
    @Test func trimString() throws {
        let converters = try ConverterFixtures.converters("data_binding_test")
        let start = try converters.named("trim-start")
        let end = try converters.named("trim-end")
        let both = try converters.named("trim-both-ends")
        let inputs: [PropertyValue] = [.string("     abc    "), .string("a b c ")]
        #expect(start.converting(inputs) == [.string("abc    "), .string("a b c ")])
        #expect(end.converting(inputs) == [.string("     abc"), .string("a b c")])
        #expect(both.converting(inputs) == [.string("abc"), .string("a b c")])
    }

    /// "To string converter with color formatters" (artboard-4), for three colors.
    @Test func colorFormats() throws {
        let converters = try ConverterFixtures.converters("data_binding_test")
        let colors: [PropertyValue] = [.color(0xFF1E_5AC8), .color(0x64C8_6432), .color(0x6400_0A0F)]
        #expect(
            try converters.named("color-to-RGBA-with-format").converting(colors) == [
                .string("color: {red: 1E, green: 5A, blue: C8, alpha: FF}"),
                .string("color: {red: C8, green: 64, blue: 32, alpha: 64}"),
                .string("color: {red: 00, green: 0A, blue: 0F, alpha: 64}"),
            ])
        #expect(
            try converters.named("color-to-rgba-with-format").converting(colors) == [
                .string("color: {red: 30, green: 90, blue: 200, alpha: 255}"),
                .string("color: {red: 200, green: 100, blue: 50, alpha: 100}"),
                .string("color: {red: 0, green: 10, blue: 15, alpha: 100}"),
            ])
        #expect(
            try converters.named("color-to-hls-with-format").converting(colors) == [
                .string("color: {hue: 219, luminance: 45, saturation: 74}"),
                .string("color: {hue: 20, luminance: 49, saturation: 60}"),
                .string("color: {hue: 200, luminance: 3, saturation: 100}"),
            ])
        #expect(
            try converters.named("color-with-escaped-characters").converting(colors)
                == Array(repeating: .string("%r %g %b %a \\a"), count: 3))
    }

    /// "Range Mapper" (`data_binding_test_2.riv`, artboard-2): five mappers onto [2, 3] for
    /// the inputs 4, -1, 0, 0.25, 2 and 2.25.
    @Test func rangeMapper() throws {
        let converters = try ConverterFixtures.converters("data_binding_test_2")
        let inputs: [Float] = [4, -1, 0, 0.25, 2, 2.25]
        let expected: [String: [Float]] = [
            "map-range-1": [6, 1, 2, 2.12916, 4, 4.25],
            "map-range-2": [3, 2, 2, 2.12916, 3, 3],
            "map-range-3": [2, 2, 2, 2.12916, 2, 2.12916],
            "map-range-4": [2, 3, 3, 2.87084, 2, 2],
            "map-range-5": [2, 2, 2, 2, 2, 2],
        ]
        for (name, values) in expected {
            let outputs = try converters.named(name).converting(inputs.map { .number($0) })
            for (output, value) in zip(outputs, values) {
                guard case .number(let number) = output else {
                    Issue.record("\(name) gave \(output)")
                    continue
                }
                #expect(abs(number - value) < 1e-4, "\(name): \(number) != \(value)")
            }
        }
    }

    /// "Pad String" (artboard-3): "abc" to 11 at the start, to 12 at the end; longer strings
    /// stay; "" fills up; a value of the wrong type gives "".
    @Test func padString() throws {
        let converters = try ConverterFixtures.converters("data_binding_test_2")
        let start = try converters.named("pad-string-1")
        let end = try converters.named("pad-string-2")
        let inputs: [PropertyValue] = [.string("text"), .string("text-text-text"), .string("")]
        #expect(start.converting(inputs) == [.string("abcabcatext"), .string("text-text-text"), .string("abcabcabcab")])
        #expect(end.converting(inputs) == [.string("textabcabcab"), .string("text-text-text"), .string("abcabcabcabc")])
        #expect(end.converting([.number(4), .boolean(true)]) == [.string(""), .string("")])
    }

    /// "Boolean Toggle": false gives true, true gives false.
    @Test func booleanToggle() throws {
        let negate = try ConverterFixtures.converters("data_binding_test_2").named("bool-negate-1")
        #expect(negate.converting([.boolean(false), .boolean(true)]) == [.boolean(true), .boolean(false)])
    }

    /// The formula converters of `data_binding_test.riv` (artboard-5, each `formula-N-group`:
    /// formula N, then to-string without trailing zeros) on the input 1.1, with the results
    /// Rive's (disabled) "Formula converter" test lists.
    @Test func formulas() throws {
        let converters = try ConverterFixtures.converters("data_binding_test")
        let expected = [
            "11.1", "0.11", "-8.9", "11", "0.2", "0.891207", "0.453596", "1.96476", "1.460573", "0.110223", "0.10956",
            "0.03665", "1", "-1.1", "1", "2", "1", "1.048809", "1.21", "3.004166", "0.09531", "1.546404", "1",
            "-9565.368164", "1.11", "1.557408", "0.910958", "0.1", "14.993111", "1",
        ]
        for (index, result) in expected.enumerated() {
            let group = try converters.named("formula-\(index + 1)-group")
            #expect(group.converting([.number(1.1)]) == [.string(result)], "formula-\(index + 1)")
        }
    }

    /// `saturation.riv` ("target to source with different data types"): the group
    /// color-to-number (to-string "%s", to-number, formula ×5) and the saturation text, on the
    /// colors the trace recorded from Rive's runtime.
    @Test func saturation() throws {
        let converters = try ConverterFixtures.converters("saturation")
        let group = try converters.named("color-to-number")
        let text = try converters.named("saturation")
        let colors: [PropertyValue] = [.color(0xFF15_9B02), .color(0xFFCE_2D2D), .color(0xFF61_9659), .color(0xFF78_5F5F)]
        #expect(group.converting(colors) == [.number(485), .number(320), .number(130), .number(60)])
        #expect(text.converting(colors) == [.string("97"), .string("64"), .string("26"), .string("12")])
    }

    /// `listener_view_model.riv`: the listener's add-10 converter and the text's to-string
    /// (rounded, trailing zeros removed) on the values the trace shows.
    @Test func listenerViewModel() throws {
        let converters = try ConverterFixtures.converters("listener_view_model")
        #expect(try converters.named("add-10").converting([.number(22), .number(55)]) == [.number(32), .number(65)])
        #expect(try converters.named("Convert to String 1").converting([.number(22), .number(0)]) == [.string("22"), .string("0")])
    }
}
