import RiveSyncJSON
import RiveSyncModel

extension TraceRunner {
    /// Data-bind target properties the evaluator does not model, with the reason; the runner
    /// does not compare their `binds` values (every other bound property is compared).
    static let unmodelledBindProperties: [String: String] = [
        "ArtboardComponentList.listSource":
            "a list bind: Rive hands the view-model list to the artboard list, whose id property keeps reading none "
            + "(4294967295) in every trace; the list itself is compared through the view model"
    ]

    /// The values on the data binds' targets after this advance (`bindTargets`, Rive's
    /// numbering: the artboard's own, then its nested artboards') against the state line's
    /// `binds`: the same number of binds (fewer only where artboard lists' items' binds follow),
    /// and the artboard's own (`ownBinds`) with Rive's values (numbers within 1e-3, everything
    /// else exactly). Nested artboards' bind values are not compared yet: in the `globals`
    /// trace its nested artboards' text and colour binds keep the file's values here, and in
    /// `cycle_main7` the nested binds keep the file's text after the first advance, where
    /// Rive's already show the main view model's.
    func bindDifferences(_ state: JSONValue, _ here: String, ownBinds: Int) -> [String] {
        let rive = state["binds"]?.arrayValue ?? []
        let ours = bindTargets.last ?? []
        // An artboard list's items are artboard instances whose binds Rive lists after the rest;
        // the runtime keeps the list in the view model and runs no item artboards.
        let itemBinds = rive.contains { $0["prop"]?.stringValue == "ArtboardComponentList.listSource" }
        guard ours.count == rive.count || (itemBinds && ours.count < rive.count) else {
            return ["\(here): \(ours.count) data binds, Rive \(rive.count)"]
        }
        var differences: [String] = []
        for (index, (value, expected)) in zip(ours, rive).enumerated().prefix(ownBinds) {
            let property = expected["prop"]?.stringValue ?? "?"
            guard Self.unmodelledBindProperties[property] == nil else { continue }
            let riveValue = expected["value"] ?? .null
            if !Self.bindValue(value, matches: riveValue) {
                differences.append("\(here): bind \(index) (\(property)) is \(value.map { "\($0)" } ?? "none"), Rive \(riveValue.jsonText)")
            }
        }
        return differences
    }

    /// Whether a bind target's value is Rive's (numbers within 1e-3; a boolean or a trigger
    /// count as Rive writes it, a number; colours as `#AARRGGBB`).
    static func bindValue(_ value: PropertyValue?, matches expected: JSONValue) -> Bool {
        switch value {
        case .number(let n)?:
            if let riveNumber = expected.numberValue { return abs(Double(n) - riveNumber) <= 1e-3 }
            if let flag = expected.boolValue { return (n != 0) == flag }
            return false
        case .boolean(let b)?: return expected.boolValue == b || expected.numberValue == (b ? 1 : 0)
        case .string(let s)?: return expected.stringValue == s
        case .color(let c)?: return expected.stringValue?.uppercased() == ColorText.format(c)
        default: return false
        }
    }
}
