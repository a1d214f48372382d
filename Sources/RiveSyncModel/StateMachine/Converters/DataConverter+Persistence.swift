import RiveSyncJSON

extension DataConverter {
    /// What the converter keeps between conversions, as strict JSON (nil when it keeps
    /// nothing): an interpolator's legs and current value, a to-number's last output, a
    /// formula's drawn random numbers, a group's items' states. ``restoreState(_:)`` reads it.
    public var persistentState: JSONValue? {
        switch kind {
        case .interpolator(let interpolator):
            var members: [(String, JSONValue)] = [("advanceCount", .number(Double(interpolator.advanceCount)))]
            if let advancer = interpolator.advancer {
                members.append(
                    (
                        "advancer",
                        .object([
                            ("legA", Self.json(advancer.legA)), ("legB", Self.json(advancer.legB)),
                            ("smoothing", .bool(advancer.isSmoothing)), ("current", Self.json(advancer.current)),
                        ])
                    ))
            }
            return .object(members)
        case .toNumber(let converter): return .object([("output", .number(Double(converter.output)))])
        case .formula(let formula):
            return formula.randoms.isEmpty ? nil : .object([("randoms", .array(formula.randoms.map { .number(Double($0)) }))])
        case .group(let group):
            let states = group.items.map(\.persistentState)
            return states.allSatisfy { $0 == nil } ? nil : .object([("items", .array(states.map { $0 ?? .null }))])
        default: return nil
        }
    }

    /// Restores what ``persistentState`` wrote (for the same file's converter); false when the
    /// state does not fit it, leaving the converter as it was.
    public mutating func restoreState(_ json: JSONValue) -> Bool {
        switch kind {
        case .interpolator(var interpolator):
            guard let count = json["advanceCount"]?.intValue, (0...2).contains(count) else { return false }
            interpolator.advanceCount = UInt8(count)
            if let advancer = json["advancer"] {
                guard let legA = Self.leg(advancer["legA"]), let legB = Self.leg(advancer["legB"]),
                    let smoothing = advancer["smoothing"]?.boolValue, let current = Self.value(advancer["current"])
                else { return false }
                var restored = InterpolatorAdvancer(kind: current)
                restored.legA = legA
                restored.legB = legB
                restored.isSmoothing = smoothing
                restored.current = current
                interpolator.advancer = restored
            } else {
                interpolator.advancer = nil
            }
            kind = .interpolator(interpolator)
        case .toNumber(var converter):
            guard let output = json["output"]?.numberValue, output.isFinite else { return false }
            converter.output = Float(output)
            kind = .toNumber(converter)
        case .formula(var formula):
            guard let randoms = json["randoms"]?.arrayValue?.compactMap(\.numberValue) else { return false }
            formula.randoms = randoms.map { Float($0) }
            kind = .formula(formula)
        case .group(var group):
            guard let states = json["items"]?.arrayValue, states.count == group.items.count else { return false }
            for (index, state) in states.enumerated() where state != .null {
                guard group.items[index].restoreState(state) else { return false }
            }
            kind = .group(group)
        default:
            return false
        }
        return true
    }

    private static func json(_ leg: InterpolatorAnimationData) -> JSONValue {
        .object([("elapsed", .number(Double(leg.elapsedSeconds))), ("from", json(leg.from)), ("to", json(leg.to))])
    }

    private static func json(_ value: InterpolatedValue) -> JSONValue {
        switch value {
        case .number(let number): .object([("number", .number(Double(number)))])
        case .color(let color): .object([("color", .number(Double(color)))])
        }
    }

    private static func leg(_ json: JSONValue?) -> InterpolatorAnimationData? {
        guard let elapsed = json?["elapsed"]?.numberValue, elapsed.isFinite, let from = value(json?["from"]),
            let to = value(json?["to"])
        else { return nil }
        return InterpolatorAnimationData(elapsedSeconds: Float(elapsed), from: from, to: to)
    }

    private static func value(_ json: JSONValue?) -> InterpolatedValue? {
        if let number = json?["number"]?.numberValue, number.isFinite { return .number(Float(number)) }
        if let color = json?["color"]?.numberValue, color >= 0, color <= Double(UInt32.max), color == color.rounded() {
            return .color(UInt32(color))
        }
        return nil
    }
}
