import RiveSyncModel
import Testing

/// How converters are collected from an object stream, on hand-made graphs: the cases the
/// fixtures do not have, and hostile ones.
@Suite struct ConverterGraphTests {
    static func object(_ typeKey: Int, _ properties: [Int: RiveFieldValue] = [:]) -> RiveObject {
        RiveObject(typeKey: typeKey, properties: properties)
    }

    static func name(_ text: String) -> [Int: RiveFieldValue] { [662: .bytes(Array(text.utf8))] }

    static let backboard = object(23)

    /// Groups that name themselves, each other, or ids out of range leave those items out;
    /// nesting stops at the maximum depth.
    @Test func groupCyclesAndBadIdsAreLeftOut() {
        let graph = RiveGraph(objects: [
            Self.backboard,
            Self.object(499, Self.name("a")),  // 0: [0, 1, 7, missing]
            Self.object(498, [679: .uint(0)]), Self.object(498, [679: .uint(1)]), Self.object(498, [679: .uint(7)]),
            Self.object(498),
            Self.object(499, Self.name("b")),  // 1: [0, 2]
            Self.object(498, [679: .uint(0)]), Self.object(498, [679: .uint(2)]),
            Self.object(535, Self.name("negate")),  // 2
        ])
        let converters = DataConverters(graph: graph)
        #expect(converters.converters.map(\.name) == ["a", "b", "negate"])
        // a holds b, which holds negate (b's item naming a is a cycle).
        #expect(converters.converters[0].groupItemNames == ["b"])
        guard case .group(let a) = converters.converters[0].kind else {
            Issue.record("a is not a group")
            return
        }
        #expect(a.items[0].groupItemNames == ["negate"])
        // Resolved on its own, b holds a (whose items all name itself, b or nothing) and negate.
        #expect(converters.converters[1].groupItemNames == ["a", "negate"])
        guard case .group(let b0) = converters.converters[1].kind else {
            Issue.record("b is not a group")
            return
        }
        #expect(b0.items[0].groupItemNames == [])
        var b = converters.converters[1]
        #expect(b.convert(.boolean(true)) == .boolean(false))
        #expect(converters.converter(id: nil) == nil)
        #expect(converters.converter(id: 3) == nil)
        #expect(converters.convert(.boolean(false), with: 2) == .boolean(true))
        #expect(converters.convert(.boolean(false), with: 9) == .boolean(false))

        var deep: [RiveObject] = [Self.backboard]
        for level in 0..<40 {
            deep.append(Self.object(499, Self.name("g\(level)")))
            deep.append(Self.object(498, [679: .uint(UInt64(level + 1))]))
        }
        deep.append(Self.object(535))
        let nested = DataConverters(graph: RiveGraph(objects: deep))
        var depth = 0
        var current = nested.converters[0]
        while case .group(let group) = current.kind, let first = group.items.first {
            current = first
            depth += 1
        }
        #expect(depth == DataConverters.maximumGroupDepth)
    }

    /// Data binds right after a converter or a formula token target it (objects of unknown
    /// types in between are dropped, as Rive's reader drops them); binds after anything else
    /// do not.
    @Test func bindsOnConvertersAndFormulaTokens() {
        let path: [UInt8] = [0x00, 0x81, 0x01]  // [0, 129]
        let graph = RiveGraph(objects: [
            Self.backboard,
            Self.object(500, Self.name("op")),
            Self.object(9999),
            Self.object(447, [586: .uint(681), 587: .uint(0), 588: .bytes(path)]),
            Self.object(536, Self.name("formula")),
            Self.object(545), Self.object(541, [775: .uint(0)]), Self.object(543),
            Self.object(447, [586: .uint(777), 660: .uint(0), 588: .bytes([1, 2])]),
            Self.object(435),
            Self.object(447, [586: .uint(4)]),
        ])
        let converters = DataConverters(graph: graph)
        #expect(converters.converters[0].binds == [DataConverterBind(propertyKey: 681, flags: 0, sourcePathIds: [0, 129])])
        #expect(
            converters.converters[1].binds == [
                DataConverterBind(propertyKey: 777, converterId: 0, sourcePathIds: [1, 2], formulaToken: 2)
            ])
        var formula = converters.converters[1]
        #expect(formula.convert(.number(2)) == .number(3))
        formula.setProperty(777, to: .number(40), formulaToken: 2)
        #expect(formula.convert(.number(2)) == .number(42))
    }

    /// Only objects after the backboard count; group items and tokens without a group or
    /// formula are dropped; the interpolator space holds the interpolators before the first
    /// artboard (a scripted one as nil); unresolvable ids name nothing.
    @Test func indexSpaces() {
        let graph = RiveGraph(objects: [
            Self.object(535, Self.name("before backboard")),
            Self.backboard,
            Self.object(498, [679: .uint(0)]),
            Self.object(543),
            Self.object(28, [63: .float(0.1)]),
            Self.object(972),
            Self.object(519, Self.name("mapper").merging([714: .uint(1)]) { $1 }),
            Self.object(534, Self.name("interpolator").merging([758: .uint(0)]) { $1 }),
            Self.object(568, Self.name("list").merging([816: .uint(1)]) { $1 }),
            Self.object(435),
            Self.object(1),
            Self.object(174),
            Self.object(519, Self.name("unknown interpolator").merging([714: .uint(2)]) { $1 }),
            Self.object(629, Self.name("scripted")),
        ])
        let converters = DataConverters(graph: graph)
        #expect(converters.converters.map(\.name) == ["mapper", "interpolator", "list", "unknown interpolator", "scripted"])
        #expect(converters.objectIndices == [6, 7, 8, 12, 13])
        #expect(converters.interpolators == [.cubicEase(CubicEaseInterpolator(x1: 0.1)), nil])
        #expect(converters.converters[0].kind == .rangeMapper(DataConverterRangeMapper(interpolator: nil)))
        #expect(
            converters.converters[1].kind
                == .interpolator(DataConverterInterpolator(interpolator: .cubicEase(CubicEaseInterpolator(x1: 0.1)))))
        #expect(converters.converters[2].kind == .numberToList(DataConverterNumberToList(viewModelId: nil)))
        #expect(converters.converters[3].kind == .rangeMapper(DataConverterRangeMapper()))
        #expect(converters.converters[4].kind == .unsupported)
    }
}
