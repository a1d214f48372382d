import Foundation
import RiveFile
import RiveSyncModel
import Testing

/// Every converter bind (to target, from a property of the bound view model) that Rive's
/// traces record gives, through our converter, the value Rive's runtime put on its target
/// after every advance. Binds are matched by target, property, flags and converter type, the
/// last taken from our converter list: every trace bind must find its match, which holds our
/// converter index space against Rive's.
@Suite struct TraceBindTests {
    /// The traces whose artboard binds go through converters.
    static let traces = [
        "dbt2_bool_toggle", "dbt2_range_mapper", "dbt_bound_props", "dbt_calc_tostring", "dbt_trim_string",
        "interpolate_to_end", "listener_view_model", "saturation",
    ]

    @Test(arguments: traces) func convertersGiveRivesTargetValues(trace: String) throws {
        let lines = try ConverterFixtures.traceLines(trace)
        let script = try #require(lines.first { $0["kind"] as? String == "script" })
        let header = try #require(lines.first { $0["kind"] as? String == "header" })
        let states = lines.filter { $0["kind"] as? String == "state" }
        let file = try #require(script["file"] as? String)
        let schema = try RiveFileReader.read([UInt8](ConverterFixtures.contents(file)))
        let converters = DataConverters(graph: schema.graph)
        let viewModelName = try #require(header["viewModel"] as? String)
        let viewModel = try #require(schema.viewModels.firstIndex { $0.name == viewModelName })
        let types = try #require(header["schema"] as? [String: String])
        let enumValues = header["enumValues"] as? [String: [String]] ?? [:]
        let graphBinds = Self.artboardBinds(schema.graph, artboard: try #require(header["artboard"] as? String))
        let firstBinds = try #require(states.first?["binds"] as? [[String: Any]])
        // Match each of the trace's binds to the first unused data bind of the artboard with
        // the same target, target type, property, flags and converter type.
        var matched: [GraphBind] = []
        var used: Set<Int> = []
        for bind in firstBinds {
            let signature = GraphBind.Signature(
                target: bind["target"] as? String ?? "", targetType: bind["type"] as? String ?? "",
                property: (bind["prop"] as? String)?.split(separator: ".").last.map(String.init) ?? "",
                flags: UInt64(bind["flags"] as? Int ?? -1), converterType: bind["converter"] as? String)
            guard
                let index = graphBinds.indices.first(where: {
                    !used.contains($0) && graphBinds[$0].signature(converters) == signature
                })
            else {
                Issue.record("\(trace): no data bind like \(signature)")
                return
            }
            used.insert(index)
            matched.append(graphBinds[index])
        }
        var running: [Int: DataConverter] = [:]
        var checked = 0
        for state in states {
            let after = try #require(state["after"] as? [String: Any])
            let seconds = Float((after["advance"] ?? after["init"]) as? Double ?? 0)
            let values = try #require(state["vm"] as? [String: Any])
            let binds = try #require(state["binds"] as? [[String: Any]])
            for (index, bind) in binds.enumerated() {
                let graphBind = matched[index]
                guard let converterId = graphBind.converterId, let definition = converters.converter(converterId) else { continue }
                guard bind["flags"] as? Int == 0, graphBind.path.count == 2, graphBind.path[0] == UInt32(viewModel),
                    Int(graphBind.path[1]) < schema.viewModels[viewModel].properties.count
                else { continue }
                let property = schema.viewModels[viewModel].properties[Int(graphBind.path[1])].name
                guard let type = types[property], let raw = values[property], let input = Self.value(raw, type: type) else {
                    continue
                }
                var converter = running[index] ?? definition
                _ = converter.advance(seconds)
                var context = PlainDataConverterContext(enumValues: enumValues[property] ?? [])
                let output = converter.convert(input, in: &context)
                running[index] = converter
                #expect(Self.matches(output, bind["value"]), "\(trace) bind \(index) at \(state["time"] ?? ""): \(output)")
                checked += 1
            }
        }
        #expect(checked > 0)
    }

    /// A data bind of the artboard: its target, property, flags, converter and source path.
    struct GraphBind {
        var target: String
        var targetType: Int
        var propertyKey: Int
        var flags: UInt64
        var converterId: Int?
        var path: [UInt32]

        /// What a trace says about a bind.
        struct Signature: Equatable, CustomStringConvertible {
            var target: String
            var targetType: String
            var property: String
            var flags: UInt64
            /// The Rive type name of the bind's converter.
            var converterType: String?

            var description: String { "\(targetType) \(target).\(property) flags \(flags) \(converterType ?? "")" }
        }

        /// The bind as a trace describes it; the converter type comes from our converter list.
        func signature(_ converters: DataConverters) -> Signature {
            let converter = converterId.flatMap { converters.converter($0) }
            return Signature(
                target: target, targetType: RiveDefinitions.type(targetType)?.name ?? "",
                property: RiveDefinitions.property(propertyKey)?.name ?? "", flags: flags,
                converterType: converter.flatMap { RiveDefinitions.type($0.typeKey)?.name })
        }
    }

    /// The data binds between the artboard named `name` and the next artboard, in order.
    static func artboardBinds(_ graph: RiveGraph, artboard name: String) -> [GraphBind] {
        var binds: [GraphBind] = []
        var inArtboard = false
        var target = RiveObject(typeKey: 0)
        for object in graph.objects where RiveDefinitions.type(object.typeKey) != nil {
            if object.typeKey == 1 { inArtboard = object.string(4) == name }
            if RiveDefinitions.type(object.typeKey, isA: 446) {
                guard inArtboard else { continue }
                let converter = object.uint(660).flatMap { $0 < UInt64(UInt32.max) ? Int($0) : nil }
                let path = ConverterFixtures.idList(object.bytes(588) ?? [])
                binds.append(
                    GraphBind(
                        target: target.string(4) ?? "", targetType: target.typeKey,
                        propertyKey: Int(clamping: object.uint(586) ?? 0), flags: object.uint(587) ?? 0, converterId: converter,
                        path: path))
            } else {
                target = object
            }
        }
        return binds
    }

    /// A trace value of the given schema type as a property value.
    static func value(_ raw: Any, type: String) -> PropertyValue? {
        switch type {
        case "number": return (raw as? Double).map { .number(Float($0)) }
        case "string": return (raw as? String).map { .string($0) }
        case "boolean": return (raw as? Bool).map { .boolean($0) }
        case "color": return (raw as? String).flatMap(color).map { .color($0) }
        case "enum": return (raw as? String).map { .enumValue($0) }
        default: return nil
        }
    }

    static func color(_ text: String) -> UInt32? {
        guard text.hasPrefix("#") else { return nil }
        return UInt32(text.dropFirst(), radix: 16)
    }

    /// Whether a converter output is the value the trace shows on the target.
    static func matches(_ output: PropertyValue, _ expected: Any?) -> Bool {
        switch output {
        case .number(let number):
            guard let expected = expected as? Double else { return false }
            return abs(Double(number) - expected) < 1e-3
        case .string(let text): return text == expected as? String
        case .boolean(let flag): return flag == expected as? Bool
        case .color(let color): return (expected as? String).flatMap(Self.color) == color
        default: return false
        }
    }
}
